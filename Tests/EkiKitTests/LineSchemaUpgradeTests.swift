import Testing
import Foundation
import EkiKit
import EkiSQLite
import EkiImport
import EkiTestSupport

/// A database written before the line table (schema version 3): a read-only open says how it
/// gets upgraded; the first open that may write upgrades it in place and builds the lines.
@Suite struct LineSchemaUpgradeTests {
    @Test func versionThreeReadOnlyIsAPlainMessageThenUpgradedByAWritableOpen() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("v3.gpkg").path
        let batch = try N02CSVImporter(path: TestPaths.package("Datasets/n02-odawara-tokyo.csv")).read()
        do {
            let store = try StationStore(path: path)
            try store.importRecords(batch.records, dataset: "n02")
        }
        do {   // as version 3 wrote it: no line tables
            let db = try Database(path: path)
            try db.execute("DROP TABLE line_aliases; DROP TABLE line_stations; DROP TABLE lines; UPDATE eki_meta SET value = '3' WHERE name = 'schema_version';")
        }
        #expect(throws: StoreError.self) { try StationStore(path: path, readOnly: true) }
        do {
            _ = try StationStore(path: path, readOnly: true)
        } catch {
            // (the current version number is left out: it moves with the schema)
            let text = "\(error)"
            #expect(text.hasPrefix("\(path) has schema version 3, older than this eki's "))
            #expect(text.hasSuffix("; read-only commands do not change it: the next `eki import --db \(path) …` upgrades it in place, keeping its entries"))
        }
        let upgraded = try StationStore(path: path)
        #expect(upgraded.lines.exists)
        #expect(try upgraded.lines.all().count == 18)
        #expect(try StationStore(path: path, readOnly: true).info.summary().entries == 39)
    }
}
