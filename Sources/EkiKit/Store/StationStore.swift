import EkiSQLite
import Foundation

/// The station database: one GeoPackage file (see `Schema`) holding the entries of every import.
///
/// Reading and writing go through one connection; not thread-safe.
public final class StationStore {
    /// The connection. Inside the package only: other code goes through the store's methods.
    package let db: Database
    /// How imports maintain the R-tree (see `SpatialIndexBuild`).
    public var spatialIndexBuild: SpatialIndexBuild = .automatic
    /// The R-tree's nodes and the points of its leaves, read on demand for the lean queries
    /// (see `LeanQueries.swift`); dropped when the file changes.
    var nodeCache: RTreeNodeCache?
    /// How an import writes its entries; nil chooses (`.fresh` for an empty store). Tests set
    /// `.incremental` to compare the two writers.
    var entryWriteStrategy: EntryWriter.Strategy?

    /// The file path given at open.
    public var path: String { db.path }
    /// The R-tree of the entries' points.
    var spatialIndex: SpatialIndex { SpatialIndex(db: db) }
    /// The search tables.
    var searchIndex: SearchIndex { SearchIndex(db: db) }
    /// True when the database has the search tables (schema version 3).
    public var hasSearchIndex: Bool { searchIndex.exists }

    /// Opens the database at `path`, creating an empty GeoPackage when the file does not exist
    /// (unless `readOnly`).
    /// - Throws: `StoreError`: `.missing` (read-only and no file), `.isDirectory`,
    ///   `.notADatabase` (not an SQLite file), `.notAStationDatabase` (an SQLite file without the
    ///   station tables), `.schemaVersion`; `SQLiteError` when SQLite cannot open or read it
    ///   for another reason (permissions, a full disk).
    public init(path: String, readOnly: Bool = false) throws {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue { throw StoreError.isDirectory(path) }
        if readOnly && !exists { throw StoreError.missing(path) }
        do {
            db = try Database(path: path, readOnly: readOnly)
        } catch let e as SQLiteError where readOnly && Self.leftMidWrite(path, e) {
            throw StoreError.interruptedWrite(path)
        }
        try GeoPackage.registerFunctions(db)
        let hasStations: Int64
        do {
            try db.execute("PRAGMA foreign_keys = ON")
            // WAL: readers (the map server) keep answering from the old data while an import writes.
            if !readOnly { try db.execute("PRAGMA journal_mode = WAL") }
            hasStations = try db.scalarInt(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'stations'") ?? 0
        } catch let e as SQLiteError where e.code & 0xFF == 26 {      // SQLITE_NOTADB
            throw StoreError.notADatabase(path)
        } catch let e as SQLiteError where readOnly && Self.leftMidWrite(path, e) {
            throw StoreError.interruptedWrite(path)
        }
        if hasStations == 0 {
            let tables = try db.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
            guard tables == 0, !readOnly else { throw StoreError.notAStationDatabase(path) }
            try db.transaction { try db.execute(Schema.create) }
        } else {
            // Older schema versions: frozen steps, then the derived tables (`upgradeSchema`).
            try upgradeSchema(readOnly: readOnly)
        }
        let version = try db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'") ?? 0
        if version != Int64(Schema.version) { throw StoreError.schemaVersion(path, found: Int(version), expected: Schema.version) }
        if !readOnly { try refoldSearchIndexIfNeeded() }
    }

    /// True when a read-only open failed because the file's write-ahead log (`PATH-wal`, not
    /// empty) needs recovering and this process may not write the index beside it
    /// (SQLITE_READONLY or SQLITE_CANTOPEN families). A connection that may write recovers it
    /// on its first read, read-only or not.
    static func leftMidWrite(_ path: String, _ e: SQLiteError) -> Bool {
        guard [8, 14].contains(e.code & 0xFF) else { return false }      // READONLY, CANTOPEN
        let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return size > 0
    }

    /// Runs `body` in a write transaction. Only one connection writes at a time: when another
    /// holds the write lock, the begin waits `db.busyTimeout` seconds for it to finish.
    /// - Throws: `StoreError.writerBusy` when the wait ran out (nothing was written); the
    ///   body's error.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try db.transaction(body)
        } catch let e as SQLiteError where e.code & 0xFF == 5 && e.sql?.hasPrefix("BEGIN") == true {  // SQLITE_BUSY
            throw StoreError.writerBusy(path, waited: db.busyTimeout)
        }
    }

    /// Packs the R-tree afresh from every entry's point (see `SpatialIndex.rebuild`).
    /// - Throws: `SQLiteError`.
    public func rebuildSpatialIndex() throws {
        try spatialIndex.rebuild()
        nodeCache = nil
    }

    /// Number of entries (open and closed).
    public func count(includeClosed: Bool = true) throws -> Int {
        Int(try db.scalarInt(includeClosed ? "SELECT count(*) FROM stations"
                                           : "SELECT count(*) FROM stations WHERE open = 1") ?? 0)
    }

    // MARK: Reading entries

    /// The columns `station(from:)` reads, from `stations s`: the entry's source rows come from
    /// `station_sources` (a range of its B-tree) as a JSON array of `dataset:id`.
    static let columns = "s.key, s.name, s.reading, s.latin_name, s.operator, s.operator_ref, s.class, s.lines, s.prefecture, s.open, s.lon, s.lat, "
        + "(SELECT json_group_array(src_.dataset || ':' || src_.source_id) FROM station_sources src_ WHERE src_.station_fid = s.fid), "
        + "s.former_names, s.retired, s.operator_id, s.kind"

    /// A station from `columns`, starting at column `o`.
    static func station(from s: Statement, offset o: Int32 = 0) -> Station {
        Station(key: s.text(o), name: s.text(o + 1), reading: s.optionalText(o + 2), latinName: s.optionalText(o + 3),
                operatorName: s.optionalText(o + 4), operatorRef: s.optionalText(o + 5),
                serviceClass: ServiceClass(rawValue: s.text(o + 6)) ?? .conventional,
                lines: JSONText.decodeStrings(s.text(o + 7)), prefecture: s.optionalText(o + 8),
                coordinate: Coordinate(lat: s.double(o + 11), lon: s.double(o + 10)),
                sources: JSONText.decodeStrings(s.text(o + 12)).map { ref in
                    let parts = ref.split(separator: ":", maxSplits: 1)
                    return SourceRef(dataset: String(parts[0]), id: parts.count > 1 ? String(parts[1]) : "")
                }.sorted(),
                isOpen: s.int64(o + 9) != 0,
                formerNames: JSONText.decodeStrings(s.text(o + 13)), retired: s.optionalText(o + 14),
                operatorID: s.text(o + 15), kind: s.isNull(o + 16) ? .regular : StationKind(rawValue: s.text(o + 16)) ?? .regular)
    }

    /// Every entry, sorted by key.
    public func allStations(includeClosed: Bool = true) throws -> [Station] {
        let s = try db.prepare("SELECT \(Self.columns) FROM stations s \(includeClosed ? "" : "WHERE s.open = 1") ORDER BY s.key")
        var out: [Station] = []
        while try s.step() { out.append(Self.station(from: s)) }
        return out
    }

    /// The entry a key refers to now: the entry with that key, else the entry its alias chain
    /// (`station_aliases`: keys of entries merged into others) leads to, else nil.
    public func resolve(key: String) throws -> Station? {
        var k = key
        var seen = Set<String>()
        while seen.insert(k).inserted {
            if let s = try station(key: k) { return s }
            let a = try db.cached("SELECT new_key FROM station_aliases WHERE old_key = ?")
            try a.bind([.text(k)])
            guard try a.step() else { return nil }
            k = a.text(0)
        }
        return nil
    }

    /// The entry holding most of `refs` (source rows), ties to the oldest entry; nil when no
    /// entry holds any of them.
    public func station(sharingSourcesWith refs: [SourceRef]) throws -> Station? {
        guard !refs.isEmpty else { return nil }
        var counts: [Int64: Int] = [:]
        // One pass over the table (it is clustered by entry, not by source row).
        var wanted: [SourceRef: Int] = [:]
        for r in refs { wanted[r, default: 0] += 1 }
        let datasets = Set(refs.map(\.dataset))
        let s = try db.prepare("SELECT station_fid, dataset, source_id FROM station_sources")
        while try s.step() {
            guard datasets.contains(s.text(1)), let n = wanted[SourceRef(dataset: s.text(1), id: s.text(2))] else { continue }
            counts[s.int64(0), default: 0] += n
        }
        guard let best = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) else { return nil }
        return try station(fid: best.key)
    }

    /// The entry with `key`, or nil.
    public func station(key: String) throws -> Station? {
        let s = try db.cached("SELECT \(Self.columns) FROM stations s WHERE s.key = ?")
        try s.bind([.text(key)])
        return try s.step() ? Self.station(from: s) : nil
    }
}

