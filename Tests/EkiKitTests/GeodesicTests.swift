import Testing
import Foundation
@testable import EkiKit
import EkiTestSupport

@Suite struct GeodesicTests {
    /// GeographicLib reference geodesics (Karney's test set, 1-in-50 subsample of 100 lines):
    /// every line under 1,000 km within 0.5 %, and in fact within 1 mm.
    @Test(.needsShared("peer-suites/geodesic/GeodTest-100.dat"))
    func agreesWithGeographicLibUnder1000km() throws {
        let path = TestPaths.requireShared("peer-suites/geodesic/GeodTest-100.dat")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        var checked = 0
        var worst = 0.0
        for line in lines {
            let f = line.split(separator: " ").map { Double($0)! }
            let (lat1, lon1, lat2, lon2, s12) = (f[0], f[1], f[3], f[4], f[6])
            guard s12 < 1_000_000 else { continue }
            let d = Geodesic.distance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
            #expect(abs(d - s12) <= 0.005 * s12, "line \(line): \(d) vs \(s12)")
            worst = max(worst, abs(d - s12))
            checked += 1
        }
        #expect(checked == 9)  // the lines of GeodTest-100 shorter than 1,000 km
        #expect(worst < 0.001, "worst absolute error \(worst) m")
    }

    /// The 20 test cases of geographiclib-python (lon2 may lie outside ±180: reduced mod 360).
    @Test(.needsShared("peer-suites/geodesic/python-testcases-wgs84.csv"))
    func agreesWithGeographicLibPythonCases() throws {
        let path = TestPaths.requireShared("peer-suites/geodesic/python-testcases-wgs84.csv")
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        var checked = 0
        for row in rows {
            let f = row.split(separator: ",").map { Double($0)! }
            let d = Geodesic.distance(lat1: f[0], lon1: f[1], lat2: f[3], lon2: f[4])
            // Vincenty falls back to a sphere only for nearly antipodal points (< 0.5 % there).
            #expect(abs(d - f[6]) <= 0.005 * f[6], "row \(row)")
            checked += 1
        }
        #expect(checked == 20)
    }

    @Test func knownDistances() {
        // 東京 → 新大阪 (N02 points), about 403 km along the ellipsoid.
        let tokyo = Coordinate(lat: 35.681103, lon: 139.767880)
        let shinOsaka = Coordinate(lat: 34.733479, lon: 135.500240)
        let d = Geodesic.distance(tokyo, shinOsaka)
        #expect(d > 400_000 && d < 405_000)
        #expect(Geodesic.distance(tokyo, tokyo) == 0)
        // Symmetric.
        #expect(abs(Geodesic.distance(shinOsaka, tokyo) - d) < 1e-6)
    }

    @Test func enclosingBoxHoldsTheCircle() {
        let c = Coordinate(lat: 43.0, lon: 141.3)
        let box = BoundingBox(enclosing: c, radius: 10_000)
        // Points 10 km away in the four directions lie inside.
        for (dLat, dLon) in [(0.0898, 0.0), (-0.0898, 0.0), (0.0, 0.1225), (0.0, -0.1225)] {
            let p = Coordinate(lat: c.lat + dLat, lon: c.lon + dLon)
            #expect(Geodesic.distance(c, p) <= 10_000)
            #expect(box.contains(p))
        }
    }
}
