import Testing
import Foundation
import EkiKit
import EkiSQLite
import EkiImport
import EkiTestSupport

/// An import of the same rows derives nothing again, unless the entries were derived with other
/// rules or tables (`DerivationStamp`): then a newer eki brings the database up to date.
@Suite struct DerivationStampTests {
    @Test func sameRowsAreDerivedAgainOnlyUnderAnotherStamp() throws {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("stamp.gpkg").path
        let batch = try N02CSVImporter(path: TestPaths.package("Datasets/n02-odawara-tokyo.csv")).read()
        let store = try StationStore(path: path)
        try store.importRecords(batch.records, dataset: "n02")
        #expect(try store.info.derivationStamp() == DerivationStamp.current)
        #expect(DerivationStamp.current.hasPrefix("\(DerivationStamp.rulesVersion)-") && DerivationStamp.current.count == 18)
        // A name the rules would not give: the same rows under the same stamp leave it.
        let side = store.db
        try side.execute("UPDATE stations SET name = '小田原X' WHERE key = 'jr-east/c/小田原'")
        try store.importRecords(batch.records, dataset: "n02")
        #expect(try store.entries.resolve(key: "jr-east/c/小田原")?.name == "小田原X")
        // Under another stamp (an older eki's) the entries are derived again.
        try side.execute("UPDATE eki_meta SET value = '0-0000000000000000' WHERE name = 'derivation'")
        try store.importRecords(batch.records, dataset: "n02")
        #expect(try store.entries.resolve(key: "jr-east/c/小田原")?.name == "小田原")
        #expect(try store.info.derivationStamp() == DerivationStamp.current)
    }
}
