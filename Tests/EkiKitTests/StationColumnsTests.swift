import Testing
import Foundation
@testable import EkiKit
import EkiSQLite
import EkiImport
import EkiTestSupport

/// `StationColumns`, the one declaration of the `stations` columns: the table a fresh file has
/// is the declared one, and what is written through it reads back as the same entry.
@Suite struct StationColumnsTests {
    let dir = TestPaths.temporaryDirectory()

    @Test func declaredColumnsAreTheTable() throws {
        let store = try StationStore(path: dir.appendingPathComponent("fresh.gpkg").path)
        let info = try store.db.prepare("SELECT name FROM pragma_table_info('stations') ORDER BY cid")
        var names: [String] = []
        while try info.step() { names.append(info.text(0)) }
        #expect(names == ["fid", "geom", "key", "base_key", "name", "reading", "latin_name", "operator", "operator_ref",
                          "operator_id", "class", "lines", "prefecture", "open", "lon", "lat", "former_names", "retired", "kind"])
        #expect(StationColumns.insertSQL == "INSERT INTO stations (geom, key, base_key, name, reading, latin_name, operator, "
            + "operator_ref, operator_id, class, lines, prefecture, open, lon, lat, former_names, retired, kind) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
        #expect(StationColumns.updateSQL.hasSuffix("kind = ? WHERE fid = ?"))
        #expect(StationColumns.count == 17)      // read back: all but geom and base_key, with the sources
    }

    @Test func writtenEntriesReadBackWhole() throws {
        let store = try StationStore(path: dir.appendingPathComponent("sample.gpkg").path)
        try store.importRecords(try N02CSVImporter(path: TestPaths.package("Datasets/n02-odawara-tokyo.csv")).read().records, dataset: "n02")
        let odawara = try #require(try store.entries.station(key: "odakyu/c/小田原"))
        #expect(odawara.sources == [SourceRef(dataset: "n02", id: "005215")])
        #expect(odawara.coordinate == Coordinate(lat: 35.256355, lon: 139.155430))
        // A changed copy written through the declaration (an update, as an import does) reads back equal.
        var changed = odawara
        changed.reading = "おだわら"
        changed.latinName = "Odawara"
        changed.formerNames = ["旧小田原"]
        changed.kind = .seasonal
        changed.retired = "2026-12-02"
        changed.isOpen = false
        changed.coordinate = Coordinate(lat: 35.25, lon: 139.15)
        let fid = try #require(try store.entries.fids(keys: [odawara.key]).first)
        let update = try store.db.prepare(StationColumns.updateSQL)
        StationColumns.bind(changed, baseKey: odawara.key, to: update)
        StationColumns.bindFid(fid, to: update)
        try update.runBound()
        #expect(try store.entries.station(fid: fid) == changed)
        #expect(try store.db.scalarInt("SELECT base_key IS NULL FROM stations WHERE fid = \(fid)") == 1)
        #expect(try store.db.scalarInt("SELECT kind = 'seasonal' FROM stations WHERE fid = \(fid)") == 1)
    }
}
