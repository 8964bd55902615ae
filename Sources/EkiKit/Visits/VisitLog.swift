import EkiSQLite
import Foundation

/// The visit log (乗下車記録): a small SQLite file of its own, apart from the station database,
/// so that rebuilding or replacing the station database never touches it. Visits refer to
/// stations by key only; `VisitedStations` resolves them against a `StationStore`.
///
/// File: `application_id` 0x454B4956 (`EKIV`), `user_version` 3 (a version-1 or -2 file is
/// upgraded when first opened by a writer, see `VisitLog+Upgrade.swift`). Tables:
/// - `visits (id, owner, uid, station_key, date, kind, note, updated_at, seq)`: one row per
///   visit, unique on owner + station key, date and kind, and on owner + uid. Dates are text
///   (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`) or NULL; `updated_at` is milliseconds since 1970 UTC.
/// - `visit_tombstones (owner, uid, station_key, date, kind, note, updated_at, seq)`: removed
///   visits, kept so that a removal reaches every device (`VisitSync.swift`).
/// - `visit_photos`: each visit's photos, bytes in the row (`VisitLog+Photos.swift`).
/// - `settings (owner, name, value)`, `sync_sequence (last)` (the change counter that stamps
///   `seq`), `sync_peers` (what this log last exchanged with each server) and `key_sources`.
///
/// A log belongs to one owner: 0 in a log file of its own; in an accounts file (EkiAccounts)
/// each person's visits are the rows of their user id, reached through `init(database:owner:path:)`.
///
/// ```swift
/// let log = try VisitLog(path: "visits.sqlite")
/// try log.add(Visit(stationKey: "jr-central/s/小田原", date: try VisitDate(parsing: "2019-08-13")))
/// let visited = try VisitedStations(log: log, store: store)   // completions against the station database
/// ```
///
/// One connection; not thread-safe.
public final class VisitLog {
    package let db: any SQLConnection
    /// The file path given at open (`:memory:` for an empty log that is not stored).
    public let path: String
    /// Whose visits these are: 0 for a log file of its own, else the user id in an accounts file.
    public let owner: Int64

    static let applicationID: Int64 = 0x454B_4956
    static let schemaVersion: Int64 = 3

    /// The tables of visits, in a log file or in an accounts file (`installSchema(in:)`).
    static let visitTables = """
    CREATE TABLE visits (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      owner INTEGER NOT NULL DEFAULT 0,
      uid TEXT NOT NULL CHECK (length(uid) BETWEEN 1 AND 64),
      station_key TEXT NOT NULL CHECK (station_key <> ''),
      date TEXT CHECK (date IS NULL OR date GLOB '[0-9][0-9][0-9][0-9]'
                       OR date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]'
                       OR date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
      kind TEXT CHECK (kind IS NULL OR kind IN ('board', 'alight', 'transfer', 'pass')),
      note TEXT CHECK (note IS NULL OR note <> ''),
      updated_at INTEGER NOT NULL,
      seq INTEGER NOT NULL);
    CREATE UNIQUE INDEX visits_identity ON visits (owner, station_key, ifnull(date, ''), ifnull(kind, ''));
    CREATE UNIQUE INDEX visits_uid ON visits (owner, uid);
    CREATE INDEX visits_seq ON visits (owner, seq);
    CREATE TABLE visit_tombstones (
      owner INTEGER NOT NULL DEFAULT 0, uid TEXT NOT NULL, station_key TEXT NOT NULL, date TEXT, kind TEXT, note TEXT,
      updated_at INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (owner, uid));
    CREATE INDEX visit_tombstones_seq ON visit_tombstones (owner, seq);
    CREATE TABLE settings (owner INTEGER NOT NULL DEFAULT 0, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (owner, name));
    CREATE TABLE sync_sequence (last INTEGER NOT NULL);
    INSERT INTO sync_sequence (last) VALUES (0);
    CREATE TABLE sync_peers (owner INTEGER NOT NULL DEFAULT 0, url TEXT NOT NULL, cursor TEXT, sent_seq INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (owner, url));
    """ + keySourcesSchema + photoTables

    static let schema = """
    PRAGMA application_id = \(applicationID);
    PRAGMA user_version = \(schemaVersion);
    """ + visitTables

