import EkiAccounts
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// The login limits, CSRF, the cookie's flags, and what `eki serve` refuses to start with.
@Suite struct AccountSecurityTests {
    @Test func failedLoginsPerAccountAreLimited() throws {
        let s = try TestServer.withAccounts()   // the documented limits: 10 per account, 30 per address, 15 min
        for i in 1...10 {
            let r = try s.postLogin("alice", "guess-\(i)")
            #expect(r.status == 401 && r.error == "bad_login", "attempt \(i): \(r.status)")
        }
        let limited = try s.postLogin("alice", "guess-11")
        #expect(limited.status == 429 && limited.error == "too_many_attempts")
        let wait = try #require(limited.headers["retry-after"].flatMap(Int.init))
        #expect(wait > 880 && wait <= 900)
        #expect(limited.object["message"] as? String == "ログインの失敗が多すぎます。15 分後にもう一度お試しください")
        // The right password is refused too while limited (no verification is spent on it).
        #expect(try s.postLogin("alice", "alice-password").status == 429)
        // Another account from the same address still logs in.
        #expect(try s.login("bob", "bob-password") != nil)
    }

    @Test func failedLoginsPerAddressAreLimitedAcrossNames() throws {
        let s = try TestServer.withAccounts()
        // 30 failures from this address, spread over names so no account reaches its own limit.
        for i in 0..<30 {
            let r = try s.postLogin("user\(i % 5)", "guess-\(i)")
            #expect(r.status == 401, "attempt \(i): \(r.status)")
        }
        let limited = try s.postLogin("bob", "bob-password")
        #expect(limited.status == 429 && limited.headers["retry-after"].flatMap(Int.init) ?? 0 > 0)
    }

    @Test func aSuccessClearsTheAccountsFailures() throws {
        let s = try TestServer.withAccounts(limits: LoginLimits(perAccount: 3, perAddress: 100, window: 900))
        for _ in 0..<2 { #expect(try s.postLogin("alice", "nope-nope").status == 401) }
        #expect(try s.login("alice", "alice-password") != nil)
        for _ in 0..<2 { #expect(try s.postLogin("alice", "nope-nope").status == 401) }
        #expect(try s.login("alice", "alice-password") != nil)
        for _ in 0..<3 { #expect(try s.postLogin("alice", "nope-nope").status == 401) }
        #expect(try s.postLogin("alice", "alice-password").status == 429)
    }

    @Test(arguments: [
        ("text/plain", #"{"key":"jr-east/c/小田原"}"#),
        ("application/x-www-form-urlencoded", "key=jr-east%2Fc%2F%E5%B0%8F%E7%94%B0%E5%8E%9F"),
        ("multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"key\"\r\n\r\njr-east/c/小田原\r\n--x--\r\n"),
    ])
    func plainFormPostsAreRefused(contentType: String, body: String) throws {
        // What an HTML form on another site can send: the browser adds the cookie (a top-level
        // POST), but no X-CSRF-Token.
        let s = try TestServer.withAccounts()
        let alice = try #require(try s.login("alice", "alice-password"))
        let r = try s.send("POST", "/api/visits", headers: ["Cookie": "eki_session=\(alice.cookie)", "Content-Type": contentType],
                           body: Array(body.utf8))
        #expect(r.status == 403 && r.error == "bad_csrf", "\(r.text)")
        // Even with the token a form body is not taken.
        let typed = try s.write("POST", "/api/visits", json: body, as: alice, headers: ["Content-Type": contentType])
        #expect(typed.status == 415)
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 0)
    }

    @Test func writesNeedTheSessionsOwnCSRFToken() throws {
        let s = try TestServer.withAccounts()
        let alice = try #require(try s.login("alice", "alice-password"))
        let bob = try #require(try s.login("bob", "bob-password"))
        let body = #"{"key":"jr-east/c/小田原"}"#
        let missing = try s.send("POST", "/api/visits", headers: ["Cookie": "eki_session=\(alice.cookie)", "Content-Type": "application/json"],
                                 body: Array(body.utf8))
        #expect(missing.status == 403 && missing.error == "bad_csrf")
        #expect(try s.write("POST", "/api/visits", json: body, as: alice, csrf: "x").error == "bad_csrf")
        #expect(try s.write("POST", "/api/visits", json: body, as: alice, csrf: bob.csrf).error == "bad_csrf")   // another session's
        #expect(try s.write("DELETE", "/api/visits/1", as: alice, csrf: "").error == "bad_csrf")
        #expect(try s.write("POST", "/api/visits", json: body, as: alice, headers: ["Origin": "http://evil.example"]).error == "foreign_origin")
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 0)
        #expect(try s.write("POST", "/api/visits", json: body, as: alice, headers: ["Origin": "http://127.0.0.1:\(s.port)"]).status == 201)
    }

    @Test func theCookiesFlags() throws {
        let s = try TestServer.withAccounts()
        let r = try s.postLogin("alice", "alice-password")
        let cookie = try #require(r.headers["set-cookie"])
        let parts = cookie.components(separatedBy: "; ")
        #expect(parts[0].hasPrefix("eki_session=") && parts.contains("Path=/") && parts.contains("HttpOnly"))
        #expect(parts.contains("SameSite=Lax") && parts.contains("Max-Age=34560000"))
        #expect(!parts.contains("Secure"))   // plain HTTP on loopback; over TLS it is Secure (TLSTests)
        #expect(r.headers["cache-control"] == "no-store")
    }

    @Test func nonLoopbackWithoutAccountsIsRefused() {
        for listen in ["0.0.0.0:0", "[::]:0", "192.0.2.1:8080"] {
            let r = runEki(["serve", "--listen", listen, "--db", "/nonexistent.gpkg"])
            #expect(r.status == 64, "\(listen): \(r.err)")
            #expect(r.err.contains("is not loopback") && r.err.contains("add --accounts PATH"), "\(r.err)")
        }
        #expect(runEki(["serve", "--tls-cert", "c.pem", "--db", "/nonexistent.gpkg"]).status == 64)
    }

    @Test func serveWithAMissingAccountsFileSaysHowToMakeOne() {
        let folder = TestPaths.temporaryDirectory()
        let db = (try? TestServer().db) ?? ""
        let r = runEki(["serve", "--db", db, "--visits", folder.appendingPathComponent("v.sqlite").path,
                        "--accounts", folder.appendingPathComponent("none.sqlite").path, "--listen", "127.0.0.1:0"])
        #expect(r.status == 1 && r.err.contains("eki user add NAME --accounts"), "\(r.err)")
    }

    @Test func theClientAddressReachesTheRequest() throws {
        // The per-address limit counts 127.0.0.1 here; an address from the connection, not a header.
        let s = try TestServer.withAccounts(limits: LoginLimits(perAccount: 100, perAddress: 2, window: 900))
        for name in ["x1", "x2"] { #expect(try s.postLogin(name, "guess-guess").status == 401) }
        let spoofed = try s.postLogin("x3", "guess-guess", headers: ["X-Forwarded-For": "198.51.100.7"])
        #expect(spoofed.status == 429)
    }
}
