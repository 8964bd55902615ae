import EkiKit
import EkiSQLite
import EkiTestSupport
import Foundation
import Testing

/// The sync merge of `VisitLog` (VisitSync.swift): the rules, idempotence, and convergence of
/// several devices syncing with one server in any order.
@Suite struct VisitSyncTests {
    let dir = TestPaths.temporaryDirectory()

    func log(_ name: String) throws -> VisitLog { try VisitLog(path: dir.appendingPathComponent(name).path) }

    func at(_ s: String) -> VisitTimestamp { VisitTimestamp(rfc3339: s)! }

    func change(_ uid: String, _ key: String, _ date: String, _ kind: VisitKind? = nil, note: String? = nil,
                at time: String, deleted: Bool = false) throws -> VisitChange {
        VisitChange(uid: uid, stationKey: key, date: try VisitDate(parsing: date), kind: kind, note: note,
                    updatedAt: at(time), deleted: deleted)
    }

    static let u1 = "11111111-1111-4111-8111-111111111111"
    static let u2 = "22222222-2222-4222-8222-222222222222"

    @Test func timestampsReadAndWriteRFC3339() throws {
        #expect(at("2026-12-02T18:30:00.123Z").text == "2026-12-02T18:30:00.123Z")
        #expect(at("2026-12-02T18:30:00.123Z").milliseconds == 1_796_236_200_123)
        #expect(at("2026-12-03T03:30:00+09:00") == at("2026-12-02T18:30:00Z"))
        #expect(at("1970-01-01T00:00:00.5Z").milliseconds == 500)
        #expect(at("2024-02-29T23:59:59.999999Z").text == "2024-02-29T23:59:59.999Z")
        for bad in ["2026-02-30T00:00:00Z", "2026-12-02T24:00:00Z", "2026-12-02 18:30", "2026-12-02T18:30:00", "yesterday",
                    "2026-12-02T18:30:00.Z", "2026-12-02T18:30:00Zjunk"] {
            #expect(VisitTimestamp(rfc3339: bad) == nil, "\(bad)")
        }
    }

    @Test func addAndRemoveStampUIDsAndKeepTombstones() throws {
        let log = try log("a.sqlite")
        let v = try log.add(Visit(stationKey: "jr-central/s/小田原", date: try VisitDate(parsing: "2019-08-13")))
        #expect(UUID(uuidString: v.uid) != nil && v.uid == v.uid.lowercased())
        #expect(v.updatedAt > VisitTimestamp(milliseconds: 1_700_000_000_000))
        #expect(try log.visit(uid: v.uid) == v)
        try log.remove(ids: [v.id])
        #expect(try log.count() == 0 && log.tombstoneCount() == 1)
        let dead = try #require(try log.current(uid: v.uid))
        #expect(dead.deleted && dead.stationKey == "jr-central/s/小田原" && dead.updatedAt > v.updatedAt)
        #expect(try log.changes(since: 0).map(\.deleted) == [true])
        #expect(try log.changes(since: nil).isEmpty)
    }

    @Test func lastEditWinsAndTiesAreFixed() throws {
        let server = try log("s.sqlite")
        _ = try server.sync([try change(Self.u1, "k", "2019", note: "phone", at: "2026-01-01T10:00:00Z")], since: nil)
        // An older edit from the laptop loses and gets the phone's version back.
        let r = try server.sync([try change(Self.u1, "k", "2019", note: "laptop", at: "2026-01-01T09:00:00Z")], since: nil)
        #expect(r.applied == 0)
        #expect(r.outgoing.map(\.note) == ["phone"])
        // A newer one wins.
        let newer = try server.sync([try change(Self.u1, "k", "2019", note: "later", at: "2026-01-01T11:00:00Z")], since: nil)
        #expect(newer.applied == 1 && newer.outgoing.isEmpty)
        #expect(try server.visit(uid: Self.u1)?.note == "later")
        // At the same time the greater text wins, whichever arrives first.
        let a = try change(Self.u2, "k2", "2019", note: "a", at: "2026-01-01T12:00:00Z")
        let b = try change(Self.u2, "k2", "2019", note: "b", at: "2026-01-01T12:00:00Z")
        #expect(b.wins(over: a) && !a.wins(over: b))
        let other = try log("o.sqlite")
        _ = try server.sync([a], since: nil); _ = try server.sync([b], since: nil)
        _ = try other.sync([b], since: nil); _ = try other.sync([a], since: nil)
        #expect(try server.visit(uid: Self.u2)?.note == "b" && other.visit(uid: Self.u2)?.note == "b")
    }

