import EkiAccounts
import EkiKit
import Foundation

/// `eki serve`: the map screen and its JSON API over HTTP or HTTPS.
///
/// Start-up opens one read-only connection to the station database and to the visits per
/// worker thread (the visit log, or with accounts the accounts file), one more for writing
/// visits (creating the visit log, unless read-only), with accounts one for logins, and
/// listens. `stop()` stops accepting, lets requests in flight finish and closes everything.
///
/// Without accounts the server is one person's and listens on loopback only; another address
/// needs accounts (`ServerError.needsAccounts`).
public final class MapServer: @unchecked Sendable {
    public let configuration: MapServerConfiguration
    /// Without accounts: the per-start CSRF token the page receives (in index.html, `eki-csrf`)
    /// and sends back as the `X-CSRF-Token` header on POST and DELETE.
    public let token: String
    /// Things the person starting the server should know (Leaflet missing, reachable from
    /// other machines without TLS, no accounts in the file yet).
    public let warnings: [String]
    let api: MapAPI
    private let http: HTTPServer

    /// - Throws: `StoreError` / `SQLiteError` when the station database cannot be opened,
    ///   `VisitLogError` for a bad visit log, `AccountError` for a missing or bad accounts file,
    ///   `ServerError` when the address cannot be used (`.needsAccounts` for another address
    ///   than loopback without accounts).
    public init(configuration c: MapServerConfiguration) throws {
        configuration = c
        var rng = SystemRandomNumberGenerator()
        token = (0..<4).map { _ in String(format: "%016llx", rng.next() as UInt64) }.joined()
        guard c.pins >= 1 else { throw ServerError.misconfigured("--pins needs a whole number ≥ 1") }
        guard (1...64).contains(c.threads) else { throw ServerError.misconfigured("--threads needs a whole number 1…64") }
        if !c.listen.isLoopback && c.accountsPath == nil { throw ServerError.needsAccounts(c.listen.description) }
        var authenticator: Authenticator?
        let writer: VisitWriter
        if let accounts = c.accountsPath {
            authenticator = try Authenticator(path: accounts, hasher: c.passwordHasher, limits: c.loginLimits)
            writer = c.readOnly ? VisitWriter(log: nil) : VisitWriter(accounts: try AccountStore(path: accounts, create: false))
        } else {
            writer = VisitWriter(log: c.readOnly ? nil : try VisitLog(path: c.visitsPath, create: true))
        }
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
        if let authenticator, try authenticator.userCount() == 0 {
            warnings.append("the accounts file has no users yet: add one with `eki user add NAME --store \(AccountStore.displayLocation(c.accountsPath!))`")
        }
        api = MapAPI(configuration: c, token: token, readers: ReaderPool(readers), writer: writer,
                     authenticator: authenticator, web: web, leaflet: leaflet)
        let api = self.api
        http = try HTTPServer(address: c.listen, threads: c.threads, limits: c.limits, tls: c.tls) { api.respond($0) }
        api.port = http.port
        if !c.listen.isLoopback && c.tls == nil {
            // The port bound (the chosen one when --listen gave 0).
            let bound = ListenAddress(host: c.listen.host, port: http.port)
            warnings.append("listening on \(bound), not loopback, without TLS: passwords and session cookies cross the "
                            + "network readable; give --tls-cert and --tls-key")
        }
        self.warnings = warnings
    }

    /// The port listened on (the chosen one when `--listen` gave port 0).
    public var port: UInt16 { http.port }

    /// The connections held open now, and at most (`HTTPServer.connectionLimit`).
    public var openConnections: Int { http.openConnections }
    public var connectionLimit: Int { http.connectionLimit }

    /// `http://HOST:PORT/`, `https://` with TLS.
    public var url: String {
        let host = configuration.listen.host.contains(":") ? "[\(configuration.listen.host)]" : configuration.listen.host
        return "\(configuration.tls == nil ? "http" : "https")://\(host):\(port)/"
    }

    /// Stops accepting, finishes requests in flight (up to 5 s), closes the connections.
    public func stop() { http.stop() }

    /// The page's files built into the program (`Web/`: index.html, its scripts, styles, icon
    /// and the prefecture outlines).
    public static var builtInWebRoot: String {
        Bundle.module.url(forResource: "Web", withExtension: nil)?.path ?? Bundle.module.bundlePath + "/Web"
    }
}
