import Testing
import Foundation
import EkiKit
import EkiImport
import EkiTestSupport

/// `StationStore.close()`: what was written is in the file for the next connection, and a
/// second close does nothing.
@Suite struct StationStoreCloseTests {
    let dir = TestPaths.temporaryDirectory()

    @Test func closeKeepsWhatWasWritten() throws {
        let path = dir.appendingPathComponent("close.gpkg").path
        let store = try StationStore(path: path)
        try store.importRecords(try N02CSVImporter(path: TestPaths.package("Datasets/n02-odawara-tokyo.csv")).read().records, dataset: "n02")
        store.close()
        store.close()
        let again = try StationStore(path: path, readOnly: true)
        #expect(try again.entries.count() == 39)
        #expect(try again.entries.station(key: "odakyu/c/小田原")?.name == "小田原")
        again.close()
    }
}
