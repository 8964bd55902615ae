import EkiKit
import Foundation

/// `eki line NAME|ID [--format F]`: one line's stations in order, with visit marks.
struct LineCommand: Command {
    static let summary = "one line's stations in order along it, with visits"
    static let help = """
    usage: eki line [--db PATH] NAME|ID [--format table|json|geojson] [--include-staff-only]
                    [--rules oritsubushi|all] [--visits PATH]

    Lists the entries of one line in order along it (branch by branch), each with its visit
    mark, completion date and status (blank when open; suspended, closed or brt, as `eki show`
    gives it). NAME is a line id (jr-central/s/東海道新幹線) or any name of it
    (東海道新幹線, 銀座線, 3号線銀座線); a common name (山形新幹線) gives the section it names.
    A name that several lines share is refused with their ids; a name that matches no line
    exits 1 with the closest line names (by edit distance over names and aliases).
      --format F    table (default); json: an object with `line` (as in `eki lines --format
                    json`) and `stations` (key, name, reading, order, open, status,
                    status_since, visited, completed, and branch when the line has several);
                    geojson: the stations as points (the same properties but reading) and
                    a LineString through them in order per branch (degrees WGS84, [lon, lat])
      --include-staff-only  count staff-only stops (黒部峡谷鉄道 柳橋 …: passengers may not
                    get on or off) in the totals; left out by default
    \(CountingOption.help)\(VisitOptions.pathHelp)\(DatabaseOption.help)
    Examples:
      eki line 東海道新幹線
      eki line 山形新幹線 --format geojson
    """

    let args: Arguments
    let console: Console
    let name: String
    let format: OutputFormat

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: ["db", "format", "visits", "rules"], flags: ["include-staff-only"])
        _ = try CountingOption.rules(args)
        self.console = console
        guard args.positionals.count == 1 else { throw UsageError("expected one line NAME or ID, got \(args.positionals.count) arguments") }
        name = args.positionals[0]
        format = try OutputFormat(option: args["format"])
        guard format != .csv else { throw UsageError("--format must be table, json or geojson") }
    }

    func run() throws -> Int32 {
        let store = try StationStore(path: DatabaseOption.path(args, console), readOnly: true)
        let found = try NameLookup.lines(name, store: store)
        let first = found[0]
        // A common name of several sections (秋田新幹線): the sections one after another.
        var stops: [LineStop] = []
        for d in found {
            for s in d.stops where !(stops.last?.station.key == s.station.key) {
                stops.append(LineStop(station: s.station, branch: d.section == nil ? s.branch : 0,
                                      order: d.section == nil ? s.order : stops.count))
            }
        }
        let log = try VisitOptions.openForReading(VisitOptions.path(args, console), console: console, note: false)
        let visits = try VisitedStations(log: log, store: store)
        // Staff-only stops stay listed but leave the totals unless asked for.
        let staffOnly = (args.has("include-staff-only") ? [] : try store.entries.keys(of: .staffOnly))
            .union(try CountingOption.rules(args, log: log).excludedKeys(store: store))
        let line = first.line.without(staffOnly)
        let branched = Set(stops.map(\.branch)).count > 1
        let open = stops.filter { $0.station.isOpen && !staffOnly.contains($0.station.key) }
        let visitedCount = Set(open.filter { visits.isVisited($0.station.key) }.map(\.station.key)).count
        var lineJSON = LineJSON.line(line, visited: visitedCount)
        if let section = first.section, case .object(var members) = lineJSON {
            members.append(("section", .string(section)))
            members.append(("lines", .array(found.map { .string($0.line.id) })))
            if let t = members.firstIndex(where: { $0.0 == "total" }) { members[t].1 = .int(Set(open.map(\.station.key)).count) }
            lineJSON = .object(members)
        }
        switch format {
        case .json:
            let stations = stops.map { s -> JSONValue in
                var m: [(String, JSONValue)] = [("key", .string(s.station.key)), ("name", .string(s.station.name)),
                                                ("reading", .optional(s.station.reading)), ("order", s.order.map(JSONValue.int) ?? .null),
                                                ("open", .bool(s.station.isOpen)),
                                                ("status", .string(s.station.status.rawValue)),
                                                ("status_since", .optional(s.station.statusSince)),
                                                ("visited", .bool(visits.isVisited(s.station.key))),
                                                ("completed", .optional(visits.completion(of: s.station.key)?.text))]
                if branched { m.append(("branch", .int(s.branch))) }
                return .object(m)
            }
            console.out(JSONValue.object([("line", lineJSON), ("stations", .array(stations))]).text(pretty: true) + "\n")
        case .geojson:
            var features: [JSONValue] = []
            for s in stops {
                var props: [(String, JSONValue)] = [("key", .string(s.station.key)), ("name", .string(s.station.name)),
                                                    ("order", s.order.map(JSONValue.int) ?? .null),
                                                    ("open", .bool(s.station.isOpen)),
                                                    ("status", .string(s.station.status.rawValue)),
                                                    ("status_since", .optional(s.station.statusSince)),
                                                    ("visited", .bool(visits.isVisited(s.station.key))),
                                                    ("completed", .optional(visits.completion(of: s.station.key)?.text))]
                if branched { props.append(("branch", .int(s.branch))) }
                features.append(.object([("type", .string("Feature")),
                                         ("geometry", Self.point(s.station.coordinate)), ("properties", .object(props))]))
            }
            for b in Array(Set(stops.map(\.branch))).sorted() {
                var pts = stops.filter { $0.branch == b && $0.order != nil }.map(\.station.coordinate)
                if line.isLoop, first.section == nil, let p = pts.first { pts.append(p) }
                guard pts.count >= 2 else { continue }
                features.append(.object([
                    ("type", .string("Feature")),
                    ("geometry", .object([("type", .string("LineString")),
                                          ("coordinates", .array(pts.map { .array([.number($0.lon), .number($0.lat)]) }))])),
                    ("properties", .object([("line", .string(line.id)), ("name", .string(first.section ?? line.name)), ("branch", .int(b))])),
                ]))
            }
            console.out(JSONValue.object([("type", .string("FeatureCollection")), ("features", .array(features))]).text(pretty: true) + "\n")
        default:
            let title = "\(line.operatorName) \(first.section ?? line.name)\(line.isLoop && first.section == nil ? " (loop)" : "")"
                + ": \(visitedCount) of \(Set(open.map(\.station.key)).count) visited\n"
            let rows = stops.map { s -> [String] in
                [s.order.map(String.init) ?? "-", visits.isVisited(s.station.key) ? "✓" : "", s.station.name,
                 visits.completion(of: s.station.key)?.text ?? "", Self.statusCell(s.station.status), s.station.key]
                    + (branched ? [String(s.branch)] : [])
            }
            console.out(title + DisplayWidth.table(header: ["order", "visited", "name", "completed", "status", "key"]
                                                    + (branched ? ["branch"] : []), rows: rows))
        }
        return 0
    }

    /// The table's status column: blank for an open station, `closed` for an abolished one, else
    /// the status's name (`suspended`, `brt`).
    static func statusCell(_ status: StationStatus) -> String {
        switch status {
        case .open: ""
        case .abolished: "closed"
        default: status.rawValue
        }
    }

    static func point(_ c: Coordinate) -> JSONValue {
        .object([("type", .string("Point")), ("coordinates", .array([.number(c.lon), .number(c.lat)]))])
    }
}
