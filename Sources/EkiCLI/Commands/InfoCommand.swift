import EkiKit

/// `eki info`: what the database holds.
struct InfoCommand: Command {
    static let summary = "counts per source, operator and class"
    static let help = """
    usage: eki info [--db PATH] [--format table|json]
           eki info [--db PATH] --unmatched DATASET [--include-closed] [--format F]
           eki info [--db PATH] --conflicts [--format table|json]
           eki info [--db PATH] --unmatched-lines DATASET [--format table|json]
           eki info [--db PATH] --check

    Prints the number of entries (open and all), per source dataset — with how many of them
    another dataset confirms (matched) — per operator × class, and the conflicts between
    sources it resolved, per kind, and the open lines — per dataset, how many of its lines
    no other dataset's line joined (unmatched).
      --conflicts          list the source rows whose conflict could not be resolved (no
                           operator known in any source), and the operator decisions taken
      --unmatched DATASET  list the open entries only DATASET has (no other source matched
                           them), for a person to check; any station output format
      --unmatched-lines DATASET  list the open lines only DATASET has (id, operator, name,
                           stations, sources)
      --check              look for damage (read-only): SQLite's integrity_check, rtreecheck()
                           on the spatial index, and every station row read back against it;
                           says what is damaged and how to rebuild the file; exit 1 when damaged
    \(TableWidth.help)\(DatabaseOption.help)
    """

