import EkiGeocoding
import EkiKit
import EkiServer
import Foundation

/// `eki serve`: the map screen in a browser, and its JSON API (see `MapServer`).
struct ServeCommand: Command {
    static let summary = "the map screen in a browser (HTTP JSON API on this machine)"
    static let help = """
    usage: eki serve [--db PATH] [--visits PATH] [--listen HOST:PORT] [--host NAME[,NAME…]] [--tiles URL|none]
                     [--tile-attribution TEXT] [--aerial-tiles URL|none] [--aerial-attribution TEXT]
                     [--read-only] [--pins N] [--threads N] [--web DIR] [--leaflet DIR]
                     [--store PATH|URL] [--tls-cert PEM --tls-key PEM] [--rules oritsubushi|all]

    Serves the map (red pins: not yet got on or off there, green: done) and the JSON API under
    /api/ over HTTP/1.1 (libmicrohttpd), and prints the URL. Ctrl-C (SIGINT) or SIGTERM stops
    it: requests in flight finish, the databases are closed.
      --listen HOST:PORT   where to listen (default 127.0.0.1:8080; port 0: any free port).
                           Another address than loopback lets other machines reach the map,
                           and needs --accounts.
      --host NAME[,NAME…]  more names the page may be opened by (eki.example.org,
                           mymachine.local); without it only localhost, 127.0.0.1, [::1],
                           the --listen host and (off loopback) IP addresses: a request naming
                           anything else is refused (403), so a foreign site cannot reach the
                           map through DNS rebinding
      --store PATH|URL     everyone logs in (accounts made with `eki user add NAME --store
                           PATH|URL`); each person sees and records their own visits. PATH: an
                           accounts file (SQLite); URL: postgresql://…, a PostgreSQL database
                           several servers share (default $EKI_STORE; --accounts is the same
                           option). Without it the map is one person's, the visit log's, on
                           loopback only.
      --tls-cert PEM --tls-key PEM   serve HTTPS with this certificate (chain) and private key;
                           the session cookie is then Secure
      --tiles URL|none     background tiles, a {z}/{x}/{y} URL (default the OpenStreetMap
                           standard layer); none: prefecture outlines only, no network
      --tile-attribution TEXT   the credit the tiles need (HTML), for a --tiles URL
      --aerial-tiles URL|none   aerial photographs for 空撮 and 複合, a {z}/{x}/{y} URL
                           (default 地理院タイル 全国最新写真（シームレス）); none: no 空撮
      --aerial-attribution TEXT the credit the aerial tiles need (HTML), for an --aerial-tiles URL
      --read-only          refuse every write (recording or removing visits)
      --rules R            the counting rules of every n/m the map shows: oritsubushi
                           (降りつぶし.net's: suspended stations such as 肥薩線 八代–吉松 do not
                           count; their pins are grey) or all; default: each person's log
                           setting (`eki visit config counting-rules`), oritsubushi when unset
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
        let args = try Arguments(arguments, valued: ["db", "visits", "listen", "host", "tiles", "tile-attribution", "aerial-tiles",
                                                     "aerial-attribution", "pins", "threads", "web", "leaflet",
                                                     "accounts", "store", "tls-cert", "tls-key", "rules"],
                                 flags: ["read-only"])
        self.console = console
        guard args.positionals.isEmpty else { throw UsageError("unexpected argument '\(args.positionals[0])'") }
        var c = MapServerConfiguration(databasePath: DatabaseOption.path(args, console),
                                       visitsPath: VisitOptions.path(args, console))
        if let l = args["listen"] {
            do { c.listen = try ListenAddress(parsing: l) } catch { throw UsageError(error.description) }
        }
        if let names = args["host"] {
            c.hostNames = names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if let bad = c.hostNames.first(where: { $0.contains(where: { " /?#@:".contains($0) }) && !$0.hasPrefix("[") }) {
                throw UsageError("--host: '\(bad)' is not a host name (write names without scheme, port or path)")
            }
        }
        if let t = try Self.tileSource(args, option: "tiles", attribution: "tile-attribution") { c.tiles = t }
        if let t = try Self.tileSource(args, option: "aerial-tiles", attribution: "aerial-attribution") { c.aerial = t }
        c.readOnly = args.has("read-only")
        if args["rules"] != nil { c.countingRules = try CountingOption.rules(args) }
        c.pins = try args.int("pins", default: 300, min: 1)
        c.threads = try args.int("threads", default: 4, min: 1)
        guard c.threads <= 64 else { throw UsageError("--threads needs a whole number 1…64") }
        c.webRoot = args["web"]
        if let l = args["leaflet"] { c.leafletRoot = l }
        c.geocoder = try GeocoderConfiguration.fromEnvironment(console.environment)
        c.accountsPath = try StoreOption.given(args, console)
        if !c.listen.isLoopback && c.accountsPath == nil {
            throw UsageError(ServerError.needsAccounts(c.listen.description).description)
        }
        switch (args["tls-cert"], args["tls-key"]) {
        case (nil, nil): break
        case (let cert?, let key?): c.tls = try Self.credentials(cert: cert, key: key)
        default: throw UsageError("give --tls-cert PEM and --tls-key PEM together")
        }
        configuration = c
    }

    /// The certificate and key files read (PEM text).
    /// - Throws: `ServeError` when one cannot be read or holds no PEM block.
    static func credentials(cert: String, key: String) throws -> TLSCredentials {
        func pem(_ path: String, _ option: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw ServeError("cannot read \(option) \(path)")
            }
            guard text.contains("-----BEGIN ") else { throw ServeError("\(option) \(path) is not a PEM file") }
            return text
        }
        return TLSCredentials(certificatePEM: try pem(cert, "--tls-cert"), keyPEM: try pem(key, "--tls-key"))
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
        let mode = (configuration.readOnly ? "read-only, " : "") + (configuration.accountsPath != nil ? "accounts, " : "")
        console.out("eki serve: \(server.url) (\(mode)Ctrl-C stops)\n")
        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        console.err("stopping (\(received == SIGINT ? "SIGINT" : "SIGTERM"))…\n")
        server.stop()
        console.err("stopped\n")
        return 0
    }
}

/// A file `eki serve` was given cannot be used (exit 1).
struct ServeError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
