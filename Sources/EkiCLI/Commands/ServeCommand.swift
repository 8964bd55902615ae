import EkiGeocoding
import EkiKit
import EkiServer
import Foundation

/// `eki serve`: the map screen in a browser, and its JSON API (see `MapServer`).
struct ServeCommand: Command {
    static let summary = "the map screen in a browser (HTTP JSON API on this machine)"
    static let help = """
    usage: eki serve [--db PATH] [--visits PATH] [--listen HOST:PORT] [--tiles URL|none]
                     [--tile-attribution TEXT] [--aerial-tiles URL|none] [--aerial-attribution TEXT]
                     [--read-only] [--pins N] [--threads N] [--web DIR] [--leaflet DIR]

    Serves the map (red pins: not yet got on or off there, green: done) and the JSON API under
    /api/ over HTTP/1.1 (libmicrohttpd), and prints the URL. Ctrl-C (SIGINT) or SIGTERM stops
    it: requests in flight finish, the databases are closed.
      --listen HOST:PORT   where to listen (default 127.0.0.1:8080; port 0: any free port).
                           Another address than loopback lets other machines reach the map.
      --tiles URL|none     background tiles, a {z}/{x}/{y} URL (default the OpenStreetMap
                           standard layer); none: prefecture outlines only, no network
      --tile-attribution TEXT   the credit the tiles need (HTML), for a --tiles URL
      --aerial-tiles URL|none   aerial photographs for 空撮 and 複合, a {z}/{x}/{y} URL
                           (default 地理院タイル 全国最新写真（シームレス）); none: no 空撮
      --aerial-attribution TEXT the credit the aerial tiles need (HTML), for an --aerial-tiles URL
      --read-only          refuse every write (recording or removing visits)
      --pins N             at most N pins per view, nearest the centre (default 300)
      --threads N          worker threads, each with its own database connections (default 4)
      --web DIR            serve the page from DIR instead of the built-in files
      --leaflet DIR        where Leaflet is (default /usr/share/javascript/leaflet, Debian's
                           libjs-leaflet)
    \(VisitOptions.pathHelp)\(DatabaseOption.help)
    Geocoding (地点 search) uses the same settings as `eki geocode` ($EKI_PROVIDERS, $EKI_CACHE,
    $EKI_GSI_ENDPOINT, $EKI_NOMINATIM_ENDPOINT, $EKI_USER_AGENT).

    """

    let configuration: MapServerConfiguration
    let console: Console

    init(arguments: [String], console: Console) throws {
        let args = try Arguments(arguments, valued: ["db", "visits", "listen", "tiles", "tile-attribution", "aerial-tiles",
                                                     "aerial-attribution", "pins", "threads", "web", "leaflet"],
                                 flags: ["read-only"])
        self.console = console
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        var c = MapServerConfiguration(databasePath: DatabaseOption.path(args, console),
                                       visitsPath: VisitOptions.path(args, console))
        if let l = args["listen"] {
            do { c.listen = try ListenAddress(parsing: l) } catch { throw UsageError(error.description) }
        }
        if let t = try Self.tileSource(args, option: "tiles", attribution: "tile-attribution") { c.tiles = t }
        if let t = try Self.tileSource(args, option: "aerial-tiles", attribution: "aerial-attribution") { c.aerial = t }
        c.readOnly = args.has("read-only")
        c.pins = try args.int("pins", default: 300, min: 1)
        c.threads = try args.int("threads", default: 4, min: 1)
        guard c.threads <= 64 else { throw UsageError("--threads needs a whole number 1…64") }
        c.webRoot = args["web"]
        if let l = args["leaflet"] { c.leafletRoot = l }
        c.geocoder = try GeocoderConfiguration.fromEnvironment(console.environment)
        configuration = c
    }

    /// `--OPTION URL|none` with its `--ATTRIBUTION TEXT`: nil when the option is not given (the
    /// default stays), `.some(nil)` for none.
    static func tileSource(_ args: Arguments, option: String, attribution: String) throws(UsageError) -> TileSource?? {
        switch args[option] {
        case nil, "none":
            if args[attribution] != nil { throw UsageError("--\(attribution) needs --\(option) URL") }
            return args[option] == nil ? .none : .some(nil)
        case let url?:
            guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.contains("{z}"), url.contains("{x}"), url.contains("{y}") else {
                throw UsageError("--\(option) needs an http(s) URL with {z}, {x} and {y}, or none; got '\(url)'")
            }
            return .some(TileSource(url: url, attribution: args[attribution] ?? ""))
        }
    }

    func run() throws -> Int32 {
        // Block the stop signals before the worker threads start (they inherit the mask), so
        // only sigwait below receives them.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &stopSignals, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        signal(SIGPIPE, SIG_IGN)
        let server = try MapServer(configuration: configuration)
        for w in server.warnings { console.err("warning: \(w)\n") }
        console.out("eki serve: \(server.url) (\(configuration.readOnly ? "read-only, " : "")Ctrl-C stops)\n")
        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        console.err("stopping (\(received == SIGINT ? "SIGINT" : "SIGTERM"))…\n")
        server.stop()
        console.err("stopped\n")
        return 0
    }
}