    /// The source rows (`dataset:id`) each recorded key stood for when it was last seen in a
    /// station database: a memo, not part of the exported log, that lets a visit find its
    /// station again in a database rebuilt from a source that renamed it.
    static let keySourcesSchema = """
    CREATE TABLE IF NOT EXISTS key_sources (
      station_key TEXT NOT NULL, source TEXT NOT NULL, PRIMARY KEY (station_key, source));
    """

    /// The log file used when neither `--visits PATH` nor `$EKI_VISITS` is given:
    /// `$XDG_DATA_HOME/eki/visits.sqlite` (when XDG_DATA_HOME is an absolute path), else
    /// `$HOME/.local/share/eki/visits.sqlite` (the XDG Base Directory default for user data),
    /// else `./visits.sqlite`. A person's visits are the one file that cannot be rebuilt from
    /// open data, so it lives in the user's data folder, not beside the station database.
    public static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return (xdg as NSString).appendingPathComponent("eki/visits.sqlite")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return (home as NSString).appendingPathComponent(".local/share/eki/visits.sqlite")
        }
        return "visits.sqlite"
    }

    /// Opens the log at `path`. With `create`, a missing file (and its folder) is created and the
    /// log is writable; without it, the file must exist and is opened read-only. A version-1 file
    /// is upgraded first (through a writable connection of its own, in one transaction).
    /// - Throws: `VisitLogError.missing` (no file, `create` false), `VisitLogError.notAVisitLog`
    ///   (an SQLite file that is something else, e.g. the station database), `SQLiteError`.
    public init(path: String, create: Bool = true) throws {
        self.path = path
        owner = 0
        let inMemory = path == ":memory:"
        let exists = inMemory || FileManager.default.fileExists(atPath: path)
        if !exists {
            guard create else { throw VisitLogError.missing(path) }
            let dir = (path as NSString).deletingLastPathComponent
            if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        }
        if exists && !inMemory { try Self.upgradeIfNeeded(path: path) }
        let file = try Database(path: path, readOnly: !create && !inMemory)
        db = file
        // WAL: a writer (a visit recorded on the map) never blocks the readers.
        if create && !inMemory { try file.execute("PRAGMA journal_mode = WAL") }
        let tables = try file.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
        if tables == 0 {
            guard create || inMemory else { throw VisitLogError.notAVisitLog(path) }
            try file.transaction { try file.execute(Self.schema) }
        } else if try file.scalarInt("PRAGMA application_id") != Self.applicationID {
            throw VisitLogError.notAVisitLog(path)
        }
    }

    /// The visits of `owner` on a connection another store owns (the accounts file, or the
    /// accounts database on PostgreSQL), whose tables it made (`installSchema(in:)` on
    /// SQLite). The log does not close or configure `database`.
    package init(database: any SQLConnection, owner: Int64, path: String) {
        db = database
        self.owner = owner
        self.path = path
    }

    /// Creates the visit tables in `db` (inside the caller's transaction, if any).
    /// - Throws: `SQLiteError` (a table of the same name exists already, say).
    package static func installSchema(in db: Database) throws { try db.execute(visitTables) }

    // MARK: Finding the station of a key

    /// Notes which source rows `station` holds, under the recorded `key` (replacing what was
    /// noted before). Called when a visit is added, imported or checked.
    public func rememberSources(of station: Station, forKey key: String) throws {
        try write { try writeSources(of: station, forKey: key) }
    }

    /// `rememberSources` inside the caller's transaction.
    func writeSources(of station: Station, forKey key: String) throws {
        try db.prepare("DELETE FROM key_sources WHERE station_key = ?").run([.text(key)])
        let insert = try db.prepare("INSERT INTO key_sources (station_key, source) VALUES (?, ?) ON CONFLICT DO NOTHING")
        for ref in station.sources { try insert.run([.text(key), .text(ref.description)]) }
    }

    /// The source rows noted for `key` (empty when none, or in a log older than the memo).
    public func sources(forKey key: String) throws -> [SourceRef] {
        guard try db.hasTable("key_sources") else { return [] }
        let s = try db.cached("SELECT source FROM key_sources WHERE station_key = ? ORDER BY source")
        try s.bind([.text(key)])
        var out: [SourceRef] = []
        while try s.step() {
            let parts = s.text(0).split(separator: ":", maxSplits: 1)
            if parts.count == 2 { out.append(SourceRef(dataset: String(parts[0]), id: String(parts[1]))) }
        }
        return out
    }

    /// The entry a recorded key refers to in `store`: the key itself or through the alias table
    /// (`EntryCatalog.resolve(key:)`); failing that, the entry holding most of the source rows
    /// the key stood for when it was recorded (a station renamed in a database rebuilt from
    /// scratch); nil when neither finds one (the visit is orphaned, and kept).
    public func resolve(_ key: String, in store: StationStore) throws -> Station? {
        if let s = try store.entries.resolve(key: key) { return s }
        return try store.entries.station(sharingSourcesWith: try sources(forKey: key))
    }

    /// An empty log in memory (for reading commands when there is no log file yet).
    public static func empty() throws -> VisitLog { try VisitLog(path: ":memory:") }

    // MARK: Settings

    /// The counting rule; `transferCounts` is the `transfer_counts` setting (default on).
    public func counting() throws -> VisitCounting {
        let s = try db.cached("SELECT value FROM settings WHERE owner = ? AND name = 'transfer_counts'")
        defer { s.reset() }
        try s.bind([.int(owner)])
        return VisitCounting(transferCounts: try s.step() ? s.text(0) != "0" : true)
    }

    /// Stores the counting rule in the log.
    public func setCounting(_ c: VisitCounting) throws {
        try db.prepare("INSERT INTO settings (owner, name, value) VALUES (?, 'transfer_counts', ?) \(Self.replacingSetting)")
            .run([.int(owner), .text(c.transferCounts ? "1" : "0")])
    }

    // MARK: Visits

    /// Records `visit` under a new id (its `id` is ignored) and returns it with that id, a new
    /// `uid` when it has none and `updatedAt` now when unset.
    /// - Throws: `VisitLogError.duplicate` when the log already has a visit of the same station
    ///   key, date and kind (see `Visit.identity`); `SQLiteError`.
    @discardableResult
    public func add(_ new: Visit) throws -> Visit {
        try write {
            if let existing = try visit(matching: new) { throw VisitLogError.duplicate(existing) }
            return try insert(new, keepingID: false)
        }
    }

    /// Records `visit` of `station` and notes the source rows the station holds (see
    /// `rememberSources`), both in one transaction: a crash saves both or neither.
    /// - Throws: as `add(_:)`; nothing is written when it throws.
    @discardableResult
    public func add(_ new: Visit, of station: Station) throws -> Visit {
        try write {
            let v = try add(new)
            try writeSources(of: station, forKey: new.stationKey)
            return v
        }
    }

    static let columns = "id, station_key, date, kind, note, uid, updated_at"

    /// Every visit in `range`, in log order (date, then id).
    public func visits(in range: VisitDateRange = VisitDateRange()) throws -> [Visit] {
        let s = try db.prepare("SELECT \(Self.columns) FROM visits WHERE owner = ? ORDER BY ifnull(date, ''), id")
        try s.bind([.int(owner)])
        var out: [Visit] = []
        while try s.step() {
            let v = Self.visit(from: s)
            if range.contains(v.date) { out.append(v) }
        }
        return out
    }

    /// The visit with `id`, or nil.
    public func visit(id: Int64) throws -> Visit? {
        let s = try db.cached("SELECT \(Self.columns) FROM visits WHERE owner = ? AND id = ?")
        defer { s.reset() }
        try s.bind([.int(owner), .int(id)])
        return try s.step() ? Self.visit(from: s) : nil
    }

    /// The visit with `uid`, or nil.
    public func visit(uid: String) throws -> Visit? {
        let s = try db.cached("SELECT \(Self.columns) FROM visits WHERE owner = ? AND uid = ?")
        defer { s.reset() }
        try s.bind([.int(owner), .text(uid)])
        return try s.step() ? Self.visit(from: s) : nil
    }

    /// Number of visits.
    public func count() throws -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM visits WHERE owner = ?", [.int(owner)]) ?? 0)
    }

    /// Removes the visits with these ids, all or none, keeping a tombstone of each (stamped now)
    /// so that the removal reaches the devices this log syncs with.
    /// - Returns: the removed visits.
    /// - Throws: `VisitLogError.noSuchVisit` for the first id the log does not hold (nothing is removed).
    @discardableResult
    public func remove(ids: [Int64]) throws -> [Visit] {
        try write {
            let now = VisitTimestamp.now()
            return try ids.map { id in
                guard let v = try visit(id: id) else { throw VisitLogError.noSuchVisit(id) }
                var dead = VisitChange(v)
                dead.deleted = true
                dead.updatedAt = max(now, VisitTimestamp(milliseconds: v.updatedAt.milliseconds + 1))
                try bury(dead)
                return v
            }
        }
    }

    /// Merges `incoming` visits (from `VisitExchange`, or another log) into the log in one
    /// transaction. A visit whose station key, date and kind the log already holds is the same
    /// visit: with the same note it is already present, with another note it is a conflict and
    /// the log's note is kept. A new visit keeps its id when the log has no visit with that id
    /// (so an export imported into an empty log reproduces it exactly), else gets a new one
    /// (reported as renumbered); it keeps its `uid` and `updatedAt` when it has them and the
    /// uid is free (another log's visits keep their identity across devices).
    /// `stations` maps recorded keys to the entries they were checked against: their source
    /// rows are noted in the same transaction (`rememberSources`), so an imported visit is
    /// found again after a later source renames its station, as an added one is.
    /// - Throws: `SQLiteError` (nothing is written).
    public func merge(_ incoming: [Visit], stations: [String: Station] = [:]) throws -> VisitMergeReport {
        try write { try mergeRows(incoming, stations: stations) }
    }

    /// `merge` inside the caller's transaction.
    func mergeRows(_ incoming: [Visit], stations: [String: Station]) throws -> VisitMergeReport {
        do {
            for (key, station) in stations.sorted(by: { $0.key < $1.key }) { try writeSources(of: station, forKey: key) }
            var report = VisitMergeReport()
            for v in incoming {
                if let existing = try visit(matching: v) {
                    if existing.note == v.note { report.alreadyPresent += 1 }
                    else { report.conflicts.append(VisitConflict(existing: existing, incoming: v)) }
                    continue
                }
                var new = v
                if !new.uid.isEmpty, try visit(uid: new.uid) != nil { new.uid = "" }
                if !new.uid.isEmpty, try tombstone(uid: new.uid) != nil {
                    // Recorded again after a removal: a new edit, later than the removal.
                    try db.prepare("DELETE FROM visit_tombstones WHERE owner = ? AND uid = ?").run([.int(owner), .text(new.uid)])
                    new.updatedAt = .unset
                }
                // Ids are the file's (or database's), not the owner's: free means nobody's.
                let idFree = v.id > 0 ? try db.scalarInt("SELECT count(*) FROM visits WHERE id = ?", [.int(v.id)]) == 0 : false
                let added = try insert(new, keepingID: idFree)
                if v.id > 0 && added.id != v.id { report.renumbered.append((from: v.id, to: added.id)) }
                report.added.append(added)
            }
            return report
        }
    }

    /// Date of the first counting visit (log order) of every recorded key that has one, by the
    /// key as recorded. `.unknown` when that visit is undated.
    public func completions(counting: VisitCounting? = nil) throws -> [String: VisitDate] {
        let rule = try counting ?? self.counting()
        var out: [String: VisitDate] = [:]
        for v in try visits() where rule.counts(v.kind) && out[v.stationKey] == nil {
            out[v.stationKey] = v.date
        }
        return out
    }

    // MARK: Rows

    func visit(matching v: Visit) throws -> Visit? {
        let s = try db.cached("""
            SELECT \(Self.columns) FROM visits
            WHERE owner = ? AND station_key = ? AND ifnull(date, '') = ? AND ifnull(kind, '') = ?
            """)
        defer { s.reset() }
        try s.bind([.int(owner), .text(v.stationKey), .text(v.date.text ?? ""), .text(v.kind?.rawValue ?? "")])
        return try s.step() ? Self.visit(from: s) : nil
    }

    /// Writes `v` as a new row, stamped with the next change number; a new uid when it has none,
    /// now when its `updatedAt` is unset.
    func insert(_ v: Visit, keepingID: Bool) throws -> Visit {
        var added = v
        if added.uid.isEmpty { added.uid = Visit.makeUID() }
        if added.updatedAt == .unset { added.updatedAt = .now() }
        let values: [SQLValue] = [
            .int(owner), .text(added.uid), .text(v.stationKey), v.date.text.map(SQLValue.text) ?? .null,
            v.kind.map { .text($0.rawValue) } ?? .null, v.note.map(SQLValue.text) ?? .null,
            .int(added.updatedAt.milliseconds), .int(try nextSequence()),
        ]
        let columns = "owner, uid, station_key, date, kind, note, updated_at, seq"
        let s = keepingID
            ? try db.cached("INSERT INTO visits (id, \(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
            : try db.cached("INSERT INTO visits (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id")
        defer { s.reset() }
        try s.bind(keepingID ? [.int(v.id)] + values : values)
        guard try s.step() else { throw VisitLogError.notAVisitLog(path) }
        added.id = s.int64(0)
        if keepingID { try db.idTaken(added.id, sequence: "visits_id_seq") }
        return added
    }

    /// The next change number (`sync_sequence`), inside the caller's write (`write`).
    func nextSequence() throws -> Int64 {
        let s = try db.cached(db.engine == .postgresql ? "SELECT nextval('sync_sequence')"
                                                        : "UPDATE sync_sequence SET last = last + 1 RETURNING last")
        defer { s.reset() }
        guard try s.step() else { throw VisitLogError.notAVisitLog(path) }
        return s.int64(0)
    }

    /// The last change number given (0 when none).
    public func lastSequence() throws -> Int64 {
        try db.scalarInt(db.engine == .postgresql ? "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM sync_sequence"
                                                  : "SELECT last FROM sync_sequence") ?? 0
    }

    /// Runs `body` in a write transaction (or the caller's) holding this owner's write turn:
    /// on PostgreSQL a transaction-scoped advisory lock on the owner, so that one owner's
    /// writes and syncs follow one another and their change numbers are in commit order (a
    /// cursor never passes a change still to commit); SQLite's write lock does this for the file.
    func write<T>(_ body: () throws -> T) throws -> T {
        func locked() throws -> T {
            if db.engine == .postgresql { _ = try db.scalarInt("SELECT count(*) FROM (SELECT pg_advisory_xact_lock(?)) AS turn", [.int(owner)]) }
            return try body()
        }
        return db.isInTransaction ? try locked() : try db.transaction(locked)
    }

    /// `ON CONFLICT` clause replacing a setting's value (both engines).
    static let replacingSetting = "ON CONFLICT (owner, name) DO UPDATE SET value = excluded.value"


    /// A visit from the columns `columns` names, starting at column `at` (a tombstone reads
    /// through the same columns, its id 0).
    static func visit(from s: any SQLStatement, at i: Int32 = 0) -> Visit {
        Visit(id: s.int64(i), stationKey: s.text(i + 1),
              date: (try? VisitDate(parsing: s.text(i + 2))) ?? .unknown,
              kind: s.optionalText(i + 3).flatMap(VisitKind.init(rawValue:)), note: s.optionalText(i + 4),
              uid: s.text(i + 5), updatedAt: VisitTimestamp(milliseconds: s.int64(i + 6)))
    }
}

