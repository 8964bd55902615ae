import EkiGeocoding
import EkiKit
import EkiRender
import Foundation

/// `eki render (--bbox B | --place QUERY [--span M] | --line LINE | --all) -o FILE.png`: a PNG map of the
/// stations in view, red unvisited and green visited, on the offline prefecture basemap.
struct RenderCommand: Command {
    static let summary = "draw the stations in view as a PNG map (red unvisited, green visited)"
    static let help = """
    usage: eki render --bbox minLon,minLat,maxLon,maxLat -o FILE.png [options]
           eki render --place QUERY [--span METRES] -o FILE.png [options]
           eki render --line NAME|ID -o FILE.png [options]
           eki render --all -o FILE.png [options]

    Draws the open entries in view as pins (red = unvisited, green = visited; closed entries
    are not drawn) in Web Mercator on an offline basemap (sea and the 47 prefectures), with
    names placed where they fit, a legend (乗下車済 / 未乗下車 / 表示範囲), a scale bar and the
    data's attribution. Entries at one place (the same name within 1.5 km, or pins that would
    overlap) are one pin with a count.
      --bbox B           the box to show whole (degrees WGS84, RFC 7946 order)
      --place QUERY      centre on a geocoded place (as `eki geocode`), with --span
      --span METRES      with --place: the box's width and height (default 5000;
                         1 ≤ METRES ≤ 1000000)
      --line NAME|ID     frame a line (as `eki line` names it: an id, any of its names, or
                         a common name such as 山形新幹線) and draw it through its stations
                         in order, one stroke per branch; its stations are drawn above the
                         other pins, ringed in the line's blue, and always named (unless
                         --labels none). A name that matches no line exits 1 with the
                         closest names
      --all              every open entry (the whole record)
      --size WxH         picture size in logical pixels (default 1200x800; 1…10000 each)
      --scale 1|2        device pixels per logical pixel (default 1; 2 for phones)
      --labels MODE      auto (names that fit; the default), all, or none
      --tiles URL|none   draw raster tiles under the pins instead of the offline basemap:
                         an http(s) URL with {z}, {x} and {y}, e.g.
                         https://tile.openstreetmap.org/{z}/{x}/{y}.png (credited as
                         © OpenStreetMap contributors). Tiles are cached in
                         $XDG_CACHE_HOME/eki/tiles (else ~/.cache/eki/tiles) and fetched at
                         most one per second with the User-Agent of $EKI_USER_AGENT (else
                         EkiKit/\(EkiKitVersion.string)). Default none.
      -o FILE.png        where to write the picture (required; its folder must exist)
    \(LanguageOption.help)\(VisitOptions.help)\(PlaceOptions.help)\(DatabaseOption.help)
    Prints one line: the file, its size in pixels and the entries drawn.

    """

