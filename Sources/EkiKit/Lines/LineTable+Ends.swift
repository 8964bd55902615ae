extension LineTable {
    /// Entries of a line that no ordered source places (N02-23 knows them, station_database
    /// files the row under another operator's section), attached at an end of a sequence when
    /// they continue it: beyond the end (farther from the end's neighbour than the end is) and
    /// within 1.5 × the end's step. So JR西日本 北陸新幹線 starts at 上越妙高 (N02-23's
    /// JR西日本 row there; station_database's row is JR東日本's) before 糸魚川. Each entry is
    /// attached once, at the nearest qualifying end; others keep no position.
    /// - Parameters:
    ///   - sequences: the line's sequences of entry fids, in order; extended in place.
    ///   - unordered: the line's entries on no sequence.
    ///   - point: an entry's point (degrees WGS84), nil when unknown.
    static func extendEnds(_ sequences: inout [[Int64]], unordered: [Int64], point: (Int64) -> Coordinate?) {
        for f in unordered.sorted() {
            guard let p = point(f) else { continue }
            var best: (d: Double, seq: Int, atStart: Bool)?
            for (i, q) in sequences.enumerated() where q.count >= 2 {
                for atStart in [true, false] {
                    let end = atStart ? q[0] : q[q.count - 1], next = atStart ? q[1] : q[q.count - 2]
                    guard let e = point(end), let n = point(next) else { continue }
                    let step = Geodesic.distance(valid: e, n)
                    let d = Geodesic.distance(valid: p, e)
                    guard d <= 1.5 * step, Geodesic.distance(valid: p, n) > step, d < (best?.d ?? .infinity) else { continue }
                    best = (d, i, atStart)
                }
            }
            guard let best else { continue }
            if best.atStart { sequences[best.seq].insert(f, at: 0) } else { sequences[best.seq].append(f) }
        }
    }

    /// A `branch` row (`LineDefinitions`) applied to one sequence: the run from the branch's end
    /// `end` toward the junction `junction` (indexes into `sequence`), up to the station next to
    /// the junction or the first step more than 2.5 × the sequence's median step (where an
    /// ordered source lists the branch after the line's end: 丸ノ内線's 荻窪 → 中野新橋), leaves
    /// the sequence and becomes a branch from the junction: [junction, …, end].
    static func splitBranch(_ sequence: [Int64], junction: Int, end: Int, point: (Int64) -> Coordinate?) -> [[Int64]] {
        guard junction != end else { return [sequence] }
        var steps: [Double] = []
        for (a, b) in zip(sequence, sequence.dropFirst()) {
            if let p = point(a), let q = point(b) { steps.append(Geodesic.distance(valid: p, q)) }
        }
        guard !steps.isEmpty else { return [sequence] }
        let median = steps.sorted()[steps.count / 2]
        let dir = junction > end ? 1 : -1
        var run = [sequence[end]], i = end
        while i + dir != junction {
            let next = i + dir
            guard let p = point(sequence[i]), let q = point(sequence[next]),
                  Geodesic.distance(valid: p, q) <= 2.5 * median else { break }
            run.append(sequence[next])
            i = next
        }
        let taken = Set(run)
        return [sequence.filter { !taken.contains($0) }, [sequence[junction]] + run.reversed()]
    }
}
