import EkiImport
import EkiKit
import EkiRender
import EkiTestSupport
import Foundation

/// The N02 sample in Datasets/ (54 rows → 39 entries around 小田原 and 東京), imported once per
/// test process, and the box around 小田原 the sample was cut with.
enum Sample {
    static let database: String = {
        let path = TestPaths.temporaryDirectory().appendingPathComponent("sample.gpkg").path
        let batch = try! N02CSVImporter(path: TestPaths.package("Datasets/n02-odawara-tokyo.csv")).read()
        try! StationStore(path: path).importRecords(batch.records, dataset: batch.dataset)
        return path
    }()

    /// lon 139.10–139.20, lat 35.22–35.30: 21 rows, 17 entries' names (小田原 is 5 entries).
    static let odawara = BoundingBox(minLon: 139.10, minLat: 35.22, maxLon: 139.20, maxLat: 35.30)

    /// The open entries the 1200×800 picture of `odawara` shows.
    static func stations(_ box: BoundingBox = odawara, width: Int = 1200, height: Int = 800) throws -> [Station] {
        let store = try StationStore(path: database, readOnly: true)
        return try store.spatial.stations(in: MapViewport(fitting: box, width: width, height: height).visibleBox)
    }

    /// Renders and reads the PNG back with cairo.
    static func draw(_ request: MapRequest, _ stations: [Station], visited: Set<String> = []) throws -> (MapPicture, PNGImage) {
        let picture = try MapRenderer.render(request, stations: stations) { visited.contains($0) }
        return (picture, try PNGImage(data: try picture.png()))
    }
}
