import EkiKit

/// `eki bbox minLon,minLat,maxLon,maxLat [--limit N]`: the entries in a map viewport.
struct BBoxCommand: Command {
    static let summary = "entries inside a bounding box (map viewport)"
    static let help = """
    usage: eki bbox [--db PATH] minLon,minLat,maxLon,maxLat [--limit N] [--include-closed]
                    [--visited | --unvisited] [--format F]

    Lists the entries inside the box (degrees WGS84, RFC 7946 order), sorted by key.
      --limit N          keep the N entries nearest the box centre (a pin cap), nearest first
      --include-closed   also list closed stations
      --format F         table (default), json, geojson or csv
    \(VisitOptions.help)\(DatabaseOption.help)
    When a visit log exists, every entry carries `visited` and `completed` (its first counting
    visit's date).

    """

    let args: Arguments
    let console: Console
    let bbox: BoundingBox
    let limit: Int?
    let format: OutputFormat

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: Set(["db", "limit", "format"]).union(VisitOptions.valued),
                             flags: Set(["include-closed"]).union(VisitOptions.flags))
        self.console = console
        guard args.positionals.count == 1 else {
            throw UsageError("expected one bbox minLon,minLat,maxLon,maxLat, got \(args.positionals.count) arguments")
        }
        do { bbox = try BoundingBox(parsing: args.positionals[0]) } catch { throw UsageError(error.description) }
        limit = args["limit"] == nil ? nil : try args.int("limit", default: 0, min: 1)
        format = try OutputFormat(option: args["format"])
        visitOptions = try VisitOptions(args, console)
    }

    let visitOptions: VisitOptions

    func run() throws -> Int32 {
        let store = try StationStore(path: DatabaseOption.path(args, console), readOnly: true)
        let visits = try visitOptions.load(store: store)
        let found = try store.stations(in: bbox, limit: limit, includeClosed: args.has("include-closed"),
                                       visits: visits ?? VisitedStations(), filter: visitOptions.filter)
        console.out(StationOutput.render(VisitOptions.rows(found, visits: visits), format: format))
        return 0
    }
}