/// Errors about the database file itself, and what the store finds wrong inside it.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    case missing(String)
    /// The path is a folder.
    case isDirectory(String)
    /// The file is not an SQLite database at all (a text file, an image).
    case notADatabase(String)
    case notAStationDatabase(String)
    case schemaVersion(String, found: Int, expected: Int)
    /// A row the store itself wrote is missing (the `fid` of a stations row).
    case noEntry(fid: Int64)
    /// An R-tree node has a size the store does not read.
    case unexpectedRTreeNode(table: String, size: Int)
    /// An R-tree node is missing or cannot be decoded (`problem`: "is missing", "is too short").
    case corruptRTree(table: String, node: Int64, problem: String)
    /// A read-only open of a file whose write-ahead log needs recovering, without the right
    /// to write beside it.
    case interruptedWrite(String)
    /// Another connection was writing the file for the whole wait (seconds).
    case writerBusy(String, waited: Double)

    public var description: String {
        switch self {
        case .missing(let p): return "no station database at \(p) (build one with `eki import`)"
        case .isDirectory(let p): return "\(p) is a directory"
        case .notADatabase(let p): return "\(p) is not an EkiKit database"
        case .notAStationDatabase(let p): return "\(p) is an SQLite file but not an EkiKit station database"
        case .schemaVersion(let p, let found, let expected) where found >= 2 && found < expected:
            // Older files are upgraded in place (`Migrator`) by any open that may write.
            return "\(p) has schema version \(found), older than this eki's \(expected); read-only commands do not change it: the next `eki import --db \(p) …` upgrades it in place, keeping its entries"
        case .schemaVersion(let p, let found, let expected):
            return "\(p) has schema version \(found), this eki reads \(expected): rebuild it with `eki import`"
        case .noEntry(let fid): return "no station with fid \(fid)"
        case .unexpectedRTreeNode(let table, let size): return "\(table): unexpected R*Tree node size \(size)"
        case .corruptRTree(let table, let node, let problem): return "\(table): node \(node) \(problem)"
        case .interruptedWrite(let p):
            return "\(p) was left mid-write by a command that stopped; its last changes are recovered by the next command that may write \(p) and its folder: run `eki info --db \(p)` once as that user"
        case .writerBusy(let p, let waited):
            return "another import is running on \(p): waited \(String(format: "%g", waited)) s for it to finish; nothing was written, run this again when it has"
        }
    }
}
