import EkiSQLite
import Foundation

/// The station database: one GeoPackage file (see `Schema`) holding the entries of every
/// import. The store opens, upgrades and closes the file, runs transactions and imports; what
/// is in it is read through its parts:
///
/// - `entries`: entries by key (through aliases), by row id, all, counts (`EntryCatalog`);
/// - `spatial`: viewport (bbox, pin cap and total) and nearest-first (k-NN) queries over the
///   R-tree (`SpatialIndex`);
/// - `search`: by name, reading, romaji, line or operator (`SearchIndex`);
/// - `lines`: the line table, 路線 with their stations in order (`LineTable`);
/// - `info`: counts per dataset and operator, editions, conflicts, source rows (`DatabaseInfo`).
///
/// ```swift
/// let store = try StationStore(path: "stations.gpkg")
/// let pins = try store.spatial.nearest(to: Coordinate(lat: 35.2564, lon: 139.1553), k: 5)
/// let view = try store.spatial.viewport(ViewportQuery(bbox: BoundingBox(minLon: 139.74, minLat: 35.67,
///                                                                      maxLon: 139.78, maxLat: 35.69), limit: 300))
/// let hits = try store.search.stations(matching: "おだわら")
/// ```
///
/// Reading and writing go through one connection; not thread-safe.
public final class StationStore {
    /// The connection. Inside the package only: other code goes through the parts.
    package let db: Database
    /// The entries by key, row id, or all.
    public let entries: EntryCatalog
    /// Viewport and nearest-first queries over the R-tree; how imports maintain it.
    public let spatial: SpatialIndex
    /// Station search.
    public let search: SearchIndex
    /// The line table.
    public let lines: LineTable
    /// Counts, editions, conflicts and source rows.
    public let info: DatabaseInfo
    /// How an import writes its entries; nil chooses (`.fresh` for an empty store). Tests set
    /// `.incremental` to compare the two writers.
    var entryWriteStrategy: EntryWriter.Strategy?

    /// The file path given at open.
    public var path: String { db.path }

    /// Opens the database at `path`, creating an empty GeoPackage when the file does not exist
    /// (unless `readOnly`).
    /// - Throws: `StoreError`: `.missing` (read-only and no file), `.isDirectory`,
    ///   `.notADatabase` (not an SQLite file), `.notAStationDatabase` (an SQLite file without the
    ///   station tables), `.schemaVersion` (an older file opened read-only), `.writerBusy`
    ///   (another import holds the write lock for the whole wait, a first import included);
    ///   read-only: `.beingCreated` (a first import has committed nothing yet), `.locked` (a
    ///   first import or another program held the file for the whole wait);
    ///   `SchemaUpgradeError.unfinished` (read-only, an upgrade that stopped before its derived
    ///   tables were written); `SQLiteError` when SQLite cannot open or read it for another
    ///   reason (permissions, a full disk).
    public init(path: String, readOnly: Bool = false) throws {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue { throw StoreError.isDirectory(path) }
        if readOnly && !exists { throw StoreError.missing(path) }
        do {
            db = try Database(path: path, readOnly: readOnly)
        } catch let e as SQLiteError where readOnly && StoreError.leftMidWrite(path, e) {
            throw StoreError.interruptedWrite(path)
        }
        try GeoPackage.registerFunctions(db)
        entries = EntryCatalog(db: db)
        spatial = SpatialIndex(db: db, entries: entries)
        search = SearchIndex(db: db, entries: entries, spatial: spatial)
        lines = LineTable(db: db, entries: entries)
        info = DatabaseInfo(db: db, entries: entries)
        do {
            let hasStations: Int64
            do {
                try db.execute("PRAGMA foreign_keys = ON")
                // WAL: readers (the map server) keep answering from the old data while an import writes.
                if !readOnly { try Self.switchToWAL(db) }
                hasStations = try db.scalarInt(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'stations'") ?? 0
            } catch let e as SQLiteError where e.primary == .notADatabase {
                throw StoreError.notADatabase(path)
            } catch let e as SQLiteError where readOnly && StoreError.leftMidWrite(path, e) {
                throw StoreError.interruptedWrite(path)
            }
            if hasStations == 0 {
                let tables = try db.scalarInt("SELECT count(*) FROM sqlite_master") ?? 0
                // An empty file with a log beside it: an import creating it, before its schema commits.
                let logged = ["-wal", "-journal"].contains { FileManager.default.fileExists(atPath: path + $0) }
                if readOnly && tables == 0 && logged { throw StoreError.beingCreated(path) }
                guard tables == 0, !readOnly else { throw StoreError.notAStationDatabase(path) }
                try db.transaction { try db.execute(Schema.create) }
            } else {
                // Older schema versions: frozen steps, then the derived tables (`SchemaUpgrade`).
                try SchemaUpgrade(self).run(readOnly: readOnly)
            }
            let version = try db.scalarInt("SELECT CAST(value AS INTEGER) FROM eki_meta WHERE name = 'schema_version'") ?? 0
            if version != Int64(Schema.version) { throw StoreError.schemaVersion(path, found: Int(version), expected: Schema.version) }
            if readOnly, try StoreError.firstImportRunning(db) { throw StoreError.beingCreated(path) }
            if !readOnly { try search.refoldIfNeeded() }
        } catch let e as SQLiteError where e.primary == .busy {
            // Readers wait only behind a rollback-journal writer: a first import (`importBatches`).
            if !readOnly { throw StoreError.writerBusy(path, waited: db.busyTimeout) }
            throw StoreError.locked(path, waited: db.busyTimeout, creating: FileManager.default.fileExists(atPath: path + "-journal"))
        }
    }

    /// `PRAGMA journal_mode = WAL`, waiting like a write transaction does for a first import
    /// (rollback journal) that holds the file: the switch fails at once while another
    /// connection holds the write lock, so it is tried again until `busyTimeout` has passed.
    /// - Throws: `StoreError.writerBusy` when the other writer is still there; `SQLiteError`.
    static func switchToWAL(_ db: Database) throws {
        let deadline = Date().addingTimeInterval(db.busyTimeout)
        while true {
            do {
                return try db.execute("PRAGMA journal_mode = WAL")
            } catch let e as SQLiteError where e.primary == .busy {
                guard Date() < deadline else { throw StoreError.writerBusy(db.path, waited: db.busyTimeout) }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// Runs `body` in a write transaction (see `Database.writeTransaction`).
    /// - Throws: `StoreError.writerBusy` when another connection held the write lock for the
    ///   whole wait (nothing was written); the body's error.
    package func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try db.writeTransaction(body)
    }

    /// Runs `body` (a burst of queries, say one map redraw) in a read transaction: the queries
    /// see one version of the file and the lean spatial ones skip their per-query change check.
    /// Other connections cannot commit while it runs: keep it short.
    /// - Throws: `SQLiteError`, or what `body` throws.
    public func readSnapshot<T>(_ body: () throws -> T) throws -> T {
        try db.readTransaction(body)
    }

    /// Closes the file now (otherwise it is closed when the store is released). Nothing may
    /// use the store afterwards.
    public func close() {
        spatial.dropCache()
        db.close()
    }
}
