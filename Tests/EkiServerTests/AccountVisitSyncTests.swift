import EkiAccounts
import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// `eki visit sync URL --token-file F` against an account on a served map: the laptop's log and
/// the account converge, over HTTP and over HTTPS with `--cacert`; a wrong token changes nothing.
@Suite struct AccountVisitSyncTests {
    /// A token file for `name` on the server's accounts file.
    func tokenFile(_ s: TestServer, _ name: String) throws -> String {
        let store = try AccountStore(path: s.accountsPath, create: false)
        let path = TestPaths.temporaryDirectory().appendingPathComponent("token").path
        try (try store.createToken(for: try store.requireUser(named: name).id) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aLaptopLogAndAnAccountConverge() throws {
        let s = try TestServer.withAccounts()
        let alice = try #require(try s.login("alice", "alice-password"))
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"odakyu/c/小田原","date":"2020-01-02"}"#, as: alice).status == 201)
        let laptop = TestPaths.temporaryDirectory().appendingPathComponent("visits.sqlite").path
        try VisitLog(path: laptop).add(Visit(stationKey: "jr-east/c/小田原", date: try VisitDate(parsing: "2019-08-13")))
        let r = runEki(["visit", "sync", "http://127.0.0.1:\(s.port)", "--token-file", try tokenFile(s, "alice"), "--visits", laptop])
        #expect(r.status == 0, "\(r.err)")
        #expect(try VisitLog(path: laptop, create: false).visits().map(\.stationKey).sorted() == ["jr-east/c/小田原", "odakyu/c/小田原"])
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 2)
        // Bob's account is untouched.
        let bob = try #require(try s.login("bob", "bob-password"))
        #expect(try s.get("/api/stats", as: bob).visitedTotal == 0)
        // A token that is not one: 401, and the log is as it was.
        let wrong = TestPaths.temporaryDirectory().appendingPathComponent("wrong").path
        try "not-a-token\n".write(toFile: wrong, atomically: true, encoding: .utf8)
        let refused = runEki(["visit", "sync", "http://127.0.0.1:\(s.port)", "--token-file", wrong, "--visits", laptop])
        #expect(refused.status == 1 && !refused.err.contains("not-a-token"), "\(refused.err)")
        #expect(try VisitLog(path: laptop, create: false).count() == 2)
    }

    @Test(.enabled(if: Tools.path(of: "openssl") != nil, "needs openssl on the PATH (Debian package openssl)"))
    func overHTTPSWithTheServersCertificate() throws {
        let (cert, key) = try AccountTLSTests.throwAwayCertificate()
        let s = try TestServer.withAccounts {
            $0.tls = TLSCredentials(certificatePEM: try String(contentsOfFile: cert, encoding: .utf8),
                                    keyPEM: try String(contentsOfFile: key, encoding: .utf8))
        }
        let laptop = TestPaths.temporaryDirectory().appendingPathComponent("visits.sqlite").path
        try VisitLog(path: laptop).add(Visit(stationKey: "jr-east/c/小田原", date: try VisitDate(parsing: "2019-08-13")))
        let token = try tokenFile(s, "bob")
        let r = runEki(["visit", "sync", "https://127.0.0.1:\(s.port)", "--token-file", token, "--cacert", cert, "--visits", laptop])
        #expect(r.status == 0, "\(r.err)")
        let store = try AccountStore(path: s.accountsPath, create: false)
        #expect(try store.visits(of: try store.requireUser(named: "bob").id).count() == 1)
        // Without the certificate the client does not trust the server: nothing is sent.
        let untrusted = runEki(["visit", "sync", "https://127.0.0.1:\(s.port)", "--token-file", token, "--visits", laptop])
        #expect(untrusted.status == 1)
    }
}
