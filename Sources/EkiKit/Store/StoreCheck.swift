import EkiSQLite
import Foundation

/// What `eki info --check` finds in a station database: SQLite's `integrity_check`, SQLite's
/// `rtreecheck()` on the spatial index (`rtree_stations_geom`), and the store's own pass over
/// `stations` (text valid UTF-8, each point inside its R-tree box and equal to its `geom`, each
/// R-tree entry a row). Reading only: the file is opened read-only and never changed.
///
/// The file carries no page checksums (Debian's SQLite has no checksum VFS; see
/// docs/database.md), so a changed byte inside a number that stays in range (a digit of a
/// reading) can pass all three; what a query reads wrongly (a point, a name that is no longer
/// UTF-8, an R-tree node) is found.
public struct StoreCheck: Sendable {
    /// One of the three checks: what it looked at, in a person's words, and what it found
    /// (empty: nothing wrong).
    public struct Part: Sendable, Equatable {
        public var name: String
        public var problems: [String]
        public var isDamaged: Bool { !problems.isEmpty }
    }

    /// The file checked, as given.
    public let path: String
    /// `integrity_check`, `rtreecheck(rtree_stations_geom)`, then the rows, in that order; a
    /// check that cannot run (the file too damaged to read) is a part with that one problem.
    public let parts: [Part]
    /// What the damaged pages hold, in a person's words ("the spatial index (bbox, nearest, the
    /// map)"), from the tables the problems name; empty when nothing is damaged.
    public let damagedContents: [String]
    /// How many `stations` rows the row pass read (0 when it could not run).
    public let stationRows: Int
    /// The datasets the file was imported from (`source_records.dataset`, with the edition
    /// when one was recorded, "n02 2023"): what to import again; empty when unreadable.
    public let datasets: [String]

    /// True when any check found a problem.
    public var isDamaged: Bool { parts.contains(where: \.isDamaged) }

    /// The R-tree the spatial index reads.
    static let rtree = "rtree_stations_geom"

