import Foundation
import Testing
import EkiKit
import EkiTestSupport

/// A box with west > east crosses the antimeridian (RFC 7946 §5.2): what lies on both sides of
/// 180° is in it, given as a bbox or made by `--place --span` near 180°.
@Suite struct AntimeridianBoxTests {
    let dir = TemporaryDirectory()

    /// Three stations: 179.9° E and 179.9° W (21 km apart across 180°), and one at 170° E.
    func database() throws -> String {
        let csv = dir.file("fiji.csv"), db = dir.file("fiji.gpkg")
        try "name,lat,lon\nWestside,-17,179.9\nEastside,-17,-179.9\nFaraway,-17,170\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let r = eki("import", "--db", db, csv)
        #expect(r.status == 0, "\(r.err)")
        return db
    }

    func names(_ r: EkiRun) throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]] ?? []
        return json.compactMap { $0["name"] as? String }.sorted()
    }

    @Test func westGreaterThanEastIsABoxAcross180() throws {
        let db = try database()
        let r = eki("bbox", "--db", db, "179.5,-18,-179.5,-16", "--format", "json")
        #expect(r.status == 0, "\(r.err)")
        #expect(try names(r) == ["Eastside", "Westside"])
        // Either side alone, as before.
        #expect(try names(eki("bbox", "--db", db, "179.5,-18,180,-16", "--format", "json")) == ["Westside"])
        #expect(try names(eki("bbox", "--db", db, "-180,-18,-179.5,-16", "--format", "json")) == ["Eastside"])
        // `search --bbox` too.
        for name in ["Westside", "Eastside"] {
            let s = eki("search", "--db", db, name, "--bbox", "179.5,-18,-179.5,-16", "--format", "json")
            #expect(s.status == 0, "\(s.err)")
            #expect(try names(s) == [name], "\(s.out)")
        }
        #expect(try names(eki("search", "--db", db, "Faraway", "--bbox", "179.5,-18,-179.5,-16", "--format", "json")) == [])
    }

    @Test func placeAndSpanNear180MakeABoxAcrossIt() throws {
        let db = try database()
        let r = eki("bbox", "--db", db, "--place", "Westside", "--provider", "stations", "--span", "50000", "--format", "json")
        #expect(r.status == 0, "\(r.err)")
        #expect(try names(r) == ["Eastside", "Westside"])
        let box = BoundingBox(around: Coordinate(lat: -17, lon: 179.9), width: 50_000, height: 50_000)
        #expect(box.crossesAntimeridian)
        #expect((box.minLon * 1000).rounded() == 179_665 && (box.maxLon * 1000).rounded() == -179_865)
        #expect(box.contains(Coordinate(lat: -17, lon: -179.9)) && !box.contains(Coordinate(lat: -17, lon: 170)))
    }

    @Test func latitudesOutOfOrderAreStillRefused() {
        let r = eki("bbox", "--db", dir.file("none.gpkg"), "139,36,140,35")
        #expect(r.status == 64)
        #expect(r.err == "eki bbox: invalid bbox '139,36,140,35': minLat greater than maxLat (order is minLon,minLat,maxLon,maxLat)\n", "\(r.err)")
    }
}
