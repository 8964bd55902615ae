import EkiKit
import Foundation

/// The router: checks a request (Host, Origin, who is calling, CSRF token, read-only), sends it
/// to its handler with its `Caller` and turns errors into `{"error": code, "message": …}`
/// answers, the message in the request's language (`APIMessage`).
///
/// With accounts every `/api/` call but login needs a session cookie or an API token (401
/// `login_required`), and `/` without a session is 303 to `/login`; the page's other files need
/// nothing. Writes with a cookie session, and every write without accounts, need `X-CSRF-Token`.
///
/// | method | path | |
/// |---|---|---|
/// | GET | `/api/bbox`, `/api/nearest`, `/api/search`, `/api/geocode`, `/api/station`, `/api/stats` | reads |
/// | GET | `/api/render.png` | the picture of a box (`MapAPI+Render.swift`) |
/// | GET | `/api/clusters` | cells of a box at a zoom (`MapAPI+Clusters.swift`) |
/// | GET | `/api/lines`, `/api/line`, `/api/linework` | the 路線 panel and the line strokes (`MapAPI+Lines.swift`) |
/// | POST | `/api/login`, `/api/logout`; GET `/api/session` | accounts (`MapAPI+Accounts.swift`) |
/// | POST | `/api/visits` | record a visit |
/// | DELETE | `/api/visits/{id}` | remove one |
/// | POST | `/api/visits/{id}/photos` | add a photo to a visit (`image/*`, ≤ 40 MiB; `MapAPI+Photos.swift`) |
/// | GET, DELETE | `/api/photos/{id}`; GET `/api/photos/{id}/thumb` | a photo, its thumbnail; remove it |
/// | POST | `/api/sync` | a device's visit changes in, the server's out (`MapAPI+Sync.swift`) |
/// | GET | `/`, `/login`, `/app.js`, `/app.css`, `/prefectures.geojson`, `/leaflet/…` | the page |
final class MapAPI: @unchecked Sendable {
    let configuration: MapServerConfiguration
    /// The per-start CSRF token without accounts (the page's `eki-csrf`).
    let token: String
    let readers: ReaderPool
    let writer: VisitWriter
    /// Logins and sessions; nil without accounts.
    let authenticator: Authenticator?
    let web: StaticFiles
    let leaflet: StaticFiles?
    /// Set once, right after the daemon binds (before any request is answered).
    var port: UInt16 = 0 {
        didSet { hostCheck = HostCheck(listen: configuration.listen, port: port, isTLS: configuration.tls != nil, names: configuration.hostNames) }
    }
    /// The `Host` fields answered (set with `port`).
    private(set) var hostCheck: HostCheck

    init(configuration: MapServerConfiguration, token: String, readers: ReaderPool, writer: VisitWriter,
         authenticator: Authenticator?, web: StaticFiles, leaflet: StaticFiles?) {
        self.configuration = configuration
        self.token = token
        self.readers = readers
        self.writer = writer
        self.authenticator = authenticator
        self.web = web
        self.leaflet = leaflet
        hostCheck = HostCheck(listen: configuration.listen, port: 0, isTLS: configuration.tls != nil, names: configuration.hostNames)
    }

    func respond(_ request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        let language = request.language
        do {
            try checkOrigin(request)
            response = try route(request)
        } catch let e as APIError {
            response = e.response(language)
        } catch {
            response = .error(500, "internal", APIMessage.internalError("\(error)").text(language))
        }
        response.headers.append(("X-Content-Type-Options", "nosniff"))
        response.headers.append(("Referrer-Policy", "no-referrer"))
        response.headers.append(("X-Frame-Options", "DENY"))
        // Over TLS, browsers are told to keep to HTTPS for this host (a year).
        if request.isTLS { response.headers.append(("Strict-Transport-Security", "max-age=31536000")) }
        return response
    }

    /// Refuses a `Host` that does not name this server (`HostCheck`: on every route, the page
    /// included, so that a foreign name pointed here by DNS rebinding reads nothing) and an
    /// `Origin` other than the server's own (no cross-site writes).
    func checkOrigin(_ r: HTTPRequest) throws(APIError) {
        let host = r.headers["host"] ?? ""
        guard hostCheck.accepts(host) else { throw APIError(403, "foreign_host", .foreignHost(host)) }
        if let origin = r.headers["origin"], origin.lowercased() != "\(r.isTLS ? "https" : "http")://\(host.lowercased())" {
            throw APIError(403, "foreign_origin", .foreignOrigin(origin))
        }
    }

