import Foundation

/// A sync request as `POST /api/sync` takes it and `eki visit sync` sends it:
/// `{"since": CURSOR|null, "changes": [CHANGE…]}`, CHANGE =
/// `{"id": UUID, "key": KEY, "date": "YYYY[-MM[-DD]]"|null, "kind": "board|alight|transfer|pass"|null,
/// "note": TEXT|null, "updated_at": RFC 3339, "deleted": bool}`. CURSOR is a change number as
/// decimal text.
public struct VisitSyncBatch: Sendable, Equatable {
    public var since: Int64?
    public var changes: [VisitChange]

    /// At most this many changes in one batch.
    public static let maxChanges = 5_000
    /// An `updated_at` more than this far ahead of the receiver's clock is refused (ms).
    public static let maxClockSkew: Int64 = 10 * 60 * 1000

    public init(since: Int64?, changes: [VisitChange]) {
        self.since = since
        self.changes = changes
    }

    /// Parses and checks a batch: every field of every change, no id twice, no `updated_at`
    /// more than `maxClockSkew` after `now`, at most `maxChanges`.
    /// - Throws: `VisitSyncError` naming the first bad change (its index) and field, or for
    ///   text that is not JSON, the line and column (`.notJSON`).
    public init(json: [UInt8], now: VisitTimestamp = .now()) throws(VisitSyncError) {
        let object: Any
        do { object = try JSONParse.value(json) } catch { throw .notJSON(error) }
        guard let top = object as? [String: Any] else {
            throw .malformed(index: nil, field: nil, "the body is not a JSON object")
        }
        if let unknown = top.keys.sorted().first(where: { !["since", "changes"].contains($0) }) {
            throw .malformed(index: nil, field: unknown, "unknown field '\(unknown)' (since, changes)")
        }
        switch top["since"] {
        case nil, is NSNull: since = nil
        case let s as String:
            guard let n = Int64(s), n >= 0 else { throw .malformed(index: nil, field: "since", "since is not a cursor this server gave: '\(s)'") }
            since = n
        default: throw .malformed(index: nil, field: "since", "since must be a cursor text or null")
        }
        guard let list = top["changes"] as? [Any] else { throw .malformed(index: nil, field: "changes", "changes must be an array") }
        guard list.count <= Self.maxChanges else { throw .tooMany(list.count, limit: Self.maxChanges) }
        var seen: [String: Int] = [:]
        changes = []
        changes.reserveCapacity(list.count)
        for (i, item) in list.enumerated() {
            let c = try Self.change(item, index: i, now: now)
            if let first = seen[c.uid] { throw .duplicateID(c.uid, first: first, again: i) }
            seen[c.uid] = i
            changes.append(c)
        }
    }

    static let fields = ["id", "key", "date", "kind", "note", "updated_at", "deleted"]

    static func change(_ item: Any, index i: Int, now: VisitTimestamp) throws(VisitSyncError) -> VisitChange {
        guard let f = item as? [String: Any] else { throw .malformed(index: i, field: nil, "change \(i) is not an object") }
        if let unknown = f.keys.sorted().first(where: { !fields.contains($0) }) {
            throw .malformed(index: i, field: unknown, "change \(i): unknown field '\(unknown)' (\(fields.joined(separator: ", ")))")
        }
        func text(_ name: String, required: Bool) throws(VisitSyncError) -> String? {
            switch f[name] {
            case nil, is NSNull:
                if required { throw .malformed(index: i, field: name, "change \(i): \(name) is missing") }
                return nil
            case let s as String: return s
            default: throw .malformed(index: i, field: name, "change \(i): \(name) must be a string")
            }
        }
        guard let uid = try text("id", required: true), let parsed = UUID(uuidString: uid) else {
            throw .malformed(index: i, field: "id", "change \(i): id is not a UUID")
        }
        guard let key = try text("key", required: true), !key.isEmpty, key.utf8.count <= 512 else {
            throw .malformed(index: i, field: "key", "change \(i): key must be a station key (1–512 bytes)")
        }
        let date: VisitDate
        switch try text("date", required: false) {
        case nil: date = .unknown
        case let d?:
            // The wire form only: YYYY, YYYY-MM or YYYY-MM-DD, a day that exists.
            guard d.utf8.count == 4 || d.utf8.count == 7 || d.utf8.count == 10, d.allSatisfy({ $0.isASCII }),
                  let v = try? VisitDate(parsing: d), v.text == d else {
                throw .malformed(index: i, field: "date", "change \(i): date '\(d)' is not a day, month or year that exists (YYYY[-MM[-DD]])")
            }
            date = v
        }
        var kind: VisitKind?
        if let k = try text("kind", required: false) {
            guard let v = VisitKind(rawValue: k) else {
                throw .malformed(index: i, field: "kind", "change \(i): kind must be board, alight, transfer, pass or null; got '\(k)'")
            }
            kind = v
        }
        let note = try text("note", required: false)
        if let note, note.utf8.count > 4096 { throw .malformed(index: i, field: "note", "change \(i): note is over 4096 bytes") }
        guard let u = try text("updated_at", required: true), let at = VisitTimestamp(rfc3339: u), at.milliseconds > 0 else {
            throw .malformed(index: i, field: "updated_at", "change \(i): updated_at is not an RFC 3339 time")
        }
        guard at.milliseconds <= now.milliseconds + maxClockSkew else {
            throw .malformed(index: i, field: "updated_at", "change \(i): updated_at \(u) is in the future (this clock: \(now.text))")
        }
        var deleted = false
        switch f["deleted"] {
        case nil, is NSNull: deleted = false
        // JSON true/false only: a number is refused (Foundation reads both as NSNumber; a
        // boolean's type code is "c").
        case let n as NSNumber where String(cString: n.objCType) == "c": deleted = n.boolValue
        default: throw .malformed(index: i, field: "deleted", "change \(i): deleted must be true or false")
        }
        return VisitChange(uid: parsed.uuidString.lowercased(), stationKey: key, date: date, kind: kind,
                           note: note?.trimmingCharacters(in: .whitespacesAndNewlines), updatedAt: at, deleted: deleted)
    }

