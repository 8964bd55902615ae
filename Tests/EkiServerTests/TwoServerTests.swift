import EkiAccounts
import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// Two `eki serve` processes' worth of servers on one PostgreSQL store (`TestPostgres`): each
/// sees the other's writes at once, takes the other's sessions, and syncs through either
/// converge.
@Suite(.needsPostgres) struct TwoServerTests {
    /// Servers A and B on one new PostgreSQL database holding alice and bob, and the sample
    /// station database.
    func servers() throws -> (a: TestServer, b: TestServer) {
        let url = try TestPostgres.shared().database()
        let store = try AccountStore(path: url, hasher: cheapHasher)
        try store.addUser(name: "alice", password: "alice-password")
        try store.addUser(name: "bob", password: "bob-password")
        let configure: (inout MapServerConfiguration) throws -> Void = { c in
            c.accountsPath = url
            c.passwordHasher = cheapHasher
        }
        let a = try TestServer(configure: configure)
        let b = try TestServer(database: a.db, configure: configure)
        return (a, b)
    }

    @Test func aWriteOnOneIsReadOnTheOtherAndSessionsGoAcross() throws {
        let (a, b) = try servers()
        let alice = try #require(try a.login("alice", "alice-password"))
        #expect(try b.get("/api/stats", as: alice).visitedTotal == 0)
        let added = try a.write("POST", "/api/visits", json: #"{"key":"jr-east/c/小田原","date":"2019-08-13","kind":"alight"}"#, as: alice)
        #expect(added.status == 201)
        // B answers with A's write at once, to A's session.
        #expect(try b.get("/api/stats", as: alice).visitedTotal == 1)
        let listed = try b.write("POST", "/api/sync", json: SyncAPITests.batch([]), as: alice)
        #expect(listed.status == 200 && (listed.object["changes"] as? [[String: Any]])?.map { $0["key"] as? String } == ["jr-east/c/小田原"])
        // A write through B with A's session and CSRF token; A sees it.
        #expect(try b.write("POST", "/api/visits", json: #"{"key":"odakyu/c/小田原"}"#, as: alice).status == 201)
        #expect(try a.get("/api/stats", as: alice).visitedTotal == 2)
        // Bob, logged in on B, sees none of hers.
        let bob = try #require(try b.login("bob", "bob-password"))
        #expect(try a.get("/api/stats", as: bob).visitedTotal == 0)
        // Logging out on B ends the session on A too.
        #expect(try b.write("POST", "/api/logout", json: "{}", as: alice).status == 200)
        #expect(try a.get("/api/stats", as: alice).status == 401)
    }

    @Test func concurrentSyncsThroughBothConverge() throws {
        let (a, b) = try servers()
        let phone = try #require(try a.login("alice", "alice-password"))
        let laptop = try #require(try b.login("alice", "alice-password"))
        struct Device { var server: TestServer; var session: LoggedIn; var cursor: String?; var seen: Set<String> = [] }
        var devices = [Device(server: a, session: phone, cursor: nil), Device(server: b, session: laptop, cursor: nil)]
        var cursors: [String] = []
        let lock = NSLock()
        for round in 0..<4 {
            // Both devices sync at the same moment, each with five visits of its own.
            nonisolated(unsafe) var results: [RawResponse?] = [nil, nil]
            nonisolated(unsafe) var sent: [[String]] = [[], []]
            let snapshot = devices
            DispatchQueue.concurrentPerform(iterations: 2) { d in
                let changes = (0..<5).map { i -> (String, String) in
                    let uid = UUID().uuidString.lowercased()
                    return (uid, SyncAPITests.change("jr-east/c/小田原", String(format: "2019-%02d-%02d", round + 1, d * 10 + i + 1), id: uid))
                }
                let r = try? snapshot[d].server.write("POST", "/api/sync", json: SyncAPITests.batch(changes.map(\.1), since: snapshot[d].cursor),
                                                      as: snapshot[d].session)
                lock.withLock { results[d] = r; sent[d] = changes.map(\.0) }
            }
            for d in 0..<2 {
                let r = try #require(results[d])
                #expect(r.status == 200 && r.object["applied"] as? Int == 5)
                devices[d].cursor = try #require(r.object["cursor"] as? String)
                cursors.append(devices[d].cursor!)
                devices[d].seen.formUnion(sent[d])
                devices[d].seen.formUnion((r.object["changes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
            }
        }
        // One more sync each, with nothing to send, brings in what the other sent last.
        for d in 0..<2 {
            let r = try devices[d].server.write("POST", "/api/sync", json: SyncAPITests.batch([], since: devices[d].cursor), as: devices[d].session)
            devices[d].seen.formUnion((r.object["changes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        }
        #expect(devices[0].seen.count == 40)
        #expect(devices[0].seen == devices[1].seen)
        // No two syncs were handed the same cursor.
        #expect(Set(cursors).count == cursors.count)
        let store = try AccountStore(path: a.accountsPath, create: false)
        #expect(try store.visits(of: try store.requireUser(named: "alice").id).count() == 40)
    }
}