/// What `VisitLog.merge` did.
public struct VisitMergeReport: Sendable {
    /// Visits written, with the ids they have in the log.
    public var added: [Visit] = []
    /// Incoming visits the log already held with the same note.
    public var alreadyPresent = 0
    /// Incoming ids that were taken by other visits, and the ids given instead.
    public var renumbered: [(from: Int64, to: Int64)] = []
    /// Incoming visits the log already held with another note (the log's note was kept).
    public var conflicts: [VisitConflict] = []
}

/// One visit recorded twice with different notes.
public struct VisitConflict: Sendable, Equatable {
    public var existing: Visit
    public var incoming: Visit
}

/// Errors of the visit log.
public enum VisitLogError: Error, CustomStringConvertible, Sendable {
    case missing(String)
    case notAVisitLog(String)
    case duplicate(Visit)
    case noSuchVisit(Int64)
    case noSuchPhoto(Int64)
    /// An older visit log that needs upgrading, in a file this process cannot write.
    case readOnlyUpgrade(String)

    public var description: String {
        switch self {
        case .missing(let p): return "no visit log at \(p) (record a visit with `eki visit add`)"
        case .notAVisitLog(let p): return "\(p) is not an EkiKit visit log"
        case .duplicate(let v):
            return "visit \(v.id) already records \(v.stationKey) on \(v.date)\(v.kind.map { " (\($0.rawValue))" } ?? "")"
        case .noSuchVisit(let id): return "no visit with id \(id)"
        case .noSuchPhoto(let id): return "no photo with id \(id)"
        case .readOnlyUpgrade(let p):
            return "\(p) is a visit log of an older version and cannot be written here to upgrade it (open it once with write permission)"
        }
    }
}
