import Testing
import Foundation
@testable import EkiKit
import EkiSQLite
import EkiImport
import EkiTestSupport

/// The files older eki versions wrote (`Fixtures/schema-v<N>-odawara-tokyo.gpkg`, each an
/// import of `Datasets/n02-odawara-tokyo.csv` by the eki of that schema version; see the
/// folder's README): a read-only open reports the version, a writable open upgrades the file
/// through the frozen steps (`Migrations`) and it then answers as a fresh import of the same
/// CSV with today's code.
@Suite struct SchemaFixtureTests {
    /// Every version the steps upgrade: 2 … 7.
    static let versions = Array(Migrator.oldest..<Schema.version)

    static func fixture(_ v: Int) -> String {
        TestPaths.package("Tests/EkiKitTests/Fixtures/schema-v\(v)-odawara-tokyo.gpkg")
    }

    /// A copy of the fixture of version `v` in a new temporary folder (the fixture itself is
    /// never opened: an open would write beside it).
    static func copy(_ v: Int) throws -> String {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("schema-v\(v).gpkg").path
        try FileManager.default.copyItem(atPath: fixture(v), toPath: path)
        return path
    }

    /// Today's import of the same CSV.
    static func freshImport() throws -> StationStore {
        let store = try StationStore(path: TestPaths.temporaryDirectory().appendingPathComponent("fresh.gpkg").path)
        let batch = try N02CSVImporter(path: TestPaths.package("Datasets/n02-odawara-tokyo.csv")).read()
        try store.importRecords(batch.records, dataset: "n02")
        return store
    }

    static func strings(_ db: Database, _ sql: String) throws -> [String] {
        let s = try db.prepare(sql)
        var out: [String] = []
        while try s.step() { out.append(s.optionalText(0) ?? "NULL") }
        return out
    }

    @Test func theStepsRunFromTheOldestVersionToTheCurrentOne() {
        #expect(Migrations.all.map(\.from) == [2, 3, 4, 5, 6, 7])
        #expect(Migrations.all.last!.from + 1 == Schema.version)
    }

    /// Each fixture is there, self-contained (no write-ahead log beside it) and of its version.
    @Test(arguments: versions) func theFixtureIsAFileOfItsVersion(_ v: Int) throws {
        #expect(FileManager.default.fileExists(atPath: Self.fixture(v)))
        #expect(!FileManager.default.fileExists(atPath: Self.fixture(v) + "-wal"))
        let db = try Database(path: try Self.copy(v), readOnly: true)
        #expect(try Migrator.version(db) == v)
        #expect(try db.scalarInt("SELECT count(*) FROM stations") == 39)
    }

