import EkiKit

/// `eki stats [--by operator|line|prefecture|class]`: how far the visit log has got.
struct StatsCommand: Command {
    static let summary = "completion: visited / total / percent, per operator, line, prefecture or class"
    static let help = """
    usage: eki stats [--by operator|line|prefecture|class] [--format table|json|csv]
                     [--include-staff-only] [--rules oritsubushi|all]

    Counts the open entries of the station database with a counting visit (see `eki visit
    --help`) against all open entries, in total and per group, most visited first. Closed
    entries keep their visits but are in no total; orphaned visit keys count nowhere (`eki
    visit check` lists them). By line, an entry counts once in each of its lines.
      --by G        operator (its short name: JR東海), line, prefecture or class
      --format F    table (default), json or csv
      --include-staff-only  count staff-only stops (黒部峡谷鉄道 柳橋 …: passengers may not
                    get on or off) in the totals; left out by default
    \(CountingOption.help)\(VisitOptions.pathHelp)\(DatabaseOption.help)
    """

    let args: Arguments
    let console: Console
    let grouping: VisitGrouping?
    let format: OutputFormat

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: ["by", "format", "db", "visits", "rules"], flags: ["include-staff-only"])
        self.console = console
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        if let by = args["by"] {
            guard let g = VisitGrouping(rawValue: by) else {
                throw UsageError("--by must be one of \(VisitGrouping.allCases.map(\.rawValue).joined(separator: ", ")), got '\(by)'")
            }
            grouping = g
        } else {
            grouping = nil
        }
        format = try OutputFormat(option: args["format"])
        guard format != .geojson else { throw UsageError("--format must be table, json or csv") }
        _ = try CountingOption.rules(args)
    }

    func run() throws -> Int32 {
        let store = try StationStore(path: DatabaseOption.path(args, console), readOnly: true)
        let log = try VisitOptions.openForReading(VisitOptions.path(args, console), console: console)
        let visited = try VisitedStations(log: log, store: store)
        // By line: the unified lines of the line table when the database has one.
        let staff = args.has("include-staff-only")
        let rules = try CountingOption.rules(args, log: log)
        let stats = grouping == .line && store.lines.exists ? try visited.lineStatistics(store: store, includeStaffOnly: staff, rules: rules)
            : try visited.statistics(store: store, by: grouping, includeStaffOnly: staff, rules: rules)
        let name = grouping?.rawValue ?? "group"
        switch format {
        case .json:
            console.out(stats.json(groupName: name).text(pretty: true) + "\n")
        case .csv:
            console.out("\(name),visited,total,percent\r\n" + (stats.groups + [stats.total]).map {
                CSVWriter.record([$0.group, String($0.visited), String($0.total), String(format: "%.2f", $0.percent)])
            }.joined())
        default:
            let label = { (g: String) in self.grouping == .serviceClass ? (g == "shinkansen" ? "新幹線" : "在来線") : g }
            let row = { (group: String, t: VisitTally) in [group, String(t.visited), String(t.total), t.percentText] }
            var out = DisplayWidth.table(header: [name, "visited", "total", "percent"],
                                         rows: stats.groups.map { row(label($0.group), $0) } + [row("total", stats.total)])
            if stats.closedVisited > 0 {
                out += "\(stats.closedVisited) visited \(stats.closedVisited == 1 ? "entry is" : "entries are") closed (visits kept, not in the totals)\n"
            }
            if stats.orphanedKeys > 0 {
                out += "\(stats.orphanedKeys) visited \(stats.orphanedKeys == 1 ? "key resolves" : "keys resolve") to no entry (see `eki visit check`)\n"
            }
            console.out(out)
        }
        return 0
    }
}