    let args: Arguments
    let console: Console
    let format: OutputFormat

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: ["db", "format", "unmatched", "unmatched-lines"], flags: ["include-closed", "wide", "conflicts", "check"])
        self.console = console
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        format = try OutputFormat(option: args["format"])
        if args.has("check"), args["format"] != nil || args["unmatched"] != nil || args["unmatched-lines"] != nil || args.has("conflicts") {
            throw UsageError("--check takes only --db")
        }
        guard args["unmatched"] != nil || format == .table || format == .json else {
            throw UsageError("--format must be table or json (geojson and csv go with --unmatched)")
        }
    }

    func run() throws -> Int32 {
        let path = DatabaseOption.path(args, console)
        if args.has("check") {
            let report = InfoCheck.render(try StoreCheck(path: path))
            console.out(report.text)
            return report.status
        }
        let store = try StationStore(path: path, readOnly: true)
        if let dataset = args["unmatched"] {
            let known = try store.info.summary().datasets.map(\.name)
            guard known.contains(dataset) else {
                throw UsageError("--unmatched: no dataset '\(dataset)' in \(path) (datasets: \(known.joined(separator: ", ")))")
            }
            let list = try store.entries.unmatched(dataset: dataset, includeClosed: args.has("include-closed"))
            console.out(StationOutput.render(list.map { StationRow(station: $0) }, format: format,
                                             width: TableWidth.columns(wide: args.has("wide"), console: console)))
            return 0
        }
        if let dataset = args["unmatched-lines"] {
            let known = try store.info.summary().datasets.map(\.name)
            guard known.contains(dataset) else {
                throw UsageError("--unmatched-lines: no dataset '\(dataset)' in \(path) (datasets: \(known.joined(separator: ", ")))")
            }
            let lines = try InfoLines(store: store, datasets: known)?.unmatched(dataset) ?? []
            console.out(InfoLines.render(lines, json: format == .json))
            return 0
        }
        let report = try store.info.conflicts()
        if args.has("conflicts") {
            console.out(Self.conflictList(report, json: format == .json))
            return 0
        }
        let info = try store.info.summary()
        let lines = try InfoLines(store: store, datasets: info.datasets.map(\.name))
        let kinds = SourceReconciler.Kind.allCases.filter { report.counts[$0] != nil && $0 != .unresolvedOperator }
        let editions = try store.info.editions()
        if format == .json {
            let j = JSONValue.object([
                ("database", .string(path)), ("entries", .int(info.entries)), ("open", .int(info.openEntries)),
                ("retired", .int(info.retiredEntries)),
                ("datasets", .array(info.datasets.map { .object([("dataset", .string($0.name)), ("entries", .int($0.entries)), ("open", .int($0.open)),
                                                                 ("matched", .int($0.matched)), ("open_matched", .int($0.openMatched))]) })),
                ("conflicts_resolved", .array(kinds.map { .object([("kind", .string($0.rawValue)), ("rows", .int(report.counts[$0]!))]) })),
                ("conflicts_unresolved", .int(report.unresolved.count)),
                ("lines", lines?.json ?? .null),
                ("editions", .object(editions.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
                ("operators", .array(info.operators.map { .object([("operator_id", .string($0.operatorID)), ("operator", .string($0.label)), ("known", .bool($0.known)), ("class", .string($0.serviceClass.rawValue)), ("entries", .int($0.entries)), ("open", .int($0.open))]) })),
            ])
            console.out(j.text(pretty: true) + "\n")
            return 0
        }
        var out = "\(path): \(info.entries) entries (\(info.openEntries) open, \(info.retiredEntries) retired)\n\nby source:\n"
        func pct(_ a: Int, _ b: Int) -> String { b == 0 ? "-" : String(format: "%.1f %%", 100 * Double(a) / Double(b)) }
        out += DisplayWidth.table(header: ["dataset", "entries", "open", "matched", "open matched", "open unmatched"],
                                  rows: info.datasets.map { [$0.name, String($0.entries), String($0.open),
                                                             "\($0.matched) (\(pct($0.matched, $0.entries)))",
                                                             "\($0.openMatched) (\(pct($0.openMatched, $0.open)))",
                                                             String($0.open - $0.openMatched)] })
        if info.datasets.count > 1 { out += "(matched: another dataset has rows in the same entry; list the rest with --unmatched DATASET)\n" }
        if let lines { out += lines.text }
        out += "\nby operator and class:\n"
        out += DisplayWidth.table(header: ["operator", "id", "class", "entries", "open"],
                                  rows: info.operators.map { [$0.label, $0.operatorID, $0.serviceClass == .shinkansen ? "新幹線" : "在来線", String($0.entries), String($0.open)] })
        if !editions.isEmpty {
            out += "\neditions: " + editions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + "\n"
        }
        out += "\nconflicts between sources resolved (source rows):\n"
        out += DisplayWidth.table(header: ["kind", "rows"], rows: kinds.map { [$0.rawValue, String(report.counts[$0]!)] })
        out += "unresolved: \(report.unresolved.count) (list them with --conflicts)\n"
        let unknown = info.unknownOperators
        let none = info.withoutOperator
        if none.entries > 0 { out += "entries without an operator: \(none.entries) (\(none.open) open)\n" }
        if !unknown.isEmpty {
            out += "\noperators the operator table does not know (kept under their own name; add aliases with `eki import --operators FILE`):\n"
            out += unknown.map { "  \($0.label) (\($0.operatorID))" }.joined(separator: "\n") + "\n"
        }
        console.out(out)
        return 0
    }

    /// `--conflicts`: the unresolved rows, then the operator decisions (one line each).
    static func conflictList(_ report: SourceReconciler.Report, json: Bool) -> String {
        func obj(_ d: SourceReconciler.Decision) -> JSONValue {
            .object([("kind", .string(d.kind.rawValue)), ("dataset", .string(d.row.dataset)), ("id", .string(d.row.id)),
                      ("name", .string(d.name)), ("line", .string(d.line)), ("before", .string(d.before)), ("after", .string(d.after))])
        }
        let decided = report.decisions.filter { $0.kind != .unresolvedOperator }
        if json {
            return JSONValue.object([("unresolved", .array(report.unresolved.map(obj))), ("decisions", .array(decided.map(obj)))]).text(pretty: true) + "\n"
        }
        func row(_ d: SourceReconciler.Decision) -> [String] { [d.kind.rawValue, "\(d.row.dataset):\(d.row.id)", d.name, d.line, d.before, d.after] }
        let header = ["kind", "row", "name", "line", "before", "after"]
        var out = "could not be resolved: \(report.unresolved.count)\n"
        if !report.unresolved.isEmpty { out += DisplayWidth.table(header: header, rows: report.unresolved.map(row)) }
        out += "\nresolved (operators, classes, names): \(decided.count)\n"
        if !decided.isEmpty { out += DisplayWidth.table(header: header, rows: decided.map(row)) }
        return out
    }
}
