import EkiSQLite
import Foundation

/// One visit as sync exchanges it: its state now, or its removal (`deleted`), identified by the
/// uid made where it was first recorded.
public struct VisitChange: Hashable, Sendable {
    public var uid: String
    public var stationKey: String
    public var date: VisitDate
    public var kind: VisitKind?
    public var note: String?
    public var updatedAt: VisitTimestamp
    public var deleted: Bool

    public init(uid: String, stationKey: String, date: VisitDate = .unknown, kind: VisitKind? = nil, note: String? = nil,
                updatedAt: VisitTimestamp, deleted: Bool = false) {
        self.uid = uid
        self.stationKey = stationKey
        self.date = date
        self.kind = kind
        self.note = note.flatMap { $0.isEmpty ? nil : $0 }
        self.updatedAt = updatedAt
        self.deleted = deleted
    }

    /// The live state of `visit`.
    public init(_ v: Visit) {
        self.init(uid: v.uid, stationKey: v.stationKey, date: v.date, kind: v.kind, note: v.note, updatedAt: v.updatedAt)
    }

    /// Same station key, date and kind: the same visit (`Visit.identity`).
    var identity: String { "\(stationKey)\u{1F}\(date.text ?? "")\u{1F}\(kind?.rawValue ?? "")" }

    /// The fields that make two versions of one uid differ, as one text.
    var canonical: String { "\(identity)\u{1F}\(note ?? "")" }

    /// The merge rule between two versions of one visit: the later `updatedAt` wins; at the same
    /// time a removal wins over a live version, and between two of a kind the greater canonical
    /// text wins (any fixed order would do: every device applies the same one).
    public func wins(over other: VisitChange) -> Bool {
        if updatedAt != other.updatedAt { return updatedAt > other.updatedAt }
        if deleted != other.deleted { return deleted }
        return canonical > other.canonical
    }

    var visit: Visit { Visit(stationKey: stationKey, date: date, kind: kind, note: note, uid: uid, updatedAt: updatedAt) }
}

/// What `VisitLog.sync` did: the change number to ask from next time and the log's changes the
/// other side lacks.
public struct VisitSyncResult: Sendable {
    /// The change number reached (`VisitLog.lastSequence()` after the merge), the next `since`.
    public var cursor: Int64
    /// The log's versions the other side has not got: changed after `since`, or sent by it and
    /// beaten here; never one equal to what it sent. In change order.
    public var outgoing: [VisitChange]
    /// Incoming changes that changed the log.
    public var applied: Int
}

