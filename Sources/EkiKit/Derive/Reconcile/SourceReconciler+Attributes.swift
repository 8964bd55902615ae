/// The attribute rule of `SourceReconciler`: readings and prefectures for rows without them.
extension SourceReconciler {
    /// Rule 4: a row without a reading takes the reading of the nearest row of the same name
    /// within `attributeDistance` (any operator, any source); the same for the prefecture, and a
    /// prefecture still missing comes from the point (`boundaries`).
    func fillAttributes(_ ctx: inout Context, _ report: inout Report) {
        // Decided first and applied after (order independence), as pairs of row numbers: the
        // row, and the row it takes the value from (a row that has it, left unchanged here), or
        // for a prefecture from the point, -1 - its index in `pointNames`.
        var readings: [(row: Int32, from: Int32)] = []
        var prefectures: [(row: Int32, from: Int32)] = []
        var pointNames: [String] = []
        var pointIndex: [String: Int32] = [:]
        var lookup = boundaries.map(PrefectureBoundaries.Lookup.init)
        for i in ctx.rows.indices {
            let r = ctx.rows[i]
            let needsReading = r.reading == nil, needsPrefecture = r.prefecture == nil
            guard needsReading || needsPrefecture else { continue }
            let near = !ctx.mayHaveNeighbours(i) ? [] : ctx.neighbours(of: i, within: attributeDistance) { j in
                ctx.rows[j].reading != nil || ctx.rows[j].prefecture != nil
            }
            if needsReading, let j = near.first(where: { ctx.rows[$0].reading != nil }) {
                readings.append((Int32(i), Int32(j)))
            }
            if needsPrefecture {
                if let j = near.first(where: { ctx.rows[$0].prefecture != nil }) {
                    prefectures.append((Int32(i), Int32(j)))
                } else if let p = lookup?.prefecture(at: r.coordinate) {
                    let k = pointIndex[p] ?? { let k = Int32(pointNames.count); pointNames.append(p); pointIndex[p] = k; return k }()
                    prefectures.append((Int32(i), -1 - k))
                }
            }
        }
        for (i, j) in readings {
            ctx.rows[Int(i)].reading = ctx.rows[Int(j)].reading
            report.counts[.reading, default: 0] += 1
        }
        for (i, from) in prefectures {
            if from >= 0 {
                ctx.rows[Int(i)].prefecture = ctx.rows[Int(from)].prefecture
                report.counts[.prefecture, default: 0] += 1
            } else {
                ctx.rows[Int(i)].prefecture = pointNames[Int(-1 - from)]
                report.counts[.prefectureFromPoint, default: 0] += 1
            }
        }
    }
}
