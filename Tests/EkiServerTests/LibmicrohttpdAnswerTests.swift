import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// Every error the server answers is the API's JSON — except the few that libmicrohttpd 0.9.75
/// sends itself, before the request reaches the server, from bodies built into the library
/// (no option or callback replaces them: docs/serve.md, "Errors libmicrohttpd answers itself").
/// Those are pinned here as they are, so that a libmicrohttpd that changes them is noticed.
@Suite struct LibmicrohttpdAnswerTests {
    func raw(_ s: TestServer, _ head: String, body: String = "") throws -> RawResponse {
        try RawHTTP.exchange(port: s.port, Array(head.utf8), body: Array(body.utf8))
    }

    @Test func requestsThatReachTheServerGetJSON() throws {
        let s = try TestServer()
        let host = "Host: 127.0.0.1:\(s.port)\r\nConnection: close\r\n"
        let big = try raw(s, "GET /api/session HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "a", count: 40_000))\r\n\r\n")
        #expect(big.status == 413 && big.error == "too_large")
        let long = try raw(s, "GET /api/session?q=\(String(repeating: "a", count: 20_000)) HTTP/1.1\r\n\(host)\r\n")
        #expect(long.status == 413 && long.error == "too_large")
        let noHost = try raw(s, "GET /api/session HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(noHost.status == 403 && noHost.error == "foreign_host")
    }

    @Test func libmicrohttpdsOwnAnswers() throws {
        let s = try TestServer()
        let host = "Host: 127.0.0.1:\(s.port)\r\nConnection: close\r\n"
        let tooBig = "<html><head><title>Request too big</title></head><body>Your HTTP header was too big for the memory constraints of this webserver.</body></html>"
        let malformed = "<html><head><title>Request malformed</title></head><body>Your HTTP request was syntactically incorrect.</body></html>"
        let cases: [(String, String, Int, String)] = [
            // A head past the connection's 64 KiB memory: 431, or 414 before the request line ends.
            ("GET /api/session HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n", "", 431, tooBig),
            ("GET /api/session?q=\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\n\(host)\r\n", "", 414, tooBig),
            ("GET /api/session HTXP/1.1\r\n\(host)\r\n", "", 400, malformed),
            ("GET /api/session HTTP/1.1\r\n\(host)NoColonHere\r\n\r\n", "", 400, malformed),
            ("GET /api/session HTTP/2.0\r\n\(host)\r\n", "", 505,
             "<html><head><title>Requested HTTP version is not supported</title></head><body>Requested HTTP version is not supported.</body></html>"),
            ("POST /api/visits HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n", "zz\r\nabc\r\n0\r\n\r\n", 400,
             "<html><head><title>Request malformed</title></head><body>Your HTTP chunked encoding was syntactically incorrect.</body></html>"),
        ]
        for (head, body, status, text) in cases {
            let r = try raw(s, head, body: body)
            #expect(r.status == status && r.text == text, "\(head.prefix(40)): \(r.status) \(r.text.prefix(80))")
            #expect(r.headers["content-type"] == nil)
        }
        // A Content-Length that is not a number: 400, and libmicrohttpd 0.9.75 writes the status
        // line and header fields twice, so the body a client reads begins with the second copy.
        let badLength = try raw(s, "POST /api/visits HTTP/1.1\r\n\(host)Content-Length: abc\r\n\r\n")
        #expect(badLength.status == 400 && badLength.text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
    }
}