    let args: Arguments
    let console: Console
    let output: String
    let bbox: BoundingBox?
    let place: PlaceOptions?
    let span: Double
    /// `--line NAME|ID`: frame the line and draw it through its stations in order.
    let line: String?
    let all: Bool
    let width: Int, height: Int, scale: Int
    let labels: LabelMode
    /// The tile URL template, nil for the offline basemap.
    let tiles: String?
    let visitOptions: VisitOptions
    let language: Language

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: Set(["db", "bbox", "line", "span", "size", "scale", "labels", "tiles", "o", "output"])
                                 .union(VisitOptions.valued).union(PlaceOptions.valued).union(LanguageOption.valued),
                             flags: Set(["all"]).union(VisitOptions.flags).union(PlaceOptions.flags))
        self.console = console
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        guard let out = args["o"] ?? args["output"], !out.isEmpty else { throw UsageError("give -o FILE.png") }
        output = out
        place = try PlaceOptions.parse(args, console)
        all = args.has("all")
        line = args["line"]
        let given = [args["bbox"] != nil, place != nil, line != nil, all].filter { $0 }.count
        guard given == 1 else { throw UsageError("give exactly one of --bbox, --place, --line or --all") }
        if let b = args["bbox"] {
            do { bbox = try BoundingBox(parsing: b, acrossAntimeridian: false) } catch { throw UsageError(error.description) }
        } else {
            bbox = nil
        }
        if args["span"] != nil, place == nil { throw UsageError("--span needs --place") }
        span = try args.double("span", in: 1...1_000_000) ?? 5_000
        (width, height) = try Self.size(args["size"] ?? "1200x800")
        guard let s = Int(args["scale"] ?? "1"), s == 1 || s == 2 else {
            throw UsageError("--scale must be 1 or 2, got '\(args["scale"]!)'")
        }
        scale = s
        guard let l = LabelMode(rawValue: args["labels"] ?? "auto") else {
            throw UsageError("--labels must be auto, all or none, got '\(args["labels"]!)'")
        }
        labels = l
        let t = args["tiles"] ?? "none"
        tiles = t == "none" ? nil : t
        if let t = tiles {
            // Checked here so a bad URL is a usage error before any work.
            do { _ = try TileFetcher(template: t, configuration: GeocoderConfiguration(cachePath: nil), cacheRoot: nil) } catch {
                if case .misconfigured(let reason) = error { throw UsageError(reason) }
                throw UsageError(error.description)
            }
        }
        visitOptions = try VisitOptions(args, console)
        language = try LanguageOption.parse(args)
    }

    /// The stations of `--line` in order: one line by id or name, or a common name's sections
    /// (秋田新幹線) one after another, as `eki line` lists them.
    /// - Throws: `NotFoundError` (with the closest names) when no line has that name;
    ///   `UsageError` when several lines have it.
    static func lineStops(_ name: String, store: StationStore) throws -> (stops: [LineStop], isLoop: Bool) {
        let found = try NameLookup.lines(name, store: store)
        var stops: [LineStop] = []
        for d in found {
            for s in d.stops where !(stops.last?.station.key == s.station.key) {
                stops.append(LineStop(station: s.station, branch: d.section == nil ? s.branch : 0, order: nil))
            }
        }
        return (stops, found[0].line.isLoop && found.count == 1)
    }

    /// `WxH` (e.g. 1200x800; `×` accepted too), each 1…10000.
    static func size(_ text: String) throws(UsageError) -> (Int, Int) {
        let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...10_000).contains(w),
              (1...10_000).contains(h) else {
            throw UsageError("--size needs WxH with each side 1…10000 pixels, got '\(text)'")
        }
        return (w, h)
    }

    func run() throws -> Int32 {
        try OutputPath.checkFolder(of: output)
        let (store, visits) = try visitOptions.openStore(args)
        let stations: [Station]
        let box: BoundingBox
        var polylines: [[Coordinate]] = []
        var highlighted = Set<String>()
        if let line {
            let stops = try Self.lineStops(line, store: store)
            highlighted = Set(stops.stops.map(\.station.key))
            // One polyline per branch; a loop closes its ring.
            for (_, run) in Dictionary(grouping: stops.stops, by: \.branch).sorted(by: { $0.key < $1.key }) {
                var points = run.map(\.station.coordinate)
                if stops.isLoop, let first = points.first { points.append(first) }
                polylines.append(points)
            }
            guard let framed = MapViewport.framing(stops.stops.map(\.station.coordinate), margin: 0.08) else {
                throw RenderError.invalidRequest("the line '\(line)' has no stations to draw")
            }
            box = framed
            let view = MapViewport(fitting: box, width: width, height: height).visibleBox
            stations = try store.spatial.stations(ViewportQuery(bbox: view, filter: visitOptions.viewportFilter(visits))).stations
        } else if all {
            let everything = try store.entries.all(includeClosed: false)
            guard let framed = MapViewport.framing(everything.map(\.coordinate), margin: 0.02) else {
                throw RenderError.invalidRequest("the database has no open entries to draw")
            }
            box = framed
            stations = visits.map { $0.filter(everything, visitOptions.filter) } ?? everything
        } else {
            box = try bbox ?? BoundingBox(around: place!.centre(store: store, console: console).coordinate,
                                          width: span, height: span)
            // The picture shows more than the box on one axis: query what it shows.
            let view = MapViewport(fitting: box, width: width, height: height).visibleBox
            stations = try store.spatial.stations(ViewportQuery(bbox: view, filter: visitOptions.viewportFilter(visits))).stations
        }
        var request = MapRequest(bbox: box, width: width, height: height, scale: scale, labels: labels,
                                 polylines: polylines, language: language, highlighted: highlighted)
        var source: FetchedTiles? = nil
        if let tiles {
            let configuration = try GeocoderConfiguration.fromEnvironment(console.environment)
            source = FetchedTiles(try TileFetcher(template: tiles, configuration: configuration,
                                                  cacheRoot: TileFetcher.defaultCacheRoot(console.environment)))
            request.attribution = ["© OpenStreetMap contributors"]
        }
        let picture = try MapRenderer.render(request, stations: stations, tiles: source, visits: visits)
        if let f = source?.fetcher { console.err("tiles: \(f.requests) fetched, \(f.cacheHits) from the cache\n") }
        try picture.write(to: output)
        console.out("\(output): \(picture.pixelWidth)x\(picture.pixelHeight) px, \(picture.total) entries in view "
                    + "(\(picture.visited) visited), \(picture.markers.count) pins, \(picture.labels.count) names\n")
        return 0
    }
}

/// The renderer's tile source over the geocoding package's libcurl client.
final class FetchedTiles: TileSource {
    let fetcher: TileFetcher
    init(_ fetcher: TileFetcher) { self.fetcher = fetcher }
    func tile(z: Int, x: Int, y: Int) throws -> [UInt8] { try fetcher.tile(z: z, x: x, y: y) }
}