    @Test(arguments: versions) func aReadOnlyOpenReportsTheVersion(_ v: Int) throws {
        let path = try Self.copy(v)
        #expect {
            try StationStore(path: path, readOnly: true)
        } throws: { error in
            guard case StoreError.schemaVersion(_, let found, let expected) = error else { return false }
            return found == v && expected == Schema.version
        }
        // and leaves it as it was
        let db = try Database(path: path, readOnly: true)
        #expect(try Migrator.version(db) == v)
    }

    /// The objects of a database, each with its SQL (a renamed table's name comes back quoted).
    static func schema(_ db: Database) throws -> [String] {
        try strings(db, "SELECT type || ' ' || name || ': ' || ifnull(replace(sql, '\"', ''), '') FROM sqlite_master ORDER BY name")
    }

    @Test(arguments: versions) func aWritableOpenUpgradesItToAnswerAsAFreshImport(_ v: Int) throws {
        let path = try Self.copy(v)
        let before: (fids: [String], sequence: Int64?)
        do {
            let db = try Database(path: path, readOnly: true)
            before = (try Self.strings(db, "SELECT fid || ' ' || key FROM stations ORDER BY fid"),
                      try db.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'stations'"))
        }
        #expect(before.fids.count == 39 && before.sequence == 39)
        let store = try StationStore(path: path)
        let fresh = try Self.freshImport()
        let db = store.db
        #expect(try Migrator.version(db) == Schema.version)
        #expect(try Migrator.stale(db).isEmpty)
        #expect(try Self.strings(db, "PRAGMA integrity_check") == ["ok"])
        #expect(try Self.strings(db, "SELECT rtreecheck('rtree_stations_geom')") == ["ok"])
        #expect(try Self.strings(db, "PRAGMA foreign_key_check") == [])
        #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try store.search.foldVersion() == TextFold.foldVersion)
        // Every table, index and trigger as today's code creates them.
        #expect(try Self.schema(db) == Self.schema(fresh.db))
        // Fids, keys and the AUTOINCREMENT sequence as the old file had them; every row kept.
        #expect(try Self.strings(db, "SELECT fid || ' ' || key FROM stations ORDER BY fid") == before.fids)
        #expect(try db.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'stations'") == before.sequence)
        #expect(try db.scalarInt("SELECT count(*) FROM source_records") == 54)
        #expect(try db.scalarInt("SELECT count(*) FROM station_sources") == 49)
        #expect(try db.scalarInt("SELECT count(*) FROM rtree_stations_geom") == 39)
        #expect(try db.scalarInt("SELECT count(*) FROM search_entry") == 39)
        #expect(try db.scalarInt("SELECT count(*) FROM search_term") == 63)

        // The entries. Versions 2 and 3 stored no prefecture (it came with version 4's
        // import): it stays empty, as a later import of unchanged rows leaves it.
        let old = try store.entries.all(), now = try fresh.entries.all()
        #expect(old.count == 39)
        /// The entry as compared: without its prefecture for versions 2 and 3.
        func same(_ s: Station) -> Station {
            var x = s
            if v < 4 { x.prefecture = nil }
            return x
        }
        #expect(old.allSatisfy { ($0.prefecture == nil) == (v < 4) })
        #expect(old.map(same) == now.map(same))
        #expect(old.map { "\($0.key) \($0.name) \($0.coordinate.lat) \($0.coordinate.lon) \($0.isOpen)" }
                == now.map { "\($0.key) \($0.name) \($0.coordinate.lat) \($0.coordinate.lon) \($0.isOpen)" })

        // Places: the whole sample, and the five nearest 小田原駅.
        let sample = BoundingBox(minLon: 139.0, minLat: 35.0, maxLon: 140.0, maxLat: 36.0)
        let inBox = try store.spatial.stations(in: sample).map(\.key)
        #expect(inBox.count == 39)
        #expect(try inBox == fresh.spatial.stations(in: sample).map(\.key))
        let odawara = Coordinate(lat: 35.2564, lon: 139.1553)
        let nearest = try store.spatial.nearest(to: odawara, k: 5)
        #expect(nearest.map(\.station.key) == ["hakone-tozan/c/小田原", "odakyu/c/小田原", "jr-central/s/小田原",
                                                "jr-east/c/小田原", "izuhakone/c/小田原"])
        #expect(try nearest.map { StationDistance(station: same($0.station), distance: $0.distance) }
                == fresh.spatial.nearest(to: odawara, k: 5).map { StationDistance(station: same($0.station), distance: $0.distance) })

        // Search: names, a line, an operator, prefix and 1- and 2-character partial queries.
        // N02 has no readings, so おだわら finds nothing in either file.
        let queries: [(String, SearchOptions, Int)] = [
            ("小田原", SearchOptions(limit: nil), 8), ("東京", SearchOptions(limit: nil), 16),
            ("おだわら", SearchOptions(limit: nil), 0), ("大雄山線", SearchOptions(by: .line, limit: nil), 8),
            ("箱根登山鉄道", SearchOptions(by: .operator, limit: nil), 5),
            ("小田", SearchOptions(by: .name, limit: nil), 5),
            ("田原", SearchOptions(by: .name, match: .partial, limit: nil), 5),
            ("原", SearchOptions(by: .name, match: .partial, limit: nil), 6)]
        for (q, o, n) in queries {
            let hits = try store.search.stations(matching: q, options: o)
            #expect(hits.count == n, "\(q)")
            func compared(_ h: [SearchHit]) -> [SearchHit] { h.map { var x = $0; x.station = same(x.station); return x } }
            #expect(try compared(hits) == compared(fresh.search.stations(matching: q, options: o)), "\(q)")
        }

        // Lines, and each line's stops in order.
        let lines = try store.lines.all(includeClosed: true)
        #expect(lines.count == 18)
        #expect(lines == (try fresh.lines.all(includeClosed: true)))
        func stops(_ s: StationStore, _ id: String) throws -> [String] {
            let d = try #require(try s.lines.line(id: id))
            return d.stops.map { "\($0.station.key) \($0.branch) \($0.order.map(String.init) ?? "-")" } + [d.section ?? "-"]
        }
        for l in lines { #expect(try stops(store, l.id) == stops(fresh, l.id), "\(l.id)") }

        // And it takes the same import again as an unchanged one.
        let batch = try N02CSVImporter(path: TestPaths.package("Datasets/n02-odawara-tokyo.csv")).read()
        // The first derives the entries again (the file has no `DerivationStamp`: an older eki's
        // rules made them), keeping every key; the next is unchanged.
        let first = try store.importBatches([("n02", batch.records)]).merge
        #expect(first.added == 0 && first.retired == 0 && first.merged == 0 && first.updated + first.unchanged == 39, "\(first)")
        let summary = try store.importBatches([("n02", batch.records)])
        #expect(summary.merge == MergeSummary(unchanged: 39), "\(summary.merge)")
        #expect(try Self.strings(db, "SELECT fid || ' ' || key FROM stations ORDER BY fid") == before.fids)
    }

    /// An upgrade stopped after its last step, before the derived tables were written: a
    /// read-only open says the upgrade is unfinished, the next writable open writes them.
    @Test func anUpgradeStoppedBeforeTheRebuildIsFinishedByTheNextWritableOpen() throws {
        let path = try Self.copy(2)
        do {
            let db = try Database(path: path)
            #expect(try Migrator.migrate(db) == Set(DerivedData.allCases))
            #expect(try Migrator.version(db) == Schema.version)
            #expect(try Self.strings(db, "SELECT value FROM eki_meta WHERE name = 'stale_derived'") == ["kinds,lines,rtree,search"])
        }
        #expect {
            try StationStore(path: path, readOnly: true)
        } throws: { error in
            guard case SchemaUpgradeError.unfinished(path) = error else { return false }
            return "\(error)".hasPrefix("\(path) was left mid-upgrade by a command that stopped")
        }
        let store = try StationStore(path: path)
        #expect(try Migrator.stale(store.db).isEmpty)
        #expect(try Self.strings(store.db, "SELECT rtreecheck('rtree_stations_geom')") == ["ok"])
        #expect(try store.search.stations(matching: "小田原").count == 8)
        #expect(try store.lines.all().count == 18)
        #expect(try StationStore(path: path, readOnly: true).spatial.nearest(to: Coordinate(lat: 35.2564, lon: 139.1553), k: 5).count == 5)
    }
}
