import EkiKit
import Foundation

/// The router: checks a request (Host, Origin, token, read-only), sends it to its handler and
/// turns errors into `{"error": code, "message": …}` answers, the message in the request's
/// language (`APIMessage`).
///
/// | method | path | |
/// |---|---|---|
/// | GET | `/api/bbox`, `/api/nearest`, `/api/search`, `/api/geocode`, `/api/station`, `/api/stats` | reads |
/// | GET | `/api/render.png` | the picture of a box (`MapAPI+Render.swift`) |
/// | GET | `/api/clusters` | cells of a box at a zoom (`MapAPI+Clusters.swift`) |
/// | GET | `/api/lines`, `/api/line`, `/api/linework` | the 路線 panel and the line strokes (`MapAPI+Lines.swift`) |
/// | POST | `/api/visits` | record a visit |
/// | DELETE | `/api/visits/{id}` | remove one |
/// | POST | `/api/sync` | a device's visit changes in, the server's out (`MapAPI+Sync.swift`) |
/// | GET | `/`, `/app.js`, `/app.css`, `/prefectures.geojson`, `/leaflet/…` | the page |
final class MapAPI: @unchecked Sendable {
    let configuration: MapServerConfiguration
    let token: String
    let readers: ReaderPool
    let writer: VisitWriter
    let web: StaticFiles
    let leaflet: StaticFiles?
    /// Set once, right after the daemon binds (before any request is answered).
    var port: UInt16 = 0

    static let tokenHeader = "x-eki-token"

    init(configuration: MapServerConfiguration, token: String, readers: ReaderPool, writer: VisitWriter,
         web: StaticFiles, leaflet: StaticFiles?) {
        self.configuration = configuration
        self.token = token
        self.readers = readers
        self.writer = writer
        self.web = web
        self.leaflet = leaflet
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
        return response
    }

    /// The hosts a browser may call this server by: for a loopback address only loopback
    /// names (so a foreign site cannot reach it through DNS rebinding).
    func checkOrigin(_ r: HTTPRequest) throws(APIError) {
        let host = r.headers["host"] ?? ""
        if configuration.listen.isLoopback {
            let allowed = ["127.0.0.1", "localhost", "[::1]", configuration.listen.host].map { "\($0):\(port)" }
            guard allowed.contains(host.lowercased()) else {
                throw APIError(403, "foreign_host", .foreignHost(host))
            }
        }
        if let origin = r.headers["origin"], origin.lowercased() != "http://\(host.lowercased())" {
            throw APIError(403, "foreign_origin", .foreignOrigin(origin))
        }
    }

    func checkWrite(_ r: HTTPRequest) throws(APIError) {
        if configuration.readOnly { throw APIError(403, "read_only", .readOnly) }
        guard let t = r.headers[Self.tokenHeader], t == token else { throw APIError(403, "bad_token", .badToken) }
    }

    func route(_ r: HTTPRequest) throws -> HTTPResponse {
        let path = r.rawPath
        if path.hasPrefix("/api/") {
            let get = r.method == "GET" || r.method == "HEAD"
            func only(_ ok: Bool) throws(APIError) {
                if !ok { throw APIError(405, "method_not_allowed", .methodNotAllowed(r.method, path: path)) }
            }
            switch path {
            case "/api/bbox": try only(get); return try bbox(r)
            case "/api/nearest": try only(get); return try nearest(r)
            case "/api/search": try only(get); return try search(r)
            case "/api/geocode": try only(get); return try geocode(r)
            case "/api/station": try only(get); return try station(r)
            case "/api/stats": try only(get); return try stats(r)
            case "/api/render.png": try only(get); return try renderPNG(r)
            case "/api/clusters": try only(get); return try clusters(r)
            case "/api/lines": try only(get); return try lines(r)
            case "/api/line": try only(get); return try line(r)
            case "/api/linework": try only(get); return try linework(r)
            case "/api/snapshot": try only(get); return try snapshot(r)
            case "/api/visits": try only(r.method == "POST"); try checkWrite(r); return try addVisit(r)
            case "/api/sync": try only(r.method == "POST"); try checkWrite(r); return try sync(r)
            default:
                if path.hasPrefix("/api/visits/") {
                    try only(r.method == "DELETE")
                    try checkWrite(r)
                    return try removeVisit(r, id: String(path.dropFirst("/api/visits/".count)))
                }
                throw APIError(404, "not_found", .noAPI(path))
            }
        }
        guard r.method == "GET" || r.method == "HEAD" else {
            throw APIError(405, "method_not_allowed", .methodNotAllowed(r.method, path: path))
        }
        return try staticFile(path, language: r.language)
    }

    // MARK: The page

    func staticFile(_ path: String, language: Language) throws(APIError) -> HTTPResponse {
        let notFound = APIError(404, "not_found", .noFile(path))
        if path == "/" || path == "/index.html" {
            guard let file = web.file("index.html"), let bytes = StaticFiles.read(file) else { throw notFound }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                                                       ("Content-Security-Policy", Self.contentSecurityPolicy)],
                                body: Array(pageHTML(String(decoding: bytes, as: UTF8.self), language: language).utf8))
        }
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

    /// index.html with the token, the page settings and the language filled in (`{{TOKEN}}`,
    /// `{{CONFIG}}`, `{{LANG}}`; a template without `{{LANG}}` gets `lang="ja"` replaced). The
    /// settings: `pins`, `readOnly`, `tiles` and `aerial` (`{url, attribution}` or null),
    /// `leaflet`, `lang` (`ja`|`en`) and `clusterBelowZoom`.
    func pageHTML(_ template: String, language: Language) -> String {
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
        JSONBytes.append(",\"clusterBelowZoom\":\(configuration.clusterBelowZoom)}", to: &config)
        var page = template
        if !page.contains("{{LANG}}") { page = page.replacingOccurrences(of: "<html lang=\"ja\"", with: "<html lang=\"{{LANG}}\"") }
        return page.replacingOccurrences(of: "{{TOKEN}}", with: Self.attribute(token))
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
