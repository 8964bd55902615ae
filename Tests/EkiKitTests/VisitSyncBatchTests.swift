import EkiKit
import EkiSQLite
import EkiTestSupport
import Foundation
import Testing

/// Reading a sync batch (`VisitSyncBatch(json:)`) and upgrading a version-1 visit log.
@Suite struct VisitSyncBatchTests {
    let now = VisitTimestamp(rfc3339: "2026-12-02T18:00:00Z")!
    let id = "3f2b8c1e-9d4a-4e6b-8f0a-1c2d3e4f5a6b"

    func batch(_ changes: String, since: String = "null") throws(VisitSyncError) -> VisitSyncBatch {
        try VisitSyncBatch(json: Array("{\"since\":\(since),\"changes\":[\(changes)]}".utf8), now: now)
    }

    func item(id: String? = nil, key: String = "\"jr-central/s/小田原\"", date: String = "\"2019-08-13\"", kind: String = "\"alight\"",
              at: String = "\"2026-12-02T17:59:00.000Z\"", deleted: String = "false", extra: String = "") -> String {
        "{\"id\":\"\(id ?? self.id)\",\"key\":\(key),\"date\":\(date),\"kind\":\(kind),\"note\":null,\"updated_at\":\(at),\"deleted\":\(deleted)\(extra)}"
    }

    @Test func readsAndWritesTheWireForm() throws {
        let b = try batch(item(), since: "\"42\"")
        #expect(b.since == 42)
        #expect(b.changes == [VisitChange(uid: id, stationKey: "jr-central/s/小田原", date: try VisitDate(parsing: "2019-08-13"),
                                          kind: .alight, updatedAt: VisitTimestamp(rfc3339: "2026-12-02T17:59:00Z")!)])
        #expect(String(decoding: b.json, as: UTF8.self) == "{\"since\":\"42\",\"changes\":[" + item() + "]}")
        #expect(try VisitSyncBatch(json: b.json, now: now) == b)
        // Upper-case ids are the same UUID.
        #expect(try batch(item(id: id.uppercased())).changes[0].uid == id)
    }

    @Test func badBatchesNameTheChangeAndField() throws {
        func refused(_ text: String, since: String = "null") -> VisitSyncError? {
            do { _ = try batch(text, since: since); return nil } catch { return error }
        }
        func field(_ e: VisitSyncError?) -> String? { if case .malformed(_, let f, _)? = e { return f } else { return nil } }
        #expect(field(refused(item(id: "not-a-uuid"))) == "id")
        #expect(field(refused(item(date: "\"2019-02-30\""))) == "date")
        #expect(field(refused(item(date: "\"2019/08/13\""))) == "date")
        #expect(field(refused(item(kind: "\"walked\""))) == "kind")
        #expect(field(refused(item(key: "\"\""))) == "key")
        #expect(field(refused(item(at: "\"2026-12-02T19:00:00Z\""))) == "updated_at")   // an hour ahead
        #expect(field(refused(item(at: "\"yesterday\""))) == "updated_at")
        #expect(field(refused(item(deleted: "1"))) == "deleted")
        #expect(field(refused(item(extra: ",\"owner\":2"))) == "owner")
        #expect(field(refused(item(), since: "\"-1\"")) == "since")
        if case .malformed(let index, _, let message)? = refused(item() + "," + item(id: "9f2b8c1e-9d4a-4e6b-8f0a-1c2d3e4f5a6b", date: "\"2019-13\"")) {
            #expect(index == 1 && message == "change 1: date '2019-13' is not a day, month or year that exists (YYYY[-MM[-DD]])")
        } else { Issue.record("a bad second change is refused") }
        #expect(refused(item() + "," + item()) == .duplicateID(id, first: 0, again: 1))
        let many = (0...VisitSyncBatch.maxChanges).map { _ in item(id: UUID().uuidString) }.joined(separator: ",")
        #expect(refused(many) == .tooMany(5001, limit: 5000))
    }

    @Test func aVersionOneLogIsUpgradedKeepingEveryVisit() throws {
        let dir = TestPaths.temporaryDirectory()
        let path = dir.appendingPathComponent("v1.sqlite").path
        do {
            let db = try Database(path: path)
            try db.execute("""
                PRAGMA application_id = \(0x454B_4956); PRAGMA user_version = 1;
                CREATE TABLE visits (id INTEGER PRIMARY KEY AUTOINCREMENT, station_key TEXT NOT NULL, date TEXT, kind TEXT, note TEXT);
                CREATE UNIQUE INDEX visits_identity ON visits (station_key, ifnull(date, ''), ifnull(kind, ''));
                CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                INSERT INTO visits (station_key, date, kind, note) VALUES ('jr-central/s/小田原', '2019-08-13', 'alight', 'こだま'),
                  ('jr-east/c/小田原', NULL, NULL, NULL), ('x/c/gone', '2019', NULL, NULL);
                DELETE FROM visits WHERE id = 3;
                INSERT INTO settings VALUES ('transfer_counts', '0');
                """)
        }
        let log = try VisitLog(path: path)
        let visits = try log.visits()
        #expect(visits.map(\.id) == [2, 1])
        #expect(visits.map(\.note) == [nil, "こだま"])
        #expect(Set(visits.map(\.uid)).count == 2 && visits.allSatisfy { UUID(uuidString: $0.uid) != nil })
        #expect(try !log.counting().transferCounts)
        #expect(try log.lastSequence() == 2)
        // The id of the removed visit is still not reused.
        #expect(try log.add(Visit(stationKey: "x/c/new")).id == 4)
        #expect(try Database(path: path, readOnly: true).scalarInt("PRAGMA user_version") == 3)
        // Opening again changes nothing.
        #expect(try VisitLog(path: path).visits().map(\.uid) == (try log.visits().map(\.uid)))
    }
}
