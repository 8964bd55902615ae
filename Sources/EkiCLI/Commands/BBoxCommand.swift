import EkiKit

/// `eki bbox minLon,minLat,maxLon,maxLat [--limit N]` (or `--place QUERY --span METRES`): the
/// entries in a map viewport.
struct BBoxCommand: Command {
    static let summary = "entries inside a bounding box (map viewport)"
    static let help = """
    usage: eki bbox [--db PATH] minLon,minLat,maxLon,maxLat [--limit N] [--include-closed]
                    [--visited | --unvisited] [--format F]
           eki bbox [--db PATH] --place QUERY --span METRES [--pick N] [--provider P[,P]] …

    Lists the entries inside the box (degrees WGS84, RFC 7946 order), sorted by key.
      --span METRES      with --place: a box METRES wide and high centred on the place
                         (1 ≤ METRES ≤ 1000000)
      --limit N          keep the N entries nearest the box centre (a pin cap), nearest first
      --prefecture P     only entries in prefecture P (神奈川県), before the limit
      --include-closed   also list closed stations
      --format F         table (default), json, geojson or csv
    \(TableWidth.help)\(VisitOptions.help)\(PlaceOptions.help)\(DatabaseOption.help)
    When a visit log exists, every entry carries `visited` and `completed` (its first counting
    visit's date).

    """

    let args: Arguments
    let console: Console
    let bbox: BoundingBox?
    let place: PlaceOptions?
    let span: Double?
    let limit: Int?
    let format: OutputFormat

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: Set(["db", "limit", "format", "span", "prefecture"]).union(VisitOptions.valued)
                                 .union(PlaceOptions.valued),
                             flags: Set(["include-closed", "wide"]).union(VisitOptions.flags).union(PlaceOptions.flags))
        self.console = console
        place = try PlaceOptions.parse(args, console)
        span = try args.double("span", in: 1...1_000_000)
        if place != nil {
            guard args.positionals.isEmpty else { throw UsageError("give --place or a bbox, not both") }
            guard span != nil else { throw UsageError("--place needs --span METRES (the box's width and height)") }
            bbox = nil
        } else {
            guard span == nil else { throw UsageError("--span needs --place") }
            guard args.positionals.count == 1 else {
                throw UsageError("expected one bbox minLon,minLat,maxLon,maxLat (or --place), got \(args.positionals.count) arguments")
            }
            do { bbox = try BoundingBox(parsing: args.positionals[0]) } catch { throw UsageError(error.description) }
        }
        limit = args["limit"] == nil ? nil : try args.int("limit", default: 0, min: 1)
        format = try OutputFormat(option: args["format"])
        visitOptions = try VisitOptions(args, console)
    }

    let visitOptions: VisitOptions

    func run() throws -> Int32 {
        let (store, visits) = try visitOptions.openStore(args)
        let box = try bbox ?? BoundingBox(around: place!.centre(store: store, console: console).coordinate,
                                          width: span!, height: span!)
        // The library's viewport: filter and prefecture before the pin cap, nearest the centre first.
        let (found, total) = try store.spatial.stations(ViewportQuery(
            bbox: box, filter: visitOptions.viewportFilter(visits), limit: limit,
            includeClosed: args.has("include-closed"), prefecture: args["prefecture"]))
        LimitNotice.report(shown: found.count, of: total, console: console)
        console.out(StationOutput.render(VisitOptions.rows(found, visits: visits), format: format,
                                         width: TableWidth.columns(wide: args.has("wide"), console: console)))
        return 0
    }
}
