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
