import Testing
import Foundation
@testable import EkiKit
@testable import EkiImport
import EkiTestSupport

/// Cross-source merge, stable keys through refreshes, and the official N02 GeoJSON.
@Suite(.serialized) struct MergeTests {
    let dir = TestPaths.temporaryDirectory()

    func store(_ name: String) throws -> StationStore {
        try StationStore(path: dir.appendingPathComponent(name).path)
    }

    func record(_ dataset: String, _ id: String, _ name: String, _ op: String, _ lat: Double, _ lon: Double,
                line: String = "L") -> SourceRecord {
        SourceRecord(source: SourceRef(dataset: dataset, id: id), name: name, operatorName: op,
                     serviceClass: .conventional, lines: [line], coordinate: Coordinate(lat: lat, lon: lon))
    }

    static let n02GeoJSON = "datasets/csv-n02-2023-stations-ksj/N02-23_Station.sjis.geojson"

    /// The Shift_JIS GeoJSON as MLIT ships it (escaped 0x5C trail bytes, U+FA10) gives the
    /// same entries as the UTF-8 CSV derived from it; points agree to the CSV's 6 decimals.
    @Test(.needsShared(TestPaths.n02CSVFile, MergeTests.n02GeoJSON)) func officialGeoJSONEqualsCSV() throws {
        let a = EntryRule().entries(from: RealData.n02Records)
        let b = EntryRule().entries(from: try N02GeoJSONImporter(path: TestPaths.requireShared(Self.n02GeoJSON)).read().records)
        #expect(b.count == 9_587)   // 9,590 by N02's own operators; see StationStoreTests.rawOperatorCount
        #expect(a.map(\.key) == b.map(\.key))
        #expect(a.map(\.name) == b.map(\.name))
        #expect(a.map(\.lines) == b.map(\.lines))
        for (x, y) in zip(a, b) {
            #expect(abs(x.coordinate.lat - y.coordinate.lat) < 1e-6 && abs(x.coordinate.lon - y.coordinate.lon) < 1e-6)
        }
        #expect(b.contains { $0.name == "能登中島" })
        #expect(b.contains { $0.name == "笹\u{FA10}" })
    }

    @Test func trailByteBackslashIsDropped() {
        // 能 (0x94 0x5C) written with an escaping backslash, then `"`.
        #expect(N02GeoJSONImporter.dropEscapedTrailBackslashes([0x94, 0x5C, 0x5C, 0x22]) == [0x94, 0x5C, 0x22])
        // A real escaped backslash in ASCII stays.
        #expect(N02GeoJSONImporter.dropEscapedTrailBackslashes([0x5C, 0x5C]) == [0x5C, 0x5C])
    }

    /// Importing N02 and station_database in either order gives the same keys.
    @Test(.needsN02AndStationDatabase) func eitherOrderSameKeys() throws {
        let n02 = RealData.n02Records
        let sdb = RealData.stationDatabase.records
        let a = try store("a.gpkg"), b = try store("b.gpkg")
        try a.importRecords(n02, dataset: "n02")
        try a.importRecords(sdb, dataset: "station-database")
        try b.importRecords(sdb, dataset: "station-database")
        try b.importRecords(n02, dataset: "n02")
        let ka = try a.entries.all().map(\.key), kb = try b.entries.all().map(\.key)
        #expect(ka.count > 9_590)
        #expect(ka == kb)
        // Idempotent: the same file again changes nothing.
        let again = try a.importRecords(sdb, dataset: "station-database")
        #expect(again.entries == 9_972)   // the reconciled rows: KTR joins WILLER TRAINS, N02 decides operators (SourceReconciler)
        let result = try a.importBatches([("station-database", sdb)])
        #expect(result.merge == MergeSummary(added: 0, updated: 0, unchanged: ka.count, retired: 0, merged: 0))
    }