    /// The batch as JSON (the form `init(json:)` reads).
    public var json: [UInt8] {
        var out: [UInt8] = []
        JSONBytes.append("{\"since\":", to: &out)
        JSONBytes.appendOptional(since.map(String.init), to: &out)
        JSONBytes.append(",\"changes\":", to: &out)
        Self.append(changes, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// `[CHANGE,…]` in the wire form.
    public static func append(_ changes: [VisitChange], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (n, c) in changes.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            JSONBytes.append("{\"id\":", to: &out); JSONBytes.appendQuoted(c.uid, to: &out)
            JSONBytes.append(",\"key\":", to: &out); JSONBytes.appendQuoted(c.stationKey, to: &out)
            JSONBytes.append(",\"date\":", to: &out); JSONBytes.appendOptional(c.date.text, to: &out)
            JSONBytes.append(",\"kind\":", to: &out); JSONBytes.appendOptional(c.kind?.rawValue, to: &out)
            JSONBytes.append(",\"note\":", to: &out); JSONBytes.appendOptional(c.note, to: &out)
            JSONBytes.append(",\"updated_at\":", to: &out); JSONBytes.appendQuoted(c.updatedAt.text, to: &out)
            JSONBytes.append(c.deleted ? ",\"deleted\":true}" : ",\"deleted\":false}", to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}

/// The server's answer to a sync batch: `{"cursor": CURSOR, "changes": [CHANGE…], "applied": N,
/// "counting": {"transfer_counts": bool}}`.
public struct VisitSyncAnswer: Sendable, Equatable {
    public var cursor: Int64
    public var changes: [VisitChange]
    public var applied: Int

    /// Reads an answer; the changes are checked as a batch's are, except for the clock (they
    /// come from the server's, which may run ahead of this one).
    /// - Throws: `VisitSyncError` naming what is wrong.
    public init(json: [UInt8]) throws(VisitSyncError) {
        let object: Any
        do { object = try JSONParse.value(json) } catch { throw .notJSON(error) }
        guard let top = object as? [String: Any] else {
            throw .malformed(index: nil, field: nil, "the answer is not a JSON object")
        }
        guard let c = top["cursor"] as? String, let n = Int64(c) else {
            throw .malformed(index: nil, field: "cursor", "the answer has no cursor")
        }
        guard let list = top["changes"] as? [Any] else { throw .malformed(index: nil, field: "changes", "the answer has no changes") }
        cursor = n
        applied = (top["applied"] as? Int) ?? 0
        changes = []
        let anyTime = VisitTimestamp(milliseconds: Int64.max / 2)
        for (i, item) in list.enumerated() { changes.append(try VisitSyncBatch.change(item, index: i, now: anyTime)) }
    }
}

/// What is wrong with a sync batch.
public enum VisitSyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Text that is not JSON: where the parser stopped (`JSONParse`).
    case notJSON(JSONSyntaxError)
    /// A field missing, of the wrong type or out of range; `index` is the change's position.
    case malformed(index: Int?, field: String?, String)
    /// One id twice in one batch.
    case duplicateID(String, first: Int, again: Int)
    /// More changes than `VisitSyncBatch.maxChanges`.
    case tooMany(Int, limit: Int)

    public var description: String {
        switch self {
        case .notJSON(let e): return "not JSON: \(e)"
        case .malformed(_, _, let m): return m
        case .duplicateID(let id, let a, let b): return "changes \(a) and \(b) have the same id \(id)"
        case .tooMany(let n, let limit): return "\(n) changes in one batch; at most \(limit)"
        }
    }
}