    func route(_ r: HTTPRequest) throws -> HTTPResponse {
        let path = r.rawPath
        if path.hasPrefix("/api/") {
            // `only(...)` refuses any other method with 405, its `Allow` naming the route's own.
            let get = ["GET", "HEAD"], post = ["POST"]
            func only(_ methods: [String]) throws(APIError) {
                if !methods.contains(r.method) {
                    throw APIError(405, "method_not_allowed", .methodNotAllowed(r.method, path: path), allow: methods)
                }
            }
            if path == "/api/login" { try only(post); return try login(r) }
            let caller = try caller(r)
            switch path {
            case "/api/session": try only(get); return sessionInfo(caller)
            case "/api/logout": try only(post); try checkWrite(r, caller); return try logout(r, caller)
            case "/api/bbox": try only(get); return try bbox(r, caller)
            case "/api/nearest": try only(get); return try nearest(r, caller)
            case "/api/search": try only(get); return try search(r, caller)
            case "/api/geocode": try only(get); return try geocode(r)
            case "/api/station": try only(get); return try station(r, caller)
            case "/api/stats": try only(get); return try stats(r, caller)
            case "/api/render.png": try only(get); return try renderPNG(r, caller)
            case "/api/clusters": try only(get); return try clusters(r, caller)
            case "/api/lines": try only(get); return try lines(r, caller)
            case "/api/line": try only(get); return try line(r, caller)
            case "/api/linework": try only(get); return try linework(r)
            case "/api/snapshot": try only(get); return try snapshot(r)
            case "/api/visits": try only(post); try checkWrite(r, caller); return try addVisit(r, caller)
            case "/api/sync": try only(post); try checkWrite(r, caller); return try sync(r, caller)
            default:
                if HTTPLimits.isPhotoUpload(path) {
                    try only(post)
                    try checkWrite(r, caller)
                    return try addPhoto(r, caller, visit: String(path.dropFirst("/api/visits/".count).dropLast("/photos".count)))
                }
                if path.hasPrefix("/api/photos/") {
                    let rest = String(path.dropFirst("/api/photos/".count))
                    if rest.hasSuffix("/thumb") { try only(get); return try photo(caller, id: String(rest.dropLast("/thumb".count)), thumbnail: true) }
                    try only(get + ["DELETE"])
                    if r.method == "DELETE" { try checkWrite(r, caller); return try removePhoto(caller, id: rest) }
                    return try photo(caller, id: rest, thumbnail: false)
                }
                if path.hasPrefix("/api/visits/") {
                    try only(["DELETE"])
                    try checkWrite(r, caller)
                    return try removeVisit(r, caller, id: String(path.dropFirst("/api/visits/".count)))
                }
                throw APIError(404, "not_found", .noAPI(path))
            }
        }
        guard r.method == "GET" || r.method == "HEAD" else {
            throw APIError(405, "method_not_allowed", .methodNotAllowed(r.method, path: path), allow: ["GET", "HEAD"])
        }
        if path == "/login" { return try loginPage(r) }
        if path == "/" || path == "/index.html" {
            // With accounts the page is a person's: without a session, the login page.
            guard let caller = try? caller(r) else { return Self.redirect("/login") }
            return try page(r, caller)
        }
        return try staticFile(path, language: r.language)
    }

    // MARK: The page

    /// index.html for `caller`, its CSRF token and settings filled in (`pageHTML`).
    func page(_ r: HTTPRequest, _ caller: Caller) throws(APIError) -> HTTPResponse {
        guard let file = web.file("index.html"), let bytes = StaticFiles.read(file) else { throw APIError(404, "not_found", .noFile(r.rawPath)) }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                                                   ("Content-Security-Policy", Self.contentSecurityPolicy)],
                            body: Array(pageHTML(String(decoding: bytes, as: UTF8.self), language: r.language, caller: caller).utf8))
    }

    func staticFile(_ path: String, language: Language) throws(APIError) -> HTTPResponse {
        let notFound = APIError(404, "not_found", .noFile(path))
        let file: String?
        if path.hasPrefix("/leaflet/") {
            file = leaflet?.file(String(path.dropFirst("/leaflet/".count)))
        } else {
            file = web.file(String(path.dropFirst()))
        }
        guard let file, let bytes = StaticFiles.read(file) else { throw notFound }
        return HTTPResponse(status: 200, headers: [("Content-Type", StaticFiles.contentType(file)), ("Cache-Control", "no-cache")],
                            body: bytes)
    }

    /// Scripts and styles from this server only; tiles (images) from anywhere the tile URL says.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self' data: http: https:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"

    /// index.html with the caller's CSRF token, the page settings and the language filled in
    /// (`{{CSRF}}`, `{{CONFIG}}`, `{{LANG}}`; a template
    /// without `{{LANG}}` gets `lang="ja"` replaced). The settings: `pins`, `readOnly`, `tiles`
    /// and `aerial` (`{url, attribution}` or null), `leaflet`, `lang` (`ja`|`en`),
    /// `clusterBelowZoom`, `accounts` (bool) and `user` (the account name or null).
    func pageHTML(_ template: String, language: Language, caller: Caller) -> String {
        var config: [UInt8] = []
        func source(_ t: TileSource?) {
            guard let t else { return JSONBytes.append("null", to: &config) }
            JSONBytes.append("{\"url\":", to: &config); JSONBytes.appendQuoted(t.url, to: &config)
            JSONBytes.append(",\"attribution\":", to: &config); JSONBytes.appendQuoted(t.attribution, to: &config)
            JSONBytes.append("}", to: &config)
        }
        JSONBytes.append("{\"pins\":\(configuration.pins),\"readOnly\":\(configuration.readOnly),\"tiles\":", to: &config)
        source(configuration.tiles)
        JSONBytes.append(",\"aerial\":", to: &config)
        source(configuration.aerial)
        JSONBytes.append(",\"leaflet\":\(leaflet?.file("leaflet.js") != nil),\"lang\":\"\(language.rawValue)\"", to: &config)
        JSONBytes.append(",\"clusterBelowZoom\":\(configuration.clusterBelowZoom),\"accounts\":\(authenticator != nil),\"user\":", to: &config)
        JSONBytes.appendOptional(caller.user, to: &config)
        config.append(UInt8(ascii: "}"))
        var page = template
        if !page.contains("{{LANG}}") { page = page.replacingOccurrences(of: "<html lang=\"ja\"", with: "<html lang=\"{{LANG}}\"") }
        let csrf = Self.attribute(caller.csrf ?? "")
        return page.replacingOccurrences(of: "{{CSRF}}", with: csrf)
            .replacingOccurrences(of: "{{CONFIG}}", with: Self.attribute(String(decoding: config, as: UTF8.self)))
            .replacingOccurrences(of: "{{LANG}}", with: language.rawValue)
    }

    static func attribute(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

extension HTTPRequest {
    /// The language the request's `Accept-Language` prefers (Japanese unless English).
    var language: Language { Language(acceptLanguage: headers["accept-language"]) }
}
