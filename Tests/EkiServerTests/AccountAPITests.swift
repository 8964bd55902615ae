import EkiAccounts
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// `eki serve --accounts`: logging in and out, the session, and every API call being the
/// logged-in person's (their visits, ids, stats and pins).
@Suite struct AccountAPITests {
    @Test func withoutASessionOnlyThePagesFilesAndTheLoginAnswer() throws {
        let s = try TestServer.withAccounts()
        let root = try s.get("/")
        #expect(root.status == 303 && root.headers["location"] == "/login")
        #expect(try s.get("/index.html").status == 303)
        for target in ["/api/stats", "/api/bbox?bbox=139.10,35.22,139.20,35.30", "/api/session", "/api/lines",
                       "/api/station?key=\(percent("jr-east/c/小田原"))"] {
            let r = try s.get(target)
            #expect(r.status == 401 && r.error == "login_required", "\(target): \(r.status) \(r.text)")
        }
        let write = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原"}"#)
        #expect(write.status == 401 && write.error == "login_required")
        // The page's scripts, styles and outlines need nothing.
        #expect(try s.get("/app.js").status == 200)
        #expect(try s.get("/app.css").status == 200)
        #expect(try s.get("/prefectures.geojson").status == 200)
    }

    @Test func loginSessionAndLogout() throws {
        let s = try TestServer.withAccounts()
        let r = try s.postLogin("alice", "alice-password")
        #expect(r.status == 200 && r.object["user"] as? String == "alice")
        let csrf = try #require(r.object["csrf"] as? String)
        #expect(csrf.count == 43)
        let cookie = try #require(r.headers["set-cookie"])
        let id = try #require(TestServer.sessionValue(cookie))
        #expect(id.count == 43 && id != csrf)
        let alice = LoggedIn(user: "alice", cookie: id, csrf: csrf)
        let session = try s.get("/api/session", as: alice).object
        #expect(session["user"] as? String == "alice" && session["csrf"] as? String == csrf && session["accounts"] as? Bool == true)
        // The page is hers: her CSRF token and name in it.
        let page = try s.get("/", as: alice)
        #expect(page.status == 200 && page.text.contains(csrf) && page.text.contains("&quot;user&quot;:&quot;alice&quot;"))
        #expect(page.text.contains("&quot;accounts&quot;:true"))
        // /login with a session goes to the map.
        #expect(try s.get("/login", as: alice).headers["location"] == "/")
        // The file holds the session's digest only, never the cookie's value.
        let store = try AccountStore(path: s.accountsPath, create: false)
        let kept = try store.sessions(of: try store.requireUser(named: "alice").id)
        let digest = try SecretToken.digest(id)
        #expect(kept.count == 1 && kept[0].digest == digest && kept[0].digest != id)
        // Logout needs the CSRF token, ends the session and clears the cookie.
        #expect(try s.write("POST", "/api/logout", json: "{}", as: alice, csrf: "wrong").status == 403)
        let out = try s.write("POST", "/api/logout", json: "{}", as: alice)
        #expect(out.status == 200 && out.text == "{}")
        #expect(out.headers["set-cookie"]?.hasPrefix("eki_session=; Path=/; Max-Age=0") == true)
        #expect(try s.get("/api/stats", as: alice).status == 401)
        #expect(try s.get("/", as: alice).status == 303)
    }

    @Test(arguments: [("alice", "wrong-password"), ("nobody", "alice-password"), ("", ""), ("ALICE", "Alice-password")])
    func aWrongPairAndAnUnknownNameGetOneAnswer(user: String, password: String) throws {
        let s = try TestServer.withAccounts()
        let r = try s.postLogin(user, password)
        #expect(r.status == 401 && r.error == "bad_login" && r.headers["set-cookie"] == nil)
        #expect(r.object["message"] as? String == "ユーザー名かパスワードが違います")
        #expect(!r.text.contains(password) || password.isEmpty)
    }

    @Test func namesAreComparedWithoutCase() throws {
        let s = try TestServer.withAccounts()
        let r = try s.postLogin("ALICE", "alice-password")
        #expect(r.status == 200 && r.object["user"] as? String == "alice")
    }

