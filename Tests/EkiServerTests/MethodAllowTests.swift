import Foundation
import Testing
import EkiTestSupport

/// A 405 names the methods the route takes, and only those, in `Allow`; the body is the API's
/// JSON error.
@Suite struct MethodAllowTests {
    @Test func allowListsTheRoutesOwnMethods() throws {
        let s = try TestServer()
        let cases: [(String, String, String)] = [
            ("PUT", "/api/bbox?bbox=1,2,3,4", "GET, HEAD"),
            ("POST", "/api/stats", "GET, HEAD"),
            ("GET", "/api/visits", "POST"),
            ("GET", "/api/sync", "POST"),
            ("GET", "/api/visits/1", "DELETE"),
            ("DELETE", "/api/login", "POST"),
            ("POST", "/app.js", "GET, HEAD"),
        ]
        for (method, target, allow) in cases {
            let r = try s.send(method, target)
            #expect(r.status == 405, "\(method) \(target)")
            #expect(r.headers["allow"] == allow, "\(method) \(target): \(r.headers["allow"] ?? "none")")
            #expect(r.headers["content-type"] == "application/json; charset=utf-8")
            #expect(r.text.hasPrefix("{\"error\":\"method_not_allowed\""), "\(r.text)")
        }
        // Other errors carry no Allow.
        #expect(try s.get("/api/nope").headers["allow"] == nil)
    }
}