    @Test func deletionWinsOverOlderEditAndLosesToNewer() throws {
        let server = try log("s.sqlite")
        _ = try server.sync([try change(Self.u1, "k", "2019", at: "2026-01-01T10:00:00Z")], since: nil)
        _ = try server.sync([try change(Self.u1, "k", "2019", at: "2026-01-01T11:00:00Z", deleted: true)], since: nil)
        #expect(try server.count() == 0)
        // An edit made before the deletion, arriving after it, does not bring the visit back.
        let late = try server.sync([try change(Self.u1, "k", "2019", note: "old", at: "2026-01-01T10:30:00Z")], since: nil)
        #expect(late.applied == 0 && late.outgoing.map(\.deleted) == [true])
        #expect(try server.count() == 0)
        // At the same time the deletion wins.
        let tie = try change(Self.u1, "k", "2019", note: "tie", at: "2026-01-01T11:00:00Z")
        #expect(try server.sync([tie], since: nil).applied == 0)
        // An edit after it does (the visit was recorded again).
        #expect(try server.sync([try change(Self.u1, "k", "2019", at: "2026-01-01T12:00:00Z")], since: nil).applied == 1)
        #expect(try server.count() == 1 && server.tombstoneCount() == 0)
    }

    @Test func sameStationDateAndKindOnTwoDevicesIsOneVisit() throws {
        let server = try log("s.sqlite")
        let phone = try change(Self.u2, "jr-central/s/小田原", "2019-08-13", .alight, note: "phone", at: "2026-01-01T10:00:00Z")
        let laptop = try change(Self.u1, "jr-central/s/小田原", "2019-08-13", .alight, note: "laptop", at: "2026-01-01T09:00:00Z")
        _ = try server.sync([phone], since: nil)
        let r = try server.sync([laptop], since: nil)
        // The smaller uid stays, with the later note; the other uid is a tombstone.
        let visits = try server.visits()
        #expect(visits.count == 1)
        #expect(visits[0].uid == Self.u1 && visits[0].note == "phone" && visits[0].updatedAt == at("2026-01-01T10:00:00Z"))
        #expect(try server.current(uid: Self.u2)?.deleted == true)
        // The laptop did not know the phone's uid: it gets the one visit, not the tombstone.
        #expect(r.outgoing.map(\.uid) == [Self.u1])
        // The phone, applying the server's answer, ends the same.
        let device = try log("phone.sqlite")
        _ = try device.sync([phone], since: nil)
        _ = try device.sync(try server.changes(since: 0), since: nil)
        #expect(try device.visits().map(\.uid) == [Self.u1] && device.visits().map(\.note) == ["phone"])
    }

    @Test func aBatchSentTwiceChangesNothing() throws {
        let server = try log("s.sqlite")
        let batch = try (0..<20).map { i in
            try change(UUID().uuidString.lowercased(), "k\(i % 7)", "2019-0\(1 + i % 9)", i % 2 == 0 ? .board : nil,
                       at: "2026-01-01T10:00:\(String(format: "%02d", i))Z", deleted: i % 5 == 4)
        }
        let first = try server.sync(batch, since: nil)
        let seq = try server.lastSequence()
        let second = try server.sync(batch, since: first.cursor)
        #expect(first.applied == 20)
        #expect(second.applied == 0 && second.outgoing.isEmpty && second.cursor == first.cursor)
        #expect(try server.lastSequence() == seq)
        #expect(try server.count() == 16 && server.tombstoneCount() == 4)
    }

