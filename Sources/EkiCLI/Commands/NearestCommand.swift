import EkiKit

/// `eki nearest --lat LAT --lon LON [-k N]` (or `--place QUERY`): the entries nearest a point,
/// nearest first.
struct NearestCommand: Command {
    static let summary = "the k entries nearest a point (nearest first)"
    static let help = """
    usage: eki nearest [--db PATH] --lat LAT --lon LON [-k N] [--include-closed]
                       [--visited | --unvisited] [--format F]
           eki nearest [--db PATH] --place QUERY [--pick N] [--provider P[,P]] [-k N] …

    Lists the k entries nearest the point by geodesic distance on the WGS84 ellipsoid (metres),
    nearest first, ties broken by key — the list that separates pins at one place.
      --lat, --lon       the point, degrees WGS84
      -k N               how many (default 10)
      --prefecture P     only entries in prefecture P (神奈川県): the k nearest of those
      --include-closed   also consider closed stations
      --format F         table (default), json, geojson or csv
    \(TableWidth.help)\(VisitOptions.help)\(PlaceOptions.help)\(DatabaseOption.help)
    With --visited / --unvisited, the k nearest of those entries. When a visit log exists, every
    entry carries `visited` and `completed` (its first counting visit's date).

    """

    let args: Arguments
    let console: Console
    let point: Coordinate?
    let place: PlaceOptions?
    let k: Int
    let format: OutputFormat

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: Set(["db", "lat", "lon", "k", "format", "prefecture"]).union(VisitOptions.valued)
                                 .union(PlaceOptions.valued),
                             flags: Set(["include-closed", "wide"]).union(VisitOptions.flags).union(PlaceOptions.flags))
        self.console = console
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        place = try PlaceOptions.parse(args, console)
        if place != nil {
            guard args["lat"] == nil && args["lon"] == nil else { throw UsageError("give --place or --lat/--lon, not both") }
            point = nil
        } else {
            guard let lat = try args.double("lat", in: -90...90), let lon = try args.double("lon", in: -180...180) else {
                throw UsageError("--lat and --lon (or --place) are required")
            }
            point = Coordinate(lat: lat, lon: lon)
        }
        k = try args.int("k", default: 10, min: 1)
        format = try OutputFormat(option: args["format"])
        visitOptions = try VisitOptions(args, console)
    }

    let visitOptions: VisitOptions

    func run() throws -> Int32 {
        let (store, visits) = try visitOptions.openStore(args)
        let centre = try point ?? place!.centre(store: store, console: console).coordinate
        let found = try store.spatial.nearest(to: centre, k: k, includeClosed: args.has("include-closed"),
                                              filter: visitOptions.viewportFilter(visits),
                                              prefecture: args["prefecture"])
        console.out(StationOutput.render(VisitOptions.rows(found.map(\.station), distances: found.map(\.distance), visits: visits),
                                         format: format, width: TableWidth.columns(wide: args.has("wide"), console: console)))
        return 0
    }
}