    /// A next edition of a source: a renamed station keeps its key and records the old name;
    /// a moved one keeps its key; a removed one is retired with the date, not deleted; a new
    /// one is added.
    @Test func nextEditionKeepsKeys() throws {
        let s = try store("edition.gpkg")
        let first = [record("n02", "1", "江北", "東京都", 35.7670, 139.7700),
                     record("n02", "2", "鴨宮", "東日本旅客鉄道", 35.2690, 139.1770),
                     record("n02", "3", "螢田", "小田急電鉄", 35.2730, 139.1420)]
        try s.importBatches([("n02", first)], today: "2026-01-01")
        let keys = try s.entries.all().map(\.key)
        #expect(keys == ["jr-east/c/鴨宮", "odakyu/c/螢田", "toei/c/江北"])
        let next = [record("n02", "1", "江北六丁目", "東京都", 35.7670, 139.7700),     // renamed
                    record("n02", "2", "鴨宮", "東日本旅客鉄道", 35.2717, 139.1770),   // moved 300 m north
                    record("n02", "4", "新駅", "東日本旅客鉄道", 35.3000, 139.2000)]   // added; 3 removed
        let result = try s.importBatches([("n02", next)], today: "2026-11-29")
        #expect(result.merge == MergeSummary(added: 1, updated: 2, unchanged: 0, retired: 1, merged: 0))
        let renamed = try #require(try s.entries.station(key: "toei/c/江北"))
        #expect(renamed.name == "江北六丁目")
        #expect(renamed.formerNames == ["江北"])
        let moved = try #require(try s.entries.station(key: "jr-east/c/鴨宮"))
        #expect(abs(moved.coordinate.lat - 35.2717) < 1e-9)
        let gone = try #require(try s.entries.station(key: "odakyu/c/螢田"))
        #expect(gone.retired == "2026-11-29")
        #expect(!gone.isOpen)
        #expect(try s.spatial.stations(in: BoundingBox(minLon: 139, minLat: 35, maxLon: 140, maxLat: 36)).count == 3)
        #expect(try s.entries.station(key: "jr-east/c/新駅") != nil)
        // The station coming back revives the retired entry under its key.
        try s.importBatches([("n02", next + [first[2]])], today: "2026-12-01")
        #expect(try s.entries.station(key: "odakyu/c/螢田")?.retired == nil)
    }

    /// Queries on a store see what the same store has just imported (the R-tree node copy the
    /// lean queries keep follows SQLITE_FCNTL_DATA_VERSION, which counts this connection's own
    /// commits too).
    @Test func queriesSeeTheStoresOwnImports() throws {
        let s = try store("fresh.gpkg")
        try s.importBatches([("a", [record("a", "1", "遠い", "O", 35.10, 139.0)])])
        let p = Coordinate(lat: 35.0, lon: 139.0)
        #expect(try s.spatial.nearest(to: p, k: 1).map(\.station.name) == ["遠い"])
        try s.importBatches([("b", [record("b", "1", "近い", "O", 35.001, 139.0)])])
        #expect(try s.spatial.nearest(to: p, k: 1).map(\.station.name) == ["近い"])
        #expect(try s.spatial.stations(in: BoundingBox(minLon: 138.9, minLat: 34.9, maxLon: 139.1, maxLat: 35.2), limit: 1).map(\.name) == ["近い"])
    }

    /// Two entries that a later row joins become one; the younger key becomes an alias that
    /// still resolves.
    @Test func mergedEntriesLeaveAnAlias() throws {
        let s = try store("alias.gpkg")
        try s.importBatches([("a", [record("a", "1", "X", "O", 35.000, 139.0)])])
        try s.importBatches([("b", [record("b", "1", "X", "O", 35.018, 139.0)])])      // 2 km away
        let keys = try s.entries.all().map(\.key)
        #expect(keys.count == 2)
        // Once two entries share operator, class and name, both keys carry the place; the first
        // entry's plain key stays as an alias.
        #expect(keys.allSatisfy { $0.hasPrefix("o/c/x@") })
        let first = try s.db.scalarInt("SELECT fid FROM stations WHERE key = ?", [.text(keys[0])])!
        let older = first == 1 ? keys[0] : keys[1], younger = first == 1 ? keys[1] : keys[0]
        // A row between them links both (single-link within 1.5 km).
        let r = try s.importBatches([("c", [record("c", "1", "X", "O", 35.009, 139.0)])])
        #expect(r.merge.merged == 1)
        let all = try s.entries.all()
        #expect(all.map(\.key) == [older])
        #expect(all[0].sources.map(\.description) == ["a:1", "b:1", "c:1"])
        #expect(try s.entries.resolve(key: younger)?.key == older)
        #expect(try s.entries.resolve(key: "o/c/x")?.key == older)
    }
}