    @Test(arguments: [
        ("text/plain", #"{"user":"alice","password":"alice-password"}"#, 415),
        ("application/x-www-form-urlencoded", "user=alice&password=alice-password", 415),
        ("application/json", #"{"user":"alice"}"#, 400),
        ("application/json", #"{"user":"alice","password":"alice-password","admin":true}"#, 400),
        ("application/json", #"["alice","alice-password"]"#, 400),
    ])
    func malformedLoginsAreRefused(contentType: String, body: String, status: Int) throws {
        let s = try TestServer.withAccounts()
        let r = try s.send("POST", "/api/login", headers: ["Content-Type": contentType], body: Array(body.utf8))
        #expect(r.status == status && r.headers["set-cookie"] == nil, "\(r.text)")
        #expect(!r.text.contains("alice-password"))
    }

    @Test func everyLoginGetsANewSessionAndEndsTheOneItCameWith() throws {
        let s = try TestServer.withAccounts()
        let first = try #require(try s.login("alice", "alice-password"))
        let other = try #require(try s.login("alice", "alice-password"))   // a second device
        #expect(first.cookie != other.cookie && first.csrf != other.csrf)
        // Logging in again with the first cookie replaces it (a planted session id never lives on).
        let again = try s.postLogin("alice", "alice-password", headers: ["Cookie": "eki_session=\(first.cookie)"])
        let renewed = try #require(again.headers["set-cookie"].flatMap(TestServer.sessionValue))
        #expect(renewed != first.cookie)
        #expect(try s.get("/api/stats", as: first).status == 401)
        #expect(try s.get("/api/stats", as: other).status == 200)
        #expect(try s.get("/api/stats", as: LoggedIn(user: "alice", cookie: renewed, csrf: "")).status == 200)
    }

    @Test func twoAccountsSeeOnlyTheirOwnVisits() throws {
        let s = try TestServer.withAccounts()
        let alice = try #require(try s.login("alice", "alice-password"))
        let bob = try #require(try s.login("bob", "bob-password"))
        let added = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"2019-08-13","kind":"alight"}"#, as: alice)
        #expect(added.status == 201)
        let aliceVisit = try #require((added.object["visit"] as? [String: Any])?["id"] as? Int)
        // Her n/m, pins, station screen and lines; none of it is Bob's.
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 1)
        #expect(try s.get("/api/stats", as: bob).visitedTotal == 0)
        let box = "/api/bbox?bbox=139.10,35.22,139.20,35.30&filter=visited"
        #expect(try s.get(box, as: alice).keys == ["jr-east/c/小田原"])
        #expect(try s.get(box, as: bob).keys == [])
        let pins = try s.get("/api/bbox?bbox=139.10,35.22,139.20,35.30", as: bob).features
        #expect(pins.count == 21 && pins.allSatisfy { ($0["properties"] as? [String: Any])?["visited"] as? Bool == false })
        let station = "/api/station?key=\(percent("jr-east/c/小田原"))"
        let hers = try s.get(station, as: alice).object["properties"] as? [String: Any] ?? [:]
        let his = try s.get(station, as: bob).object["properties"] as? [String: Any] ?? [:]
        #expect((hers["visits"] as? [[String: Any]])?.count == 1 && hers["completed"] as? String == "2019-08-13")
        #expect((his["visits"] as? [[String: Any]])?.count == 0 && his["completed"] is NSNull)
        let clusters = try s.get("/api/clusters?bbox=138.9,35.0,139.9,35.8&zoom=8", as: bob).object
        #expect(clusters["visited"] as? Int == 0)
        #expect(try s.get("/api/clusters?bbox=138.9,35.0,139.9,35.8&zoom=8", as: alice).object["visited"] as? Int == 1)
        #expect(try s.get("/api/lines", as: bob).object["visited"] as? Int == 0)
        #expect(try s.get("/api/lines", as: alice).object["visited"] as? Int == 1)
        // Her visit id is no visit of Bob's: 404, and it stays hers.
        let foreign = try s.write("DELETE", "/api/visits/\(aliceVisit)", as: bob)
        #expect(foreign.status == 404 && foreign.error == "unknown_visit")
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 1)
        // Bob records the same station, date and kind: his own visit, not a duplicate of hers.
        let his2 = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"2019-08-13","kind":"alight"}"#, as: bob)
        #expect(his2.status == 201)
        #expect(try s.get("/api/stats", as: bob).visitedTotal == 1)
        // Each removes their own.
        #expect(try s.write("DELETE", "/api/visits/\(aliceVisit)", as: alice).status == 200)
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 0)
        #expect(try s.get("/api/stats", as: bob).visitedTotal == 1)
    }

    @Test func aTokenActsForItsAccountWithoutCSRF() throws {
        let s = try TestServer.withAccounts()
        let store = try AccountStore(path: s.accountsPath, create: false)
        let token = try store.createToken(for: try store.requireUser(named: "bob").id)
        let bearer = ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
        let added = try s.send("POST", "/api/visits", headers: bearer, body: Array(#"{"key":"odakyu/c/小田原"}"#.utf8))
        #expect(added.status == 201)
        #expect(try s.get("/api/stats", headers: bearer).visitedTotal == 1)
        let session = try s.get("/api/session", headers: bearer).object
        #expect(session["user"] as? String == "bob" && session["csrf"] is NSNull)
        let alice = try #require(try s.login("alice", "alice-password"))
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 0)
        // A revoked token is refused.
        try store.revokeTokens(of: try store.requireUser(named: "bob").id)
        #expect(try s.get("/api/stats", headers: bearer).status == 401)
    }

    @Test(arguments: ["X-Api-Token", "Authorization-Plain", "Basic", "Cookie", "Query"])
    func aTokenInTheWrongPlaceIsRefused(place: String) throws {
        let s = try TestServer.withAccounts()
        let store = try AccountStore(path: s.accountsPath, create: false)
        let token = try store.createToken(for: try store.requireUser(named: "alice").id)
        let r: RawResponse
        switch place {
        case "X-Api-Token": r = try s.get("/api/stats", headers: ["X-Api-Token": token])
        case "Authorization-Plain": r = try s.get("/api/stats", headers: ["Authorization": token])
        case "Basic": r = try s.get("/api/stats", headers: ["Authorization": "Basic \(token)"])
        case "Cookie": r = try s.get("/api/stats", headers: ["Cookie": "eki_session=\(token)"])
        default: r = try s.get("/api/stats?token=\(token)")
        }
        #expect(r.status == 401 && r.error == "login_required", "\(place): \(r.status)")
        #expect(!r.text.contains(token))
        #expect(try s.get("/api/stats", headers: ["Authorization": "Bearer \(token)"]).status == 200)
    }

    @Test func expiredAndForgedCookiesAreRefused() throws {
        let s = try TestServer.withAccounts()
        let store = try AccountStore(path: s.accountsPath, create: false)
        let alice = try store.requireUser(named: "alice")
        // Last used 31 days ago: past the 30-day idle limit.
        let old = try store.createSession(for: alice.id, now: Date().addingTimeInterval(-31 * 24 * 3600))
        let expired = try s.get("/api/stats", headers: ["Cookie": "eki_session=\(old.id)"])
        #expect(expired.status == 401 && expired.error == "login_required")
        #expect(try store.sessions(of: alice.id).isEmpty)   // and removed
        // 29 days idle is still fine.
        let recent = try store.createSession(for: alice.id, now: Date().addingTimeInterval(-29 * 24 * 3600))
        #expect(try s.get("/api/stats", headers: ["Cookie": "eki_session=\(recent.id)"]).status == 200)
        // Forged: random, the digest itself, the CSRF token, empty, a changed character.
        let forged = [try SecretToken.make(), try SecretToken.digest(recent.id), recent.csrf, "",
                      String(recent.id.dropLast()) + (recent.id.hasSuffix("A") ? "B" : "A")]
        for f in forged {
            let r = try s.get("/api/stats", headers: ["Cookie": "eki_session=\(f)"])
            #expect(r.status == 401 && r.error == "login_required", "\(f)")
        }
    }

    @Test func aRemovedAccountsSessionsEndAtOnce() throws {
        let s = try TestServer.withAccounts()
        let bob = try #require(try s.login("bob", "bob-password"))
        #expect(try s.write("POST", "/api/visits", json: #"{"key":"odakyu/c/小田原"}"#, as: bob).status == 201)
        let store = try AccountStore(path: s.accountsPath, create: false, hasher: cheapHasher)
        #expect(try store.removeUser(name: "bob") == 1)
        #expect(try s.get("/api/stats", as: bob).status == 401)
        // A new bob starts empty.
        try store.addUser(name: "bob", password: "bob-password")
        let newBob = try #require(try s.login("bob", "bob-password"))
        #expect(try s.get("/api/stats", as: newBob).visitedTotal == 0)
    }

    @Test func readOnlyWithAccountsRefusesWritesButLogsIn() throws {
        let s = try TestServer.withAccounts(readOnly: true)
        let alice = try #require(try s.login("alice", "alice-password"))
        let r = try s.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原"}"#, as: alice)
        #expect(r.status == 403 && r.error == "read_only")
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 0)
    }
}
