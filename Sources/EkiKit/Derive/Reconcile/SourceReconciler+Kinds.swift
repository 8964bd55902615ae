/// The kind rule of `SourceReconciler`: which rows are seasonal or staff-only stops.
extension SourceReconciler {
    /// Rule 7: a row whose operator (after the operator rules) and name (`TextFold.nameKey`)
    /// are listed in `kinds` takes that kind; others stay `regular`. Run after `unifyNames`, so a
    /// row renamed to the official name is matched by it.
    func applyKinds(_ ctx: inout Context) {
        guard !kinds.entries.isEmpty else { return }
        // The name first: the table lists a few names, and most rows have none of them.
        let names = Set(kinds.entries.map { TextFold.nameKey($0.station) })
        for i in ctx.rows.indices {
            let key = ctx.nameKey(i)
            guard names.contains(key), let op = operatorID(ctx.rows[i]),
                  let k = kinds.kind(operatorID: op, nameKey: key) else { continue }
            ctx.rows[i].kind = k
        }
    }
}

/// The status rule of `SourceReconciler`: rows of stops a source still lists as open though
/// they are closed (`StationStatuses`).
extension SourceReconciler {
    /// Rule 7b: a row whose operator (after the operator rules) and name (`TextFold.nameKey`)
    /// are listed in `statuses` as `abolished` or `brt` is closed. Run after `unifyNames`.
    func applyStatuses(_ ctx: inout Context) {
        let closures = statuses.entries.filter { $0.status.isClosure }
        guard !closures.isEmpty else { return }
        let names = Set(closures.map { TextFold.nameKey($0.station) })
        for i in ctx.rows.indices where !ctx.rows[i].isClosed {
            let key = ctx.nameKey(i)
            guard names.contains(key), let op = operatorID(ctx.rows[i]),
                  let e = statuses.entry(operatorID: op, nameKey: key), e.status.isClosure else { continue }
            ctx.rows[i].isClosed = true
        }
    }
}
