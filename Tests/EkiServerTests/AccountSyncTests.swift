import EkiAccounts
import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// `POST /api/sync` with accounts: each person's devices converge on their own visits only.
@Suite struct AccountSyncTests {
    func sync(_ s: TestServer, _ changes: [String], since: String? = nil, as who: LoggedIn) throws -> RawResponse {
        try s.write("POST", "/api/sync", json: SyncAPITests.batch(changes, since: since), as: who)
    }

    @Test func syncIsEachPersonsOwn() throws {
        let s = try TestServer.withAccounts()
        let alice = try #require(try s.login("alice", "alice-password"))
        let bob = try #require(try s.login("bob", "bob-password"))
        let uid = UUID().uuidString.lowercased()
        let hers = try sync(s, [SyncAPITests.change("jr-east/c/小田原", "2019-08-13", id: uid, kind: "alight")], as: alice)
        #expect(hers.status == 200 && hers.object["applied"] as? Int == 1)
        // Bob's new device gets nothing of hers.
        let his = try sync(s, [], as: bob)
        #expect(his.status == 200 && (his.object["changes"] as? [Any])?.count == 0)
        // Her second device gets her visit.
        let second = try #require(try s.login("alice", "alice-password"))
        let got = try sync(s, [], as: second).object["changes"] as? [[String: Any]] ?? []
        #expect(got.count == 1 && got[0]["id"] as? String == uid)
        // A deletion Bob sends for her visit's id touches only his own record.
        let removal = SyncAPITests.change("jr-east/c/小田原", "2019-08-13", id: uid, kind: "alight", deleted: true)
        #expect(try sync(s, [removal], as: bob).status == 200)
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 1)
        #expect(try s.get("/api/stats", as: bob).visitedTotal == 0)
        // Sync is a write: the session's CSRF token is needed, an API token is enough.
        let noCSRF = try s.write("POST", "/api/sync", json: SyncAPITests.batch([]), as: alice, csrf: "x")
        #expect(noCSRF.status == 403 && noCSRF.error == "bad_csrf")
        #expect(try s.send("POST", "/api/sync", headers: ["Content-Type": "application/json"], body: Array(SyncAPITests.batch([]).utf8)).status == 401)
        let store = try AccountStore(path: s.accountsPath, create: false)
        let token = try store.createToken(for: try store.requireUser(named: "alice").id)
        let script = try s.send("POST", "/api/sync", headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
                                body: Array(SyncAPITests.batch([]).utf8))
        #expect(script.status == 200 && (script.object["changes"] as? [Any])?.count == 1)
    }
}