/// Sync: merging another device's changes into the log, and the log's changes since a cursor.
///
/// The merge rule, the same on every side, so that every log that has seen the same changes
/// holds the same visits whatever the order they arrived in:
/// 1. Two versions of one uid: the one that `wins(over:)` is kept (last `updatedAt`; at the same
///    time a removal; then a fixed order). A removal is kept as a tombstone, so an older edit
///    arriving later cannot bring the visit back.
/// 2. Two live visits with the same station key, date and kind but different uids (recorded on
///    two devices while apart) are one visit: the smaller uid stays, with the note of the later
///    of the two and the later `updatedAt`; the other uid becomes a tombstone at that time.
/// 3. A change equal to what the log holds changes nothing (a batch sent twice is a no-op).
extension VisitLog {
    /// Merges `incoming` and returns the log's changes since `since` (nil: every live visit),
    /// all in one write transaction: it commits whole or not at all.
    /// - Throws: `SQLiteError` (nothing is written).
    public func sync(_ incoming: [VisitChange], since: Int64?) throws -> VisitSyncResult {
        try write {
            var applied = 0
            for c in incoming where try apply(c) { applied += 1 }
            let sent = Dictionary(incoming.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
            var out = try changes(since: since)
            var listed = Set(out.map(\.uid))
            for c in incoming where !listed.contains(c.uid) {
                if let now = try current(uid: c.uid) { out.append(now); listed.insert(c.uid) }
            }
            out.removeAll { sent[$0.uid] == $0 }
            return VisitSyncResult(cursor: try lastSequence(), outgoing: out, applied: applied)
        }
    }

    /// The log's changes after change number `since`, in change order (live visits and
    /// tombstones); nil: every live visit, no tombstones (a device starting afresh).
    public func changes(since: Int64?) throws -> [VisitChange] { try changes(since: since, limit: Int.max).changes }

    /// At most `limit` of the changes after `since`, in change order, and the change number of
    /// the last one given (`since`, or 0, when none).
    public func changes(since: Int64?, limit: Int) throws -> (changes: [VisitChange], through: Int64) {
        let s = try db.cached("""
            SELECT 0, \(Self.columns), seq FROM visits WHERE owner = ?1 AND seq > ?2
            UNION ALL
            SELECT 1, \(Self.tombstoneColumns), seq FROM visit_tombstones
              WHERE owner = ?1 AND seq > ?2 AND ?3 = 1
            ORDER BY 9 LIMIT ?4
            """)
        defer { s.reset() }
        try s.bind([.int(owner), .int(since ?? -1), .int(since == nil ? 0 : 1), .int(Int64(min(limit, Int(Int64.max))))])
        var out: [VisitChange] = []
        var through = since ?? 0
        while try s.step() {
            var c = VisitChange(Self.visit(from: s, at: 1))
            c.deleted = s.int64(0) == 1
            out.append(c)
            through = s.int64(8)
        }
        return (out, through)
    }

    /// The version of `uid` the log holds: live, a tombstone, or nil.
    public func current(uid: String) throws -> VisitChange? {
        if let v = try visit(uid: uid) { return VisitChange(v) }
        return try tombstone(uid: uid)
    }

    /// Applies one change under the merge rule, inside the caller's transaction.
    /// - Returns: whether the log changed.
    func apply(_ c: VisitChange) throws -> Bool {
        if let held = try current(uid: c.uid), !c.wins(over: held) { return false }
        if c.deleted {
            try bury(c)
            return true
        }
        try db.cached("DELETE FROM visit_tombstones WHERE owner = ? AND uid = ?").run([.int(owner), .text(c.uid)])
        let same = try visit(matching: c.visit)
        guard let other = same, other.uid != c.uid else {
            try writeLive(c)
            return true
        }
        // Rule 2: one visit recorded twice. The smaller uid stays; the later version's note.
        let theirs = VisitChange(other)
        let later = c.wins(over: theirs) ? c : theirs
        let at = max(c.updatedAt, theirs.updatedAt)
        let (keep, drop) = c.uid < other.uid ? (c, theirs) : (theirs, c)
        var kept = later
        kept.uid = keep.uid
        kept.updatedAt = at
        var dropped = drop
        dropped.deleted = true
        dropped.updatedAt = at
        // The dropped row's photos stay with the visit: moved to the kept row once it is written.
        let photos = try detachPhotos(ofUID: dropped.uid)
        try bury(dropped)
        if try current(uid: keep.uid) != kept { try writeLive(kept) }
        if !photos.isEmpty, let row = try visit(uid: keep.uid) { try attachPhotos(photos, to: row.id) }
        return true
    }

    /// Writes the live version `c` (a new row, or the row of its uid updated), next change number.
    func writeLive(_ c: VisitChange) throws {
        if let v = try visit(uid: c.uid) {
            try db.cached("UPDATE visits SET station_key = ?, date = ?, kind = ?, note = ?, updated_at = ?, seq = ? WHERE id = ?").run([
                .text(c.stationKey), c.date.text.map(SQLValue.text) ?? .null, c.kind.map { .text($0.rawValue) } ?? .null,
                c.note.map(SQLValue.text) ?? .null, .int(c.updatedAt.milliseconds), .int(try nextSequence()), .int(v.id),
            ])
        } else {
            _ = try insert(c.visit, keepingID: false)
        }
    }

    /// Removes the live visit of `dead.uid`, if any, and keeps the removal `dead` as its
    /// tombstone, inside the caller's transaction.
    func bury(_ dead: VisitChange) throws {
        try db.cached("DELETE FROM visits WHERE owner = ? AND uid = ?").run([.int(owner), .text(dead.uid)])
        try writeTombstone(dead)
    }

    func writeTombstone(_ c: VisitChange) throws {
        try db.cached("""
            INSERT INTO visit_tombstones (owner, uid, station_key, date, kind, note, updated_at, seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (owner, uid) DO UPDATE SET station_key = excluded.station_key, date = excluded.date, kind = excluded.kind,
              note = excluded.note, updated_at = excluded.updated_at, seq = excluded.seq
            """).run([
            .int(owner), .text(c.uid), .text(c.stationKey), c.date.text.map(SQLValue.text) ?? .null,
            c.kind.map { .text($0.rawValue) } ?? .null, c.note.map(SQLValue.text) ?? .null,
            .int(c.updatedAt.milliseconds), .int(try nextSequence()),
        ])
    }

    /// A tombstone's columns in the order of `VisitLog.columns` (its id 0).
    static let tombstoneColumns = "0, station_key, date, kind, note, uid, updated_at"

    /// The tombstone of `uid`, or nil.
    func tombstone(uid: String) throws -> VisitChange? {
        let s = try db.cached("SELECT \(Self.tombstoneColumns) FROM visit_tombstones WHERE owner = ? AND uid = ?")
        defer { s.reset() }
        try s.bind([.int(owner), .text(uid)])
        guard try s.step() else { return nil }
        var dead = VisitChange(Self.visit(from: s))
        dead.deleted = true
        return dead
    }

    /// A number that grows whenever this owner's visits change (added, edited, removed): the
    /// largest change number of their visits and tombstones; other owners' changes leave it as
    /// it is. For caches of what the visits resolve to.
    public func changeMark() throws -> Int64 {
        let s = try db.cached("""
            SELECT (SELECT max(seq) FROM visits WHERE owner = ?1), (SELECT max(seq) FROM visit_tombstones WHERE owner = ?1)
            """)
        defer { s.reset() }
        try s.bind([.int(owner)])
        guard try s.step() else { return 0 }
        return max(s.isNull(0) ? 0 : s.int64(0), s.isNull(1) ? 0 : s.int64(1))
    }

    /// Removes every visit, tombstone, setting and sync record of this owner, inside the
    /// caller's transaction (an account removed).
    /// - Returns: how many visits there were.
    package func eraseOwner() throws -> Int {
        let n = try count()
        for table in ["visits", "visit_tombstones", "settings", "sync_peers"] {
            try db.prepare("DELETE FROM \(table) WHERE owner = ?").run([.int(owner)])
        }
        return n
    }

    /// Number of tombstones (removed visits remembered for sync).
    public func tombstoneCount() throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM visit_tombstones WHERE owner = ?", [.int(owner)]) ?? 0)
    }
}

