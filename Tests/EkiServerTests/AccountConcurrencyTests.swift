import EkiAccounts
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// Two people recording at once on one server: every visit lands in its owner's log, none is
/// lost, none crosses over.
@Suite struct AccountConcurrencyTests {
    @Test func twoPeopleRecordingAtOnceLoseNothing() throws {
        let s = try TestServer.withAccounts()
        let alice = try #require(try s.login("alice", "alice-password"))
        let bob = try #require(try s.login("bob", "bob-password"))
        let keys = try s.get("/api/bbox?bbox=139.10,35.22,139.20,35.30", as: alice).keys
        #expect(keys.count == 21)
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var statuses: [Int] = []
            func add(_ s: Int) { lock.withLock { statuses.append(s) } }
        }
        let results = Results()
        // Alice records all 21, Bob the first 10, interleaved, while both read their stats.
        let jobs: [(LoggedIn, String?)] = keys.map { (alice, $0) } + keys.prefix(10).map { (bob, $0) }
            + (0..<20).map { i in (i % 2 == 0 ? alice : bob, nil) }
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let (who, key) = jobs[i]
            if let key {
                let body = #"{"key":"\#(key)","date":"2024-05-0\#(1 + i % 9)"}"#
                results.add((try? s.write("POST", "/api/visits", json: body, as: who).status) ?? -1)
            } else {
                results.add((try? s.get("/api/stats", as: who).status) ?? -1)
            }
        }
        #expect(results.statuses.filter { $0 == 201 }.count == 31 && results.statuses.filter { $0 == 200 }.count == 20,
                "\(results.statuses.sorted())")
        #expect(try s.get("/api/stats", as: alice).visitedTotal == 21)
        #expect(try s.get("/api/stats", as: bob).visitedTotal == 10)
        let bobs = try s.get("/api/bbox?bbox=139.10,35.22,139.20,35.30&filter=visited", as: bob).keys
        #expect(Set(bobs) == Set(keys.prefix(10)))
        // The file agrees: 21 rows of Alice's, 10 of Bob's.
        let store = try AccountStore(path: s.accountsPath, create: false)
        #expect(try store.visits(of: try store.requireUser(named: "alice").id).count() == 21)
        #expect(try store.visits(of: try store.requireUser(named: "bob").id).count() == 10)
    }
}
