/// The service-class rule of `SourceReconciler`: one station that two sources put in two classes.
extension SourceReconciler {
    /// Rule 5a: a Shinkansen row of a per-line dataset (not in `perStationDatasets`) becomes a
    /// conventional row when, at the same station (`looseKey`, within `variantDistance`) and on
    /// a matching line, a per-station dataset has it only as the same operator's conventional
    /// station and no per-line dataset has a conventional row there. That is ガーラ湯沢:
    /// station_database files it under 上越新幹線(上越線), N02-23 under 上越線; the branch is
    /// legally a conventional line (上越線's 越後湯沢–ガーラ湯沢), and 降りつぶし.net files the
    /// station under 上越線, so it is one conventional entry (`jr-east/c/ガーラ湯沢`; the key it
    /// had before, `jr-east/s/ガーラ湯沢`, is an alias: `EntryCatalog.builtInAliases`).
    func unifyClasses(_ ctx: inout Context, _ report: inout Report) {
        guard !perStationDatasets.isEmpty else { return }
        var changes: [Int] = []
        for i in ctx.rows.indices where !perStationDatasets.contains(ctx.rows[i].source.dataset)
            && ctx.rows[i].serviceClass == .shinkansen && !ctx.rows[i].isClosed {
            let own = operatorID(ctx.rows[i])
            let near = ctx.neighbours(of: i, within: variantDistance, loose: true) { j in
                !ctx.rows[j].isClosed && self.operatorID(ctx.rows[j]) == own
            }
            let perStation = near.filter { perStationDatasets.contains(ctx.rows[$0].source.dataset) }
            guard perStation.contains(where: { ctx.rows[$0].serviceClass == .conventional && ctx.sameLine(i, $0) }),
                  !perStation.contains(where: { ctx.rows[$0].serviceClass == .shinkansen }),
                  !near.contains(where: { !perStationDatasets.contains(ctx.rows[$0].source.dataset) && ctx.rows[$0].serviceClass == .conventional })
            else { continue }
            changes.append(i)
        }
        for i in changes {
            ctx.rows[i].serviceClass = .conventional
            let r = ctx.rows[i]
            report.add(Decision(kind: .serviceClass, row: r.source, name: r.name, line: r.lines.first ?? "",
                                before: ServiceClass.shinkansen.rawValue, after: ServiceClass.conventional.rawValue))
        }
    }
}