/// What a log has exchanged with one server (`eki visit sync URL`): the server's cursor, and
/// the log's own change number up to which everything has been sent.
public struct VisitSyncPeer: Sendable, Equatable {
    public var cursor: Int64?
    public var sentSequence: Int64
}

extension VisitLog {
    /// The state of sync with the server at `url` (nil cursor and 0 sent when never synced).
    public func syncPeer(_ url: String) throws -> VisitSyncPeer {
        let s = try db.cached("SELECT cursor, sent_seq FROM sync_peers WHERE owner = ? AND url = ?")
        defer { s.reset() }
        try s.bind([.int(owner), .text(url)])
        guard try s.step() else { return VisitSyncPeer(cursor: nil, sentSequence: 0) }
        return VisitSyncPeer(cursor: s.optionalText(0).flatMap { Int64($0) }, sentSequence: s.int64(1))
    }

    /// Applies the server's `changes` (the answer to the changes this log had up to change
    /// number `sentThrough`) and notes the server's new `cursor`, in one transaction. What the
    /// server sent is not sent back next time, unless the log changed meanwhile.
    /// - Returns: the number of changes that changed the log.
    /// - Throws: `SQLiteError` (nothing is written).
    @discardableResult
    public func receive(_ changes: [VisitChange], from url: String, cursor: Int64, sentThrough: Int64) throws -> Int {
        try write {
            let before = try lastSequence()
            var applied = 0
            for c in changes where try apply(c) { applied += 1 }
            // Marked sent only when the log now holds exactly what the server sent: a merge
            // here that made something else (rule 2 against a visit of this log) is sent back.
            let received = Set(changes)
            let same = try self.changes(since: before).allSatisfy { received.contains($0) }
            let sent = before == sentThrough && same ? try lastSequence() : sentThrough
            try db.cached("""
                INSERT INTO sync_peers (owner, url, cursor, sent_seq) VALUES (?, ?, ?, ?)
                ON CONFLICT (owner, url) DO UPDATE SET cursor = excluded.cursor, sent_seq = excluded.sent_seq
                """)
                .run([.int(owner), .text(url), .text(String(cursor)), .int(sent)])
            return applied
        }
    }
}