    /// Three devices make random visits, edits and removals, and sync with one server in a
    /// random order; at the end, after each syncs once more, every device holds the server's
    /// visits exactly, and every visit that was live at its last change on its device and not
    /// removed since is there exactly once.
    @Test(arguments: [1, 2, 3, 4]) func devicesConverge(seed: UInt64) throws {
        var rng = SplitMix64(state: seed)
        let server = try log("server-\(seed).sqlite")
        let devices = try (0..<3).map { try log("device-\(seed)-\($0).sqlite") }
        var cursors: [Int64?] = [nil, nil, nil], sent: [Int64] = [0, 0, 0]
        var clock = at("2026-01-01T00:00:00Z").milliseconds
        func sync(_ d: Int) throws {
            let local = try devices[d].changes(since: sent[d])
            let high = try devices[d].lastSequence()
            let r = try server.sync(local, since: cursors[d])
            try devices[d].receive(r.outgoing, from: "s", cursor: r.cursor, sentThrough: high)
            cursors[d] = r.cursor
            sent[d] = try devices[d].syncPeer("s").sentSequence
        }
        for _ in 0..<300 {
            let d = Int.random(in: 0..<3, using: &rng)
            clock += Int64.random(in: 0...2000, using: &rng)
            let log = devices[d]
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let key = "k\(Int.random(in: 0..<12, using: &rng))"
                let v = Visit(stationKey: key, date: try VisitDate(parsing: "2019-0\(Int.random(in: 1...3, using: &rng))"),
                              updatedAt: VisitTimestamp(milliseconds: clock))
                _ = try? log.add(v)
            case 5..<7:
                if let v = try log.visits().randomElement(using: &rng) { try log.remove(ids: [v.id]) }
            default:
                try sync(d)
            }
        }
        for d in 0..<3 { try sync(d) }
        for d in 0..<3 { try sync(d) }
        func state(_ l: VisitLog) throws -> [String] {
            try l.visits().map { "\($0.uid) \($0.identity) \($0.note ?? "")" }.sorted()
        }
        let truth = try state(server)
        for d in devices {
            let mine = try state(d)
            let diff = Set(mine).symmetricDifference(truth).sorted()
            let info = try diff.map { line -> String in
                let uid = String(line.prefix(36))
                return "\(line): device \(String(describing: try d.current(uid: uid))) server \(String(describing: try server.current(uid: uid)))"
            }
            #expect(mine == truth, "\(info)")
        }
        #expect(Set(try server.visits().map(\.identity)).count == (try server.count()))
    }

    @Test func ownersInOneFileAreApart() throws {
        let db = try Database(path: dir.appendingPathComponent("accounts.sqlite").path)
        try VisitLog.installSchema(in: db)
        let a = VisitLog(database: db, owner: 1, path: "accounts.sqlite")
        let b = VisitLog(database: db, owner: 2, path: "accounts.sqlite")
        let va = try a.add(Visit(stationKey: "k", date: try VisitDate(parsing: "2019")))
        #expect(try b.count() == 0 && b.visit(id: va.id) == nil && b.visit(uid: va.uid) == nil)
        #expect(throws: VisitLogError.self) { try b.remove(ids: [va.id]) }
        try b.add(Visit(stationKey: "k", date: try VisitDate(parsing: "2019")))
        try b.setCounting(VisitCounting(transferCounts: false))
        #expect(try a.counting().transferCounts && !b.counting().transferCounts)
        #expect(try a.changes(since: 0).count == 1 && b.changes(since: 0).count == 1)
        // The same uid under two owners is two visits.
        let c = try change(va.uid, "other", "2020", at: "2026-01-01T00:00:00Z")
        _ = try b.sync([c], since: nil)
        #expect(try a.visit(uid: va.uid)?.stationKey == "k" && b.visit(uid: va.uid)?.stationKey == "other")
    }
}
