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
}
