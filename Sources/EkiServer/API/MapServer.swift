import EkiKit
import Foundation

/// `eki serve`: the map screen and its JSON API over HTTP, on this machine.
///
/// Start-up opens one read-only connection to the station database and to the visit log per
/// worker thread, the visit log once more for writing (creating it, unless read-only), and
/// listens. `stop()` stops accepting, lets requests in flight finish and closes everything.
public final class MapServer: @unchecked Sendable {
    public let configuration: MapServerConfiguration
    /// The per-start write token the page receives (in index.html) and sends back as the
    /// `X-Eki-Token` header on POST and DELETE.
    public let token: String
    /// Things the person starting the server should know (Leaflet missing, reachable from
    /// other machines).
    public let warnings: [String]
    let api: MapAPI
    private let http: HTTPServer

    /// - Throws: `StoreError` / `SQLiteError` when the station database cannot be opened,
    ///   `VisitLogError` for a bad visit log, `ServerError` when the address cannot be used.
    public init(configuration c: MapServerConfiguration) throws {
        configuration = c
        var rng = SystemRandomNumberGenerator()
        token = (0..<4).map { _ in String(format: "%016llx", rng.next() as UInt64) }.joined()
        guard c.pins >= 1 else { throw ServerError.misconfigured("--pins needs a whole number ≥ 1") }
        guard (1...64).contains(c.threads) else { throw ServerError.misconfigured("--threads needs a whole number 1…64") }
        let writerLog = c.readOnly ? nil : try VisitLog(path: c.visitsPath, create: true)
        let logExists = FileManager.default.fileExists(atPath: c.visitsPath)
        let readers = try (0..<c.threads).map { _ in try ReaderContext(configuration: c, logExists: logExists) }
        guard let web = StaticFiles(folder: c.webRoot ?? Self.builtInWebRoot) else {
            throw ServerError.misconfigured("no page folder at \(c.webRoot ?? Self.builtInWebRoot)")
        }
        let leaflet = StaticFiles(folder: c.leafletRoot)
        var warnings: [String] = []
        if leaflet?.file("leaflet.js") == nil {
            warnings.append("Leaflet is missing (no leaflet.js in \(c.leafletRoot)): the page cannot draw the map; "
                            + "install Debian's libjs-leaflet (apt-get install libjs-leaflet)")
        }
        api = MapAPI(configuration: c, token: token, readers: ReaderPool(readers), writer: VisitWriter(log: writerLog),
                     web: web, leaflet: leaflet)
        let api = self.api
        http = try HTTPServer(address: c.listen, threads: c.threads, limits: c.limits) { api.respond($0) }
        api.port = http.port
        if !c.listen.isLoopback {
            // The port bound (the chosen one when --listen gave 0).
            let bound = ListenAddress(host: c.listen.host, port: http.port)
            warnings.append("listening on \(bound), not loopback: other machines can reach the map "
                            + "(writes still need the page's token)")
        }
        self.warnings = warnings
    }

    /// The port listened on (the chosen one when `--listen` gave port 0).
    public var port: UInt16 { http.port }

    /// `http://HOST:PORT/`.
    public var url: String {
        let host = configuration.listen.host.contains(":") ? "[\(configuration.listen.host)]" : configuration.listen.host
        return "http://\(host):\(port)/"
    }

    /// Stops accepting, finishes requests in flight (up to 5 s), closes the connections.
    public func stop() { http.stop() }

    /// The page's files built into the program (`Web/`: index.html, its scripts, styles, icon
    /// and the prefecture outlines).
    public static var builtInWebRoot: String {
        Bundle.module.url(forResource: "Web", withExtension: nil)?.path ?? Bundle.module.bundlePath + "/Web"
    }
}
