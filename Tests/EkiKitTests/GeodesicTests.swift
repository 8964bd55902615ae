import Testing
import Foundation
@testable import EkiKit
import EkiTestSupport

@Suite struct GeodesicTests {
    /// GeographicLib reference geodesics (Karney's test set, the 100-line sample of
    /// GeodTest-short): every line within 1 µm, nearly antipodal and long lines included.
    @Test(.needsShared("peer-suites/geodesic/GeodTest-100.dat"))
    func agreesWithGeodTestWithinAMicrometre() throws {
        let path = TestPaths.requireShared("peer-suites/geodesic/GeodTest-100.dat")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        var worst = 0.0
        for line in lines {
            let f = line.split(separator: " ").map { Double($0)! }
            let (lat1, lon1, lat2, lon2, s12) = (f[0], f[1], f[3], f[4], f[6])
            let d = try Geodesic.distance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
            #expect(abs(d - s12) <= 1e-6, "line \(line): \(d) vs \(s12)")
            worst = max(worst, abs(d - s12))
        }
        #expect(lines.count == 100)
        #expect(worst <= 1e-6, "worst absolute error \(worst) m")
    }

    /// The 20 test cases of geographiclib-python (lon2 may lie outside ±180: reduced mod 360),
    /// within 1 µm (upstream's own tolerance is 10 nm).
    @Test(.needsShared("peer-suites/geodesic/python-testcases-wgs84.csv"))
    func agreesWithGeographicLibPythonCases() throws {
        let path = TestPaths.requireShared("peer-suites/geodesic/python-testcases-wgs84.csv")
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        var checked = 0
        for row in rows {
            let f = row.split(separator: ",").map { Double($0)! }
            let d = try Geodesic.distance(lat1: f[0], lon1: f[1], lat2: f[3], lon2: f[4])
            #expect(abs(d - f[6]) <= 1e-6, "row \(row): \(d)")
            checked += 1
        }
        #expect(checked == 20)
    }

    /// Karney's regression cases (GeodSolve*) for the inverse problem on WGS84: each s12 within
    /// the row's tolerance (the expected values are printed rounded: 0.5 m, 0.5 mm or 5 nm), and
    /// the NaN-input rows refused. Rows on other ellipsoids (sphere, prolate) are not EkiKit's.
    @Test(.needsShared("peer-suites/geodesic/geodsolve-regressions.csv"))
    func agreesWithGeodSolveRegressions() throws {
        let path = TestPaths.requireShared("peer-suites/geodesic/geodsolve-regressions.csv")
        let rows = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        var checked = 0, refused = 0
        for row in rows {
            let f = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f[1] == "6378137", f[2] == "1/298.257223563", f[3] == "inverse", f[9] == "s12" else { continue }
            let (lat1, lon1, lat2, lon2) = (Double(f[4])!, Double(f[5])!, Double(f[6])!, Double(f[7])!)
            if f[10] == "nan" {
                #expect(throws: GeodesicError.self, "row \(f[0])") {
                    try Geodesic.distance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
                }
                refused += 1
            } else {
                let d = try Geodesic.distance(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
                #expect(abs(d - Double(f[10])!) <= Double(f[11])!, "row \(f[0]): \(d)")
                checked += 1
            }
        }
        #expect(checked == 14)
        #expect(refused == 3)
    }

    /// Along the equator to the antipode: the geodesic runs over a pole, 20,003,931.4586 m
    /// (GeographicLib's GeodSolve33c; Vincenty with a sphere fallback was 11 km off).
    @Test func equatorToAntipode() throws {
        let d = try Geodesic.distance(lat1: 0, lon1: 0, lat2: 0, lon2: 180)
        #expect(abs(d - 20_003_931.4586) < 1e-3, "\(d)")
    }

    /// NaN, infinite and out-of-range input throws, naming the point; it never returns a number.
    @Test func refusesImpossibleInput() throws {
        #expect(throws: GeodesicError.latitudeOutOfRange(point: 1, lat: 90.5)) {
            try Geodesic.distance(lat1: 90.5, lon1: 0, lat2: 35, lon2: 139)
        }
        #expect(throws: GeodesicError.latitudeOutOfRange(point: 2, lat: -91)) {
            try Geodesic.distance(Coordinate(lat: 35, lon: 139), Coordinate(lat: -91, lon: 0))
        }
        #expect(throws: GeodesicError.notFinite(point: 2, lat: 35, lon: .infinity)) {
            try Geodesic.distance(lat1: 35, lon1: 139, lat2: 35, lon2: .infinity)
        }
        #expect(throws: GeodesicError.self) {
            try Geodesic.distance(lat1: .nan, lon1: 139, lat2: 35, lon2: 139)
        }
        let message = String(describing: GeodesicError.latitudeOutOfRange(point: 1, lat: 90.5))
        #expect(message == "geodesic distance: point 1 has latitude 90.5, outside -90...90 degrees")
        // Longitudes outside ±180 are the same meridians (mod 360).
        #expect(try Geodesic.distance(lat1: 35, lon1: 139 + 360, lat2: 35, lon2: 139) == 0)
    }

    @Test func knownDistances() throws {
        // 東京 → 新大阪 (N02 points), about 403 km along the ellipsoid.
        let tokyo = Coordinate(lat: 35.681103, lon: 139.767880)
        let shinOsaka = Coordinate(lat: 34.733479, lon: 135.500240)
        let d = try Geodesic.distance(tokyo, shinOsaka)
        #expect(d > 400_000 && d < 405_000)
        #expect(try Geodesic.distance(tokyo, tokyo) == 0)
        // Symmetric.
        #expect(abs(try Geodesic.distance(shinOsaka, tokyo) - d) < 1e-6)
    }

    @Test func enclosingBoxHoldsTheCircle() throws {
        let c = Coordinate(lat: 43.0, lon: 141.3)
        let box = BoundingBox(enclosing: c, radius: 10_000)
        // Points 10 km away in the four directions lie inside.
        for (dLat, dLon) in [(0.0898, 0.0), (-0.0898, 0.0), (0.0, 0.1225), (0.0, -0.1225)] {
            let p = Coordinate(lat: c.lat + dLat, lon: c.lon + dLon)
            #expect(try Geodesic.distance(c, p) <= 10_000)
            #expect(box.contains(p))
        }
    }
}
