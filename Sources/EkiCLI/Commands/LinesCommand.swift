import EkiKit
import Foundation

/// `eki lines [--operator X] [--prefecture P] [--class c|s] [--format F]`: every line with its
/// completion, grouped by operator.
struct LinesCommand: Command {
    static let summary = "lines (路線) with stations visited / total, per operator"
    static let help = """
    usage: eki lines [--db PATH] [--operator X] [--prefecture P] [--class c|s] [--include-closed]
                     [--include-staff-only] [--rules oritsubushi|all] [--format table|json|csv]
                     [--wide] [--visits PATH]

    Lists the lines of the line table (one operator's line: JR東海 東海道新幹線; see
    docs/lines.md), grouped by operator type (JR, 大手私鉄, 準大手私鉄, その他: Datasets/operator-types.csv)
    and operator, each with its open entries visited / total and the percent.
      --operator X      only this operator's lines (its id, jr-central, or a name: JR東海);
                        a name that is no operator with lines exits 1 with the closest names
      --prefecture P    only lines with open entries in prefecture P (神奈川県), counting those
      --class c|s       only conventional (c) or Shinkansen (s) lines
      --include-closed  also lines no source has open
      --include-staff-only  count staff-only stops (黒部峡谷鉄道 柳橋 …: passengers may not
                        get on or off) in the totals; left out by default
      --format F        table (default), json (an array of lines: id, name, operator_id, class,
                        aliases, visited, total) or csv
    \(TableWidth.help)\(CountingOption.help)\(VisitOptions.pathHelp)\(DatabaseOption.help)
    Examples:
      eki lines --operator JR東海
      eki lines --prefecture 神奈川県 --class c
    """

    let args: Arguments
    let console: Console
    let format: OutputFormat
    let serviceClass: ServiceClass?

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: ["db", "operator", "prefecture", "class", "format", "visits", "rules"],
                             flags: ["include-closed", "include-staff-only", "wide"])
        self.console = console
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        serviceClass = try Self.serviceClass(args["class"])
        format = try OutputFormat(option: args["format"])
        guard format != .geojson else { throw UsageError("--format must be table, json or csv") }
        _ = try CountingOption.rules(args)
    }

    /// `c`/`conventional` or `s`/`shinkansen`.
    static func serviceClass(_ option: String?) throws(UsageError) -> ServiceClass? {
        switch option {
        case nil: return nil
        case "c", "conventional": return .conventional
        case "s", "shinkansen": return .shinkansen
        case let o?: throw UsageError("--class must be c (conventional) or s (shinkansen), got '\(o)'")
        }
    }

    func run() throws -> Int32 {
        let store = try StationStore(path: DatabaseOption.path(args, console), readOnly: true)
        let log = try VisitOptions.openForReading(VisitOptions.path(args, console), console: console, note: false)
        let visits = try VisitedStations(log: log, store: store)
        // Staff-only stops (unless asked for), and the entries the rules leave out (suspended ones by default).
        let staffOnly = (args.has("include-staff-only") ? [] : try store.entries.keys(of: .staffOnly))
            .union(try CountingOption.rules(args, log: log).excludedKeys(store: store))
        // By operator type, then as the store orders them (operator, class, name).
        let lines = OperatorTypes.grouped(try store.lines.all(operator: args["operator"], prefecture: args["prefecture"],
                                                              serviceClass: serviceClass, includeClosed: args.has("include-closed")))
            .map { $0.without(staffOnly) }
        // No line: an --operator that names no operator with lines is an error with suggestions.
        if lines.isEmpty, let name = args["operator"] { try NameLookup.checkOperator(name, store: store) }
        let visited = { (l: Line) in l.stationKeys.filter(visits.isVisited).count }
        switch format {
        case .json:
            console.out(JSONValue.array(lines.map { LineJSON.line($0, visited: visited($0)) }).text(pretty: true) + "\n")
        case .csv:
            console.out("id,operator_type,operator_id,operator,name,class,visited,total,percent\r\n" + lines.map {
                CSVWriter.record([$0.id, $0.operatorType, $0.operatorID, $0.operatorName, $0.name, $0.serviceClass.rawValue,
                                  String(visited($0)), String($0.total), LineJSON.percent(visited($0), $0.total)])
            }.joined())
        default:
            var rows: [[String]] = []
            var last: String?, lastType: String?
            for l in lines {
                rows.append([l.operatorType == lastType ? "" : l.operatorType, l.operatorID == last ? "" : l.operatorName,
                             l.name + (l.isLoop ? " (loop)" : ""), l.serviceClass == .shinkansen ? "新幹線" : "在来線",
                             String(visited(l)), String(l.total), LineJSON.percent(visited(l), l.total) + "%"])
                last = l.operatorID
                lastType = l.operatorType
            }
            let v = lines.reduce(0) { $0 + visited($1) }, t = lines.reduce(0) { $0 + $1.total }
            rows.append(["total", "", "\(lines.count) lines", "", String(v), String(t), LineJSON.percent(v, t) + "%"])
            // Long operator, then line names are cut to fit the terminal; the figures never are.
            console.out(DisplayWidth.table(header: ["type", "operator", "line", "class", "visited", "total", "percent"], rows: rows,
                                           width: TableWidth.columns(wide: args.has("wide"), console: console),
                                           elidable: [1, 2], droppable: [3]))
        }
        return 0
    }
}

/// The JSON shapes of lines shared by `eki lines` and `eki line`.
enum LineJSON {
    /// `visited / total` in percent with two decimals (`0.00` for an empty line).
    static func percent(_ visited: Int, _ total: Int) -> String {
        String(format: "%.2f", total == 0 ? 0 : 100 * Double(visited) / Double(total))
    }

    /// `id`, `name`, `operator_id`, `class` (`shinkansen`|`conventional`), `aliases`, `visited`,
    /// `total` (open entries), then `operator`, `operator_type`, `loop`, `color`, `sources`.
    static func line(_ l: Line, visited: Int) -> JSONValue {
        .object([("id", .string(l.id)), ("name", .string(l.name)), ("operator_id", .string(l.operatorID)),
                 ("class", .string(l.serviceClass.rawValue)), ("aliases", .array(l.aliases.map(JSONValue.string))),
                 ("visited", .int(visited)), ("total", .int(l.total)), ("operator", .string(l.operatorName)),
                 ("operator_type", .string(l.operatorType)),
                 ("loop", .bool(l.isLoop)), ("color", .optional(l.color)), ("sources", .array(l.sources.map(JSONValue.string)))])
    }
}
