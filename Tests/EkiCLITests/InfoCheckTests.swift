import Foundation
import Testing
import EkiKit
import EkiSQLite
import EkiTestSupport

/// `eki info --check` on copies of the real N02-23 database, each with one byte flipped where
/// a query reads it: an R-tree leaf (土浦's entry) and a `stations` row (土浦's name).
@Suite struct InfoCheckTests {
    let dir = TemporaryDirectory()

    /// A copy of the N02-23 database (`VACUUM INTO`: one file, no write-ahead log beside it).
    func copy(_ name: String) throws -> String {
        let path = dir.file(name)
        try Database(path: RealData.n02Database, readOnly: true).execute(sql: "VACUUM INTO \(path)")
        return path
    }

    /// Flips `mask` in the byte `offset` bytes into the first place `needle` occurs in the file
    /// (it must occur once), between `pages` when given (1-based page numbers).
    static func flip(_ path: String, at needle: [UInt8], offset: Int, mask: UInt8 = 0x10, pages: [Int64]? = nil) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        let pageSize = Int(data[16]) << 8 | Int(data[17])
        let ranges = (pages ?? [1]).map { p in pages == nil ? 0..<data.count : Int(p - 1) * pageSize..<Int(p) * pageSize }
        let hits = ranges.compactMap { data.range(of: Data(needle), in: $0) }
        #expect(hits.count == 1, "\(needle.count)-byte needle found \(hits.count) times")
        guard let hit = hits.first else { return }
        data[hit.lowerBound + offset] ^= mask
        try data.write(to: URL(fileURLWithPath: path))
    }

    static let tsuchiuraFid: Int64 = 2127
    static let tsuchiuraBox = "140.20,36.07,140.21,36.08"

    @Test("an undamaged copy: three ok lines, exit 0", .needsN02)
    func undamaged() throws {
        let db = try copy("ok.gpkg")
        let r = eki("info", "--db", db, "--check")
        #expect(r.status == 0)
        #expect(r.err == "")
        #expect(r.out == """
            ok       integrity_check: every page, table and index (SQLite)
            ok       rtreecheck(rtree_stations_geom): the spatial index (SQLite)
            ok       stations: 9587 rows, text valid UTF-8, each point in its R-tree box
            \(db): ok, no damage found

            """)
    }

    /// The byte of 土浦's row id in its R-tree leaf: the entry now names fid 2143 (神立's
    /// neighbour), and `eki bbox` around 土浦 answered "(0 entries)" with exit 0.
    @Test("a flipped byte in an R-tree leaf: rtreecheck and the row pass name it", .needsN02)
    func rtreeLeaf() throws {
        let db = try copy("rtree.gpkg")
        let node = try Database(path: db, readOnly: true)
        let leaf = try node.scalarInt(sql: "SELECT nodeno FROM rtree_stations_geom_rowid WHERE rowid = \(Self.tsuchiuraFid)")!
        let s = try node.prepare(sql: "SELECT data FROM rtree_stations_geom_node WHERE nodeno = \(leaf)")
        #expect(try s.step())
        let blob = s.blob(0)
        s.reset()
        node.close()
        #expect(leaf == 287)
        // The cell whose id is 土浦's fid: 8 bytes id, then 4 × 4 bytes of box.
        let cells = Int(blob[2]) << 8 | Int(blob[3])
        let cell = (0..<cells).first { c in
            blob[4 + c * 24..<4 + c * 24 + 8].reduce(Int64(0)) { $0 << 8 | Int64($1) } == Self.tsuchiuraFid
        }!
        try Self.flip(db, at: blob, offset: 4 + cell * 24 + 7)
        // bbox and nearest at 土浦 no longer answer without it: they stop at the leaf.
        let damaged = "\(db) is damaged: node 287 of its spatial index (rtree_stations_geom) puts row 2143 where stations does not; nothing was answered from it. `eki info --db \(db) --check` says what else is damaged and how to rebuild the file\n"
        let bbox = eki("bbox", "--db", db, Self.tsuchiuraBox)
        #expect(bbox.status == 1)
        #expect(bbox.out == "")
        #expect(bbox.err == "eki bbox: " + damaged)
        let nearest = eki("nearest", "--db", db, "--lat", "36.078595", "--lon", "140.20624", "-k", "1")
        #expect(nearest.status == 1)
        #expect(nearest.err == "eki nearest: " + damaged)
        let r = eki("info", "--db", db, "--check")
        #expect(r.status == 1)
        #expect(r.err == "")
        #expect(r.out == """
            ok       integrity_check: every page, table and index (SQLite)
            damaged  rtreecheck(rtree_stations_geom): the spatial index (SQLite)
                       Found (2143 -> 83) in %_rowid table, expected (2143 -> 287)
            damaged  stations: 9587 rows, text valid UTF-8, each point in its R-tree box
                       the rows cannot be looked up in the R-tree: database disk image is malformed

            \(db) is damaged: the spatial index (bbox, nearest, the map). Commands reading it may fail or answer wrongly.
            Rebuild it: import the source files it was made from (n02) into a new file, then put that in its place:
              eki import --db \(db).new FILE…
              mv \(db).new \(db)
            Your visits are kept in their own file (the visit log, --visits), which neither the damage nor the rebuild touches.

            """)
    }

    /// A bit of the second byte of 土浦's minimum longitude in its leaf: the box is inverted.
    /// `eki bbox` still found 土浦; now it stops at the leaf, and rtreecheck names the cell.
    @Test("a flipped byte in an R-tree box: bbox stops with a plain error, --check names the cell", .needsN02)
    func rtreeBox() throws {
        let db = try copy("box.gpkg")
        let node = try Database(path: db, readOnly: true)
        let s = try node.prepare(sql: "SELECT data FROM rtree_stations_geom_node WHERE nodeno = \(287)")
        #expect(try s.step())
        let blob = s.blob(0)
        s.reset()
        node.close()
        try Self.flip(db, at: blob, offset: 4 + 17 * 24 + 8 + 1)
        let bbox = eki("bbox", "--db", db, Self.tsuchiuraBox)
        #expect(bbox.status == 1)
        #expect(bbox.err == "eki bbox: \(db) is damaged: node 287 of its spatial index (rtree_stations_geom) has cell 17 with an inverted box; nothing was answered from it. `eki info --db \(db) --check` says what else is damaged and how to rebuild the file\n")
        let r = eki("info", "--db", db, "--check")
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("""
            ok       integrity_check: every page, table and index (SQLite)
            damaged  rtreecheck(rtree_stations_geom): the spatial index (SQLite)
                       Dimension 0 of cell 17 on node 287 is corrupt
            damaged  stations: 9587 rows, text valid UTF-8, each point in its R-tree box
                       row fid 2127 (jr-east/c/土浦): point outside its R-tree box

            \(db) is damaged: the spatial index (bbox, nearest, the map).
            """))
    }

    /// The first byte of 土 in 土浦's `name`, on its `stations` page: integrity_check calls the
    /// file "ok", and `eki bbox` printed the name as "���浦" with exit 0.
    @Test("a flipped byte in a station row: the row pass names the row and column", .needsN02)
    func stationRow() throws {
        let db = try copy("row.gpkg")
        let pages = try Database(path: db, readOnly: true).pages(of: "stations")
        // The row holds key, base_key (NULL), then name: the key's bytes, then the name's.
        let key = Array("jr-east/c/土浦".utf8), name = Array("土浦".utf8)
        try Self.flip(db, at: key + name, offset: key.count, mask: 0x40, pages: pages)
        let r = eki("info", "--db", db, "--check")
        #expect(r.status == 1)
        #expect(r.out == """
            ok       integrity_check: every page, table and index (SQLite)
            ok       rtreecheck(rtree_stations_geom): the spatial index (SQLite)
            damaged  stations: 9587 rows, text valid UTF-8, each point in its R-tree box
                       row fid 2127 (jr-east/c/土浦): name not valid UTF-8

            \(db) is damaged: the entries (names, points: show, search, bbox, nearest). Commands reading it may fail or answer wrongly.
            Rebuild it: import the source files it was made from (n02) into a new file, then put that in its place:
              eki import --db \(db).new FILE…
              mv \(db).new \(db)
            Your visits are kept in their own file (the visit log, --visits), which neither the damage nor the rebuild touches.

            """)
    }

    /// The page header of the same `stations` page (its cell count): integrity_check stops at
    /// the page, and the page is named as part of the entries through `dbstat`.
    @Test("a damaged page header: integrity_check's message and the table it belongs to", .needsN02)
    func stationPageHeader() throws {
        let db = try copy("header.gpkg")
        let pages = try Database(path: db, readOnly: true).pages(of: "stations")
        var data = try Data(contentsOf: URL(fileURLWithPath: db))
        let key = Data("jr-east/c/土浦".utf8)
        let page = pages.first { p in data.range(of: key, in: Int(p - 1) * 4096..<Int(p) * 4096) != nil }!
        data[Int(page - 1) * 4096 + 3] ^= 0x40
        try data.write(to: URL(fileURLWithPath: db))
        let r = eki("info", "--db", db, "--check")
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.prefix(3) == ["damaged  integrity_check: every page, table and index (SQLite)",
                                    "           Page \(page): btreeInitPage() returns error code 11",
                                    "           database disk image is malformed"])
        #expect(r.out.contains("\n\(db) is damaged: the entries (names, points: show, search, bbox, nearest). "))
    }

    @Test func missingFile() {
        let r = eki("info", "--db", dir.file("none.gpkg"), "--check")
        #expect(r.status == 1)
        #expect(r.err == "eki info: no station database at \(dir.file("none.gpkg")) (build one with `eki import`)\n")
    }

    @Test func checkTakesOnlyTheDatabase() {
        let r = eki("info", "--check", "--format", "json")
        #expect(r.status == 64)
        #expect(r.err == "eki info: --check takes only --db\n")
    }
}
