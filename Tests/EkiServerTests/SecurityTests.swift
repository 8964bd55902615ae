import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// Size limits (413), static files only from the page's folder (404 for traversal), Host and
/// Origin checks, methods (405).
@Suite struct SecurityTests {
    @Test func oversizedRequestsGet413() throws {
        let s = try TestServer(limits: HTTPLimits(maxTarget: 2048, maxHeaderBytes: 4096, maxBody: 1024))
        let longTarget = try s.get("/api/search?q=" + String(repeating: "a", count: 3000))
        #expect(longTarget.status == 413 && longTarget.error == "too_large")
        let bigHeader = try s.get("/api/stats", headers: ["X-Padding": String(repeating: "x", count: 5000)])
        #expect(bigHeader.status == 413)
        let note = String(repeating: "長", count: 2000)
        let bigBody = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","note":"\#(note)"}"#)
        #expect(bigBody.status == 413)
        // A chunked body (no Content-Length) is cut off at the limit too.
        var chunked: [UInt8] = []
        for _ in 0..<4 { chunked += Array("200\r\n".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 512) + Array("\r\n".utf8) }
        chunked += Array("0\r\n\r\n".utf8)
        let c = try s.send("POST", "/api/visits", headers: ["Transfer-Encoding": "chunked", "Content-Type": "application/json",
                                                            "X-CSRF-Token": s.token], body: chunked)
        #expect(c.status == 413)
        // Within the limits all is well, and nothing was recorded.
        let stats = try s.get("/api/stats")
        #expect(stats.status == 200 && (stats.object["total"] as? [String: Any])?["visited"] as? Int == 0)
    }

    @Test(arguments: [
        "/../Package.swift", "/..%2fPackage.swift", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E/Package.swift",
        "/%2fetc%2fpasswd", "/%2Fetc%2Fpasswd", "//etc/passwd", "/./app.js", "/leaflet/../app.js",
        "/leaflet/..%2f..%2f..%2fetc%2fpasswd", "/leaflet//etc/passwd", "/..%5c..%5cPackage.swift", "/app.js%00.html",
        "/no-such-file.js", "/outside-link.txt", "/sub/../app.js",
    ])
    func traversalIsNotFound(target: String) throws {
        let web = try Self.webFolderWithLinks()
        let s = try TestServer(webRoot: web)
        let r = try s.get(target)
        #expect(r.status == 404, "\(target) answered \(r.status)")
        #expect(!r.text.contains("root:"))
    }

    @Test func staticFilesComeFromThePagesFolder() throws {
        let web = try Self.webFolderWithLinks()
        let s = try TestServer(webRoot: web)
        #expect(try s.get("/app.js").text == "// app\n")
        #expect(try s.get("/app.js").headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(try s.get("/inside-link.js").text == "// app\n")   // a symlink within the folder is fine
        #expect(try s.get("/sub/deep.css").status == 200)
        #expect(try s.send("POST", "/app.js").status == 405)
        #expect(try s.send("PUT", "/api/bbox?bbox=1,2,3,4").status == 405)
    }

    @Test func theBuiltInPageAndItsData() throws {
        let s = try TestServer()
        let page = try s.get("/")
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'self'") == true)
        #expect(page.text.contains(#"<script src="/leaflet/leaflet.js"></script>"#) && page.text.contains("今日乗下車しました"))
        #expect(page.text.contains("&quot;pins&quot;:300") && page.text.contains("&quot;tiles&quot;:null"))
        #expect(try s.get("/app.js").text.contains("window.eki"))
        #expect(try s.get("/app.css").headers["content-type"] == "text/css; charset=utf-8")
        let outlines = try s.get("/prefectures.geojson")
        #expect(outlines.headers["content-type"] == "application/geo+json")
        #expect((outlines.object["features"] as? [Any])?.count == 47)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js"),
                   "Debian's libjs-leaflet is not installed"))
    func leafletIsServedFromDebian() throws {
        let s = try TestServer()
        let js = try s.get("/leaflet/leaflet.js")
        #expect(js.status == 200 && js.text.contains("Leaflet"))
        #expect(try s.get("/leaflet/leaflet.css").status == 200)
        #expect(try s.get("/leaflet/images/marker-icon.png").headers["content-type"] == "image/png")
        #expect(s.server.warnings.isEmpty)
    }

    @Test func aMissingLeafletIsSaidAtStartAndOnThePage() throws {
        let folder = TestPaths.temporaryDirectory()
        var c = MapServerConfiguration(databasePath: try TestServer().db, visitsPath: folder.appendingPathComponent("v.sqlite").path,
                                       listen: ListenAddress(host: "127.0.0.1", port: 0), tiles: nil)
        c.leafletRoot = folder.appendingPathComponent("no-leaflet").path
        let server = try MapServer(configuration: c)
        defer { server.stop() }
        #expect(server.warnings.first?.contains("apt-get install libjs-leaflet") == true)
        let page = try RawHTTP.exchange(port: server.port, Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n".utf8))
        #expect(page.text.contains("&quot;leaflet&quot;:false") && page.text.contains("libjs-leaflet"))
    }

    @Test func foreignHostsAndOriginsAreRefused() throws {
        let s = try TestServer()
        let rebinding = try s.send("GET", "/api/stats", host: "evil.example:\(s.port)")
        #expect(rebinding.status == 403 && rebinding.error == "foreign_host")
        let foreign = try s.get("/api/stats", headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403 && foreign.error == "foreign_origin")
        #expect(try s.get("/api/stats", headers: ["Origin": "null"]).status == 403)
        #expect(try s.get("/api/stats", headers: ["Origin": "http://127.0.0.1:\(s.port)"]).status == 200)
        #expect(try s.send("GET", "/api/stats", host: "localhost:\(s.port)").status == 200)
    }

    @Test func listenAddresses() throws {
        #expect(try ListenAddress(parsing: "127.0.0.1:8080") == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(try ListenAddress(parsing: "[::1]:0") == ListenAddress(host: "::1", port: 0))
        #expect(try ListenAddress(parsing: "[::1]:0").isLoopback)
        #expect(try !ListenAddress(parsing: "0.0.0.0:80").isLoopback)
        #expect(throws: ServerError.self) { try ListenAddress(parsing: "8080") }
        #expect(throws: ServerError.self) { try ListenAddress(parsing: "127.0.0.1:99999") }
        #expect(throws: ServerError.self) { try ListenAddress(parsing: ":80") }
    }

    /// A page folder with app.js, sub/deep.css, a symlink inside (inside-link.js → app.js) and
    /// one out of it (outside-link.txt → /etc/passwd).
    static func webFolderWithLinks() throws -> String {
        let web = TestPaths.temporaryDirectory().appendingPathComponent("web")
        let fm = FileManager.default
        try fm.createDirectory(at: web.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try "// app\n".write(to: web.appendingPathComponent("app.js"), atomically: true, encoding: .utf8)
        try "<!doctype html>{{CSRF}}\n".write(to: web.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "b{}\n".write(to: web.appendingPathComponent("sub/deep.css"), atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: web.appendingPathComponent("inside-link.js").path, withDestinationPath: "app.js")
        try fm.createSymbolicLink(atPath: web.appendingPathComponent("outside-link.txt").path, withDestinationPath: "/etc/passwd")
        return web.path
    }
}
