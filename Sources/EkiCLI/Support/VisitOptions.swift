import EkiKit
import Foundation

/// `--visits PATH` and `--visited` / `--unvisited` (全駅 / 乗下車済駅のみ / 未乗下車駅のみ) for every
/// command that lists stations, and the `visited` and `completed` properties they add.
///
/// A command that lists entries calls `load(store:)` once, runs its query (through the
/// `StationStore` overloads taking `visits:filter:` when the filter must apply before a cap),
/// and turns the entries into rows with `rows(_:)`; a command whose results are already final
/// (search) calls `filteredRows(_:store:)`.
struct VisitOptions {
    static let valued: Set<String> = ["visits"]
    static let flags: Set<String> = ["visited", "unvisited"]
    static let help = """
      --visited          only entries with a counting visit (乗下車済駅のみ)
      --unvisited        only entries without one (未乗下車駅のみ)
    \(pathHelp)
    """
    static let pathHelp = "  --visits PATH      visit log (default: $EKI_VISITS, else $XDG_DATA_HOME/eki/visits.sqlite,\n"
        + "                     else ~/.local/share/eki/visits.sqlite)\n"

    let filter: VisitFilter
    let path: String
    let console: Console

    init(_ args: Arguments, _ console: Console) throws(UsageError) {
        if args.has("visited") && args.has("unvisited") { throw UsageError("give --visited or --unvisited, not both") }
        filter = args.has("visited") ? .visited : args.has("unvisited") ? .unvisited : .all
        path = Self.path(args, console)
        self.console = console
    }

    /// `--visits`, else `$EKI_VISITS`, else `VisitLog.defaultPath`.
    static func path(_ args: Arguments, _ console: Console) -> String {
        args["visits"] ?? console.environment["EKI_VISITS"] ?? VisitLog.defaultPath(environment: console.environment)
    }

    /// Opens the log read-only; when the file does not exist, an empty log and (with `note`)
    /// a line on stderr saying so.
    static func openForReading(_ path: String, console: Console, note: Bool = true) throws -> VisitLog {
        guard FileManager.default.fileExists(atPath: path) else {
            if note { console.err("note: no visit log at \(path) yet\n") }
            return try VisitLog.empty()
        }
        return try VisitLog(path: path, create: false)
    }

    /// The station database `args` names, read-only, and its visited entries (`load`).
    func openStore(_ args: Arguments) throws -> (store: StationStore, visits: VisitedStations?) {
        let store = try StationStore(path: DatabaseOption.path(args, console), readOnly: true)
        return (store, try load(store: store))
    }

    /// `--visited` / `--unvisited` as a filter of `ViewportQuery` and `SpatialIndex.nearest`
    /// (no log: nothing is visited).
    func viewportFilter(_ visits: VisitedStations?) -> ViewportQuery.Filter {
        (visits ?? VisitedStations()).viewportFilter(filter)
    }

    /// The visited entries, or nil when there is no log file and no filter was asked for (then
    /// rows carry no visit properties).
    func load(store: StationStore) throws -> VisitedStations? {
        guard FileManager.default.fileExists(atPath: path) || filter != .all else { return nil }
        return try VisitedStations(log: Self.openForReading(path, console: console), store: store)
    }

    /// Rows with `visited` (bool) and `completed` (`YYYY[-MM[-DD]]`, null when not visited or
    /// undated) appended, when `visits` is given.
    static func rows(_ stations: [Station], distances: [Double]? = nil, visits: VisitedStations?) -> [StationRow] {
        var rows: [StationRow] = []
        for (i, s) in stations.enumerated() {
            var row = StationRow(station: s, distance: distances?[i])
            if let visits {
                let date = visits.completion(of: s.key)
                row.extra = [("visited", .bool(date != nil)), ("completed", .optional(date?.text))]
            }
            rows.append(row)
        }
        return rows
    }

    /// For a finished list of entries (e.g. search results): the filter applied, then the
    /// visit properties added.
    func filteredRows(_ stations: [Station], store: StationStore) throws -> [StationRow] {
        let visits = try load(store: store)
        return Self.rows(visits.map { $0.filter(stations, filter) } ?? stations, visits: visits)
    }
}
