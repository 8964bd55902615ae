/// The attribute rule of `SourceReconciler`: readings and prefectures for rows without them.
extension SourceReconciler {
    /// Rule 4: a row without a reading takes the reading of the nearest row of the same name
    /// within `attributeDistance` (any operator, any source); the same for the prefecture, and a
    /// prefecture still missing comes from the point (`boundaries`).
    func fillAttributes(_ ctx: inout Context, _ report: inout Report) {
        var readings: [(Int, String)] = []
        var prefectures: [(Int, String, Kind)] = []
        for i in ctx.rows.indices {
            let r = ctx.rows[i]
            let needsReading = r.reading == nil, needsPrefecture = r.prefecture == nil
            guard needsReading || needsPrefecture else { continue }
            let near = ctx.neighbours(of: i, within: attributeDistance) { j in
                ctx.rows[j].reading != nil || ctx.rows[j].prefecture != nil
            }
            if needsReading, let j = near.first(where: { ctx.rows[$0].reading != nil }) {
                readings.append((i, ctx.rows[j].reading!))
            }
            if needsPrefecture {
                if let j = near.first(where: { ctx.rows[$0].prefecture != nil }) {
                    prefectures.append((i, ctx.rows[j].prefecture!, .prefecture))
                } else if let p = boundaries?.prefecture(at: r.coordinate) {
                    prefectures.append((i, p, .prefectureFromPoint))
                }
            }
        }
        for (i, v) in readings {
            ctx.rows[i].reading = v
            report.counts[.reading, default: 0] += 1
        }
        for (i, v, kind) in prefectures {
            ctx.rows[i].prefecture = v
            report.counts[kind, default: 0] += 1
        }
    }
}