    /// Checks the station database at `path` (read-only).
    /// - Throws: `StoreError.missing`, `.isDirectory`, `.interruptedWrite` (a write-ahead log
    ///   to recover first and no right to write beside the file), `.beingCreated` and `.locked`
    ///   (a first import is writing it); `SQLiteError` when the file
    ///   cannot be opened at all. A file that opens but cannot be read is a finding, not a throw.
    public init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw StoreError.missing(path) }
        if isDirectory.boolValue { throw StoreError.isDirectory(path) }
        let db: Database
        do {
            db = try Database(path: path, readOnly: true)
        } catch let e as SQLiteError where StoreError.leftMidWrite(path, e) {
            throw StoreError.interruptedWrite(path)
        }
        self.path = path
        try GeoPackage.registerFunctions(db)
        var tables: Set<String> = []
        var parts: [Part] = []

        if (try? StoreError.firstImportRunning(db)) == true { throw StoreError.beingCreated(path) }
        let trees = (try? db.schemaTrees()) ?? []
        do {
            let messages = try db.integrityCheck()
            parts.append(Part(name: "integrity_check", problems: messages))
            if !messages.isEmpty { tables.formUnion(Self.tables(named: messages, trees: trees, db: db)) }
        } catch let e as SQLiteError where StoreError.leftMidWrite(path, e) {
            throw StoreError.interruptedWrite(path)
        } catch let e as SQLiteError where e.primary == .busy {
            throw StoreError.locked(path, waited: db.busyTimeout, creating: FileManager.default.fileExists(atPath: path + "-journal"))
        } catch let e as SQLiteError {
            parts.append(Part(name: "integrity_check", problems: ["the file cannot be read: \(e.message)"]))
            tables.insert("sqlite_schema")
        }
        do {
            let messages = try db.rtreeCheck(Self.rtree)
            parts.append(Part(name: "rtreecheck(\(Self.rtree))", problems: messages))
            if !messages.isEmpty { tables.insert(Self.rtree) }
        } catch let e as SQLiteError {
            parts.append(Part(name: "rtreecheck(\(Self.rtree))", problems: ["the R-tree cannot be read: \(e.message)"]))
            tables.insert(Self.rtree)
        }
        let rows = Self.checkRows(db)
        parts.append(Part(name: "stations", problems: rows.problems))
        tables.formUnion(rows.tables)
        self.parts = parts
        stationRows = rows.rows
        damagedContents = Self.contents(of: tables)
        datasets = (try? Self.datasets(db)) ?? []
    }

    /// The tables and indexes the `integrity_check` messages name: "Tree N" (a root page),
    /// "page N" (a page of some tree, found with `dbstat`), "index NAME"; each index as its table.
    static func tables(named messages: [String], trees: [(name: String, table: String, rootPage: Int64)], db: Database) -> Set<String> {
        var out: Set<String> = []
        var pages: Set<Int64> = []
        let byRoot = Dictionary(trees.map { ($0.rootPage, $0.table) }, uniquingKeysWith: { a, _ in a })
        let byName = Dictionary(trees.map { ($0.name, $0.table) }, uniquingKeysWith: { a, _ in a })
        for m in messages {
            let words = m.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "," })
            for (i, w) in words.enumerated() where i + 1 < words.count {
                let next = words[i + 1]
                if w == "Tree", let n = Int64(next), let t = byRoot[n] { out.insert(t) }
                if w.lowercased() == "page", let n = Int64(next) { pages.insert(n) }
                if w == "index", let t = byName[String(next)] { out.insert(t) }
            }
        }
        guard !pages.isEmpty else { return out }
        for tree in trees where !out.contains(tree.table) {
            // A tree dbstat cannot walk holds a page it cannot read: that tree is damaged too.
            guard let owned = try? db.pages(of: tree.name) else { out.insert(tree.table); continue }
            if owned.contains(where: pages.contains) { out.insert(tree.table) }
        }
        return out
    }

    /// The row pass over `stations`: every text column valid UTF-8, every point inside its
    /// R-tree entry's box and equal to its `geom`, every R-tree entry a row. At most 20
    /// problems are listed, then how many more; a read that fails is a problem too, and names
    /// the table it was reading (`stations`, or the R-tree).
    static func checkRows(_ db: Database) -> (rows: Int, problems: [String], tables: Set<String>) {
        var problems: [String] = []
        var tables: Set<String> = []
        var more = 0
        func add(_ p: String, _ table: String) {
            tables.insert(table)
            if problems.count < 20 { problems.append(p) } else { more += 1 }
        }
        let columns = StationColumns.textColumns
        var rows = 0
        var lastFid: Int64?
        do {
            let s = try db.prepare("SELECT fid, key, \(columns.joined(separator: ", ")) FROM stations ORDER BY fid")
            while try s.step() {
                rows += 1
                lastFid = s.int64(0)
                var bad: [String] = []
                for (i, c) in columns.enumerated() where !s.isNull(Int32(i + 2)) {
                    if s.withBlob(Int32(i + 2), { String(validating: $0, as: UTF8.self) == nil }) { bad.append(c) }
                }
                if !bad.isEmpty { add("row fid \(s.int64(0)) (\(s.text(1))): \(bad.joined(separator: ", ")) not valid UTF-8", "stations") }
            }
        } catch let e as SQLiteError {
            add("the rows cannot be read" + (lastFid.map { " past fid \($0)" } ?? "") + ": \(e.message)", "stations")
        } catch {
            add("the rows cannot be read: \(error)", "stations")
        }
        // When the rows themselves cannot be read, the R-tree look-ups below fail on the same
        // pages: that is the rows' damage, said once.
        let rowsUnreadable = tables.contains("stations") && problems.last?.hasPrefix("the rows cannot be read") == true
        do {
            let points = try db.prepare("""
                SELECT s.fid, r.id IS NULL, ST_MinX(s.geom) IS NOT s.lon OR ST_MinY(s.geom) IS NOT s.lat, s.key
                FROM stations s LEFT JOIN \(rtree) r ON r.id = s.fid
                WHERE s.geom IS NOT NULL AND (r.id IS NULL OR s.lon < r.minx OR s.lon > r.maxx OR s.lat < r.miny OR s.lat > r.maxy
                                              OR ST_MinX(s.geom) IS NOT s.lon OR ST_MinY(s.geom) IS NOT s.lat)
                ORDER BY s.fid
                """)
            while try points.step() {
                let row = "row fid \(points.int64(0)) (\(points.text(3)))"
                if points.int64(1) != 0 { add("\(row): not in the R-tree", rtree) }
                else if points.int64(2) != 0 { add("\(row): lon/lat differ from its geom", "stations") }
                else { add("\(row): point outside its R-tree box", rtree) }
            }
            let orphans = try db.prepare("SELECT r.id FROM \(rtree) r LEFT JOIN stations s ON s.fid = r.id WHERE s.fid IS NULL ORDER BY r.id")
            while try orphans.step() { add("R-tree entry \(orphans.int64(0)): no such row", rtree) }
        } catch let e as SQLiteError where !rowsUnreadable {
            add("the rows cannot be looked up in the R-tree: \(e.message)", rtree)
        } catch is SQLiteError {
        } catch {
            add("the rows cannot be looked up in the R-tree: \(error)", rtree)
        }
        if more > 0 { problems.append("… and \(more) more") }
        return (rows, problems, tables)
    }

    /// The datasets of the file with their editions ("n02 2023").
    static func datasets(_ db: Database) throws -> [String] {
        let s = try db.prepare("""
            SELECT d.dataset, (SELECT value FROM eki_meta WHERE name = 'edition:' || d.dataset)
            FROM (SELECT DISTINCT dataset FROM source_records) d ORDER BY d.dataset
            """)
        var out: [String] = []
        while try s.step() { out.append(s.isNull(1) ? s.text(0) : "\(s.text(0)) \(s.text(1))") }
        return out
    }

    /// What each table holds, in a person's words (one phrase per kind, in a fixed order).
    static func contents(of tables: Set<String>) -> [String] {
        let kinds: [(String, (String) -> Bool)] = [
            ("the schema (every command reads it)", { $0 == "sqlite_schema" }),
            ("the entries (names, points: show, search, bbox, nearest)", { $0 == "stations" || $0.hasPrefix("station_") }),
            ("the spatial index (bbox, nearest, the map)", { $0.hasPrefix("rtree_") }),
            ("the search index (search)", { $0.hasPrefix("search_") }),
            ("the line table (lines, line)", { $0 == "lines" || $0.hasPrefix("line_") }),
            ("the source rows (what the next import compares)", { $0 == "source_records" }),
            ("the file's metadata", { $0.hasPrefix("gpkg_") || $0 == "eki_meta" || $0 == "sqlite_sequence" }),
        ]
        var out = kinds.filter { _, test in tables.contains(where: test) }.map(\.0)
        let known = tables.filter { t in kinds.contains { $0.1(t) } }
        if known.count < tables.count { out.append("other tables (\(tables.subtracting(known).sorted().joined(separator: ", ")))") }
        return out
    }
}
