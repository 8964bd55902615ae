import EkiAccounts
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// HTTPS through libmicrohttpd's own TLS, with a throw-away certificate made by `openssl` and
/// a client (`curl --cacert`) that trusts only it.
@Suite(.enabled(if: Tools.path(of: "openssl") != nil && Tools.path(of: "curl") != nil,
                "needs openssl and curl on the PATH (Debian packages openssl, curl)"))
struct AccountTLSTests {
    /// A self-signed certificate for 127.0.0.1 and localhost, valid one day: (cert, key) paths.
    static func throwAwayCertificate() throws -> (cert: String, key: String) {
        let dir = TestPaths.temporaryDirectory()
        let cert = dir.appendingPathComponent("cert.pem").path, key = dir.appendingPathComponent("key.pem").path
        let r = try Self.run("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                         "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                                         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        guard r.status == 0 else { throw RawHTTP.Failure(description: "openssl failed: \(r.err)") }
        return (cert, key)
    }

    /// Runs a tool on the PATH; its exit status, standard output and standard error.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try Tools.run(tool, arguments)
    }

    /// `curl -sS -i --cacert CERT …`: the status and the answer's head and body.
    static func curl(_ cert: String, _ arguments: [String]) throws -> (status: Int32, text: String, err: String) {
        let r = try run("curl", ["-sS", "-i", "--max-time", "20", "--cacert", cert] + arguments)
        return (r.status, r.out, r.err)
    }

    @Test func libmicrohttpdHasTLS() {
        #expect(TLSCredentials.isSupported)
    }

    @Test func loginAndAVisitOverHTTPS() throws {
        let (cert, key) = try Self.throwAwayCertificate()
        let tls = try TLSCredentials(certificatePEM: String(contentsOfFile: cert, encoding: .utf8),
                                     keyPEM: String(contentsOfFile: key, encoding: .utf8))
        let s = try TestServer.withAccounts { $0.tls = tls }
        #expect(s.server.url == "https://127.0.0.1:\(s.port)/")
        let base = "https://127.0.0.1:\(s.port)"
        let login = try Self.curl(cert, ["-H", "Content-Type: application/json", "-H", "Origin: \(base)",
                                         "--data", #"{"user":"alice","password":"alice-password"}"#, "\(base)/api/login"])
        #expect(login.status == 0, "\(login.err)")
        #expect(login.text.hasPrefix("HTTP/1.1 200"), "\(login.text)")
        #expect(login.text.lowercased().contains("strict-transport-security: max-age=31536000"), "\(login.text)")
        let setCookie = try #require(login.text.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.hasSuffix("; Secure"))
        let cookie = try #require(TestServer.sessionValue(String(setCookie.dropFirst("set-cookie: ".count))))
        let body = login.text.components(separatedBy: "\r\n\r\n").last ?? ""
        let csrf = try #require((parsed(body) as? [String: Any])?["csrf"] as? String)
        let visit = try Self.curl(cert, ["-H", "Content-Type: application/json", "-H", "X-CSRF-Token: \(csrf)", "-H", "Origin: \(base)",
                                         "-H", "Cookie: eki_session=\(cookie)", "--data", #"{"key":"jr-east/c/小田原"}"#, "\(base)/api/visits"])
        #expect(visit.text.hasPrefix("HTTP/1.1 201"), "\(visit.text)")
        // An http:// Origin is another origin than this https:// server.
        let http = try Self.curl(cert, ["-H", "Origin: http://127.0.0.1:\(s.port)", "-H", "Cookie: eki_session=\(cookie)", "\(base)/api/stats"])
        #expect(http.text.hasPrefix("HTTP/1.1 403"))
    }

    @Test func aClientThatDoesNotTrustTheCertificateAndPlainHTTPGetNothing() throws {
        let (cert, key) = try Self.throwAwayCertificate()
        let other = try Self.throwAwayCertificate()
        let s = try TestServer.withAccounts {
            $0.tls = TLSCredentials(certificatePEM: try String(contentsOfFile: cert, encoding: .utf8),
                                    keyPEM: try String(contentsOfFile: key, encoding: .utf8))
        }
        let untrusted = try Self.curl(other.cert, ["https://127.0.0.1:\(s.port)/api/session"])
        #expect(untrusted.status == 60, "curl exit \(untrusted.status): \(untrusted.err)")   // CURLE_PEER_FAILED_VERIFICATION
        let plain = try Self.run("curl", ["-sS", "--max-time", "10", "http://127.0.0.1:\(s.port)/api/session"])
        #expect(plain.status != 0 && !plain.out.contains("login_required"))
    }

    @Test func serveReadsTheFilesAndRefusesBadOnes() throws {
        let (cert, _) = try Self.throwAwayCertificate()
        let folder = TestPaths.temporaryDirectory()
        let notPEM = folder.appendingPathComponent("x.pem").path
        try "not a certificate".write(toFile: notPEM, atomically: true, encoding: .utf8)
        let r = runEki(["serve", "--db", "/nonexistent.gpkg", "--tls-cert", cert, "--tls-key", notPEM])
        #expect(r.status == 1 && r.err.contains("--tls-key \(notPEM) is not a PEM file"), "\(r.err)")
        let missing = runEki(["serve", "--db", "/nonexistent.gpkg", "--tls-cert", cert, "--tls-key", folder.appendingPathComponent("none").path])
        #expect(missing.status == 1 && missing.err.contains("cannot read --tls-key"))
        // A key that does not go with the certificate: the daemon does not start.
        let other = try Self.throwAwayCertificate()
        #expect(throws: ServerError.self) {
            _ = try TestServer.withAccounts {
                $0.tls = TLSCredentials(certificatePEM: try String(contentsOfFile: cert, encoding: .utf8),
                                        keyPEM: try String(contentsOfFile: other.key, encoding: .utf8))
            }
        }
    }
}
