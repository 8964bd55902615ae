/// The service-class rule of `SourceReconciler`: one station that two sources put in two classes.
extension SourceReconciler {
    /// Rule 5a: a conventional row of a per-station dataset (`perStationDatasets`) becomes a
    /// Shinkansen row when, at the same station (`looseKey`, within `variantDistance`) and on a
    /// matching line, another source has it only as the same operator's Shinkansen and the
    /// per-station dataset has no Shinkansen row there. That is ガーラ湯沢: N02-23 files it
    /// under 上越線 (the branch is legally a conventional line), station_database under
    /// 上越新幹線(上越線); only Shinkansen trains run there, so it is one Shinkansen entry
    /// (the class a rider travels in, as 降りつぶし lists count it).
    func unifyClasses(_ ctx: inout Context, _ report: inout Report) {
        guard !perStationDatasets.isEmpty else { return }
        var changes: [Int] = []
        for i in ctx.rows.indices where perStationDatasets.contains(ctx.rows[i].source.dataset)
            && ctx.rows[i].serviceClass == .conventional && !ctx.rows[i].isClosed {
            let own = operatorID(ctx.rows[i])
            let near = ctx.neighbours(of: i, within: variantDistance, loose: true) { j in
                !ctx.rows[j].isClosed && self.operatorID(ctx.rows[j]) == own
            }
            let others = near.filter { !perStationDatasets.contains(ctx.rows[$0].source.dataset) }
            guard others.contains(where: { ctx.rows[$0].serviceClass == .shinkansen && ctx.sameLine(i, $0) }),
                  !others.contains(where: { ctx.rows[$0].serviceClass == .conventional }),
                  !near.contains(where: { perStationDatasets.contains(ctx.rows[$0].source.dataset) && ctx.rows[$0].serviceClass == .shinkansen })
            else { continue }
            changes.append(i)
        }
        for i in changes {
            ctx.rows[i].serviceClass = .shinkansen
            let r = ctx.rows[i]
            report.add(Decision(kind: .serviceClass, row: r.source, name: r.name, line: r.lines.first ?? "",
                                before: ServiceClass.conventional.rawValue, after: ServiceClass.shinkansen.rawValue))
        }
    }
}
