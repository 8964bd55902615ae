import EkiKit
import EkiServer
import Foundation

/// `eki show KEY|NAME`: one entry whole, as the map's station screen and `/api/station` show it.
struct ShowCommand: Command {
    static let summary = "one entry whole: names, operator, lines, sources, visits"
    static let help = """
    usage: eki show [--db PATH] [--visits PATH] KEY|NAME [--format table|json|geojson]

    Shows one entry: name, reading, operator, class, lines, prefecture, point, sources, former
    names, visits and completion date. KEY is a key (aliases are followed:
    jr-east/c/東京); NAME is compared as `eki visit add` compares it (小田原駅 = 小田原). A
    name that matches several entries lists them (exit 1): give one of their keys.
      --format F         table (default), json or geojson (a GeoJSON Feature, as /api/station)
    \(VisitOptions.pathHelp)\(DatabaseOption.help)
    """

    let args: Arguments
    let console: Console
    let text: String
    let format: OutputFormat

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: ["db", "visits", "format"], flags: [])
        self.console = console
        guard args.positionals.count == 1 else {
            throw UsageError("expected one KEY or NAME, got \(args.positionals.count) arguments")
        }
        text = args.positionals[0]
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("KEY or NAME is empty") }
        format = try OutputFormat(option: args["format"])
        guard format != .csv else { throw UsageError("--format must be table, json or geojson") }
    }

    func run() throws -> Int32 {
        let store = try StationStore(path: DatabaseOption.path(args, console), readOnly: true)
        let log = try VisitOptions.openForReading(VisitOptions.path(args, console), console: console, note: false)
        let visited = try VisitedStations(log: log, store: store)
        let candidates = try StationQuery(text: text).candidates(in: store)
        guard candidates.count == 1, let station = candidates.first else {
            if candidates.isEmpty {
                console.err("eki show: no entry matches '\(text)'\n")
            } else {
                console.err("eki show: '\(text)' matches \(candidates.count) entries; give one of their keys:\n")
                console.err(StationOutput.render(candidates.map { StationRow(station: $0) }, format: .table))
            }
            return 1
        }
        let detail = try StationDetail.load(station: station, store: store, log: log, visited: visited)
        console.out(format == .table ? detail.text : detail.json + "\n")
        return 0
    }
}
