import Testing
import Foundation
import EkiCLI
import EkiTestSupport

@Suite(.serialized) struct ImportAndQueryTests {
    let dir = TestPaths.temporaryDirectory()
    func db(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// The README demo: the N02 sample in Datasets/ (54 rows around 小田原 and 東京).
    @Test func demoFromDatasets() throws {
        let path = db("demo.gpkg")
        let r = eki("import", "--db", path, TestPaths.package("Datasets/n02-odawara-tokyo.csv"))
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("n02: 54 rows → 39 entries\n"))
        let near = eki("nearest", "--db", path, "--lat", "35.2564", "--lon", "139.1553", "-k", "5", "--format", "csv")
        #expect(near.status == 0)
        let rows = near.out.split(separator: "\r\n").dropFirst()
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0.split(separator: ",")[1] == "小田原" })
        let bbox = eki("bbox", "--db", path, "139.755,35.672,139.775,35.690", "--format", "json")
        #expect(bbox.out.components(separatedBy: "\"name\": \"東京\"").count - 1 == 4)
    }

    /// The "done when": the real N02 file, the five 小田原 entries and the 東京 viewport.
    @Test(.needsN02) func doneWhenOnRealN02() throws {
        let csv = TestPaths.requireShared(TestPaths.n02CSVFile)
        let path = db("n02.gpkg")
        let imp = eki("import", "--db", path, csv)
        #expect(imp.status == 0)
        #expect(imp.out.hasPrefix("n02: 10240 rows → 9587 entries\n"))
        let near = eki("nearest", "--db", path, "--lat", "35.2564", "--lon", "139.1553", "-k", "5")
        let lines = near.out.split(separator: "\n")
        #expect(lines.count == 7)   // header, five entries, count
        // 箱根登山鉄道 and 小田急電鉄 share a point: ties are broken by key (hakone-tozan < odakyu).
        let operators = ["箱根登山鉄道", "小田急", "JR東海", "JR東日本", "伊豆箱根鉄道"]   // short names in tables
        for (line, op) in zip(lines.dropFirst(), operators) {
            #expect(line.contains("小田原") && line.contains(op), "\(line)")
        }
        let geo = eki("bbox", "--db", path, "139.74,35.67,139.78,35.69", "--format", "geojson")
        let json = try JSONSerialization.jsonObject(with: Data(geo.out.utf8)) as! [String: Any]
        #expect(json["type"] as? String == "FeatureCollection")
        let features = json["features"] as! [[String: Any]]
        #expect(features.count == 30)
        let tokyo = features.filter { ($0["properties"] as! [String: Any])["name"] as? String == "東京" }
        #expect(tokyo.count == 4)
        let first = tokyo[0]["properties"] as! [String: Any]
        for key in ["key", "name", "reading", "operator", "operator_id", "class", "lines", "prefecture", "sources"] {
            #expect(first.keys.contains(key), "missing \(key)")
        }
        let coords = (tokyo[0]["geometry"] as! [String: Any])["coordinates"] as! [Double]
        #expect(abs(coords[0] - 139.767) < 0.01 && abs(coords[1] - 35.681) < 0.01)   // [lon, lat]
    }

    /// ogrinfo (GDAL) opens the file as a GeoPackage and its spatial filter returns the same
    /// entries as `eki bbox`.
    @Test(.needsTool("ogrinfo", package: "gdal-bin")) func ogrinfoReadsTheGeoPackage() throws {
        let path = db("ogr.gpkg")
        #expect(eki("import", "--db", path, TestPaths.package("Datasets/n02-odawara-tokyo.csv")).status == 0)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Tools.path(of: "ogrinfo")!)
        p.arguments = ["-ro", "-q", path, "stations", "-spat", "139.755", "35.672", "139.775", "35.690"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let ogrKeys = text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("key (String) = ") }
            .map { String($0.split(separator: "=", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)) }.sorted()
        let eki = eki("bbox", "--db", path, "139.755,35.672,139.775,35.690", "--format", "csv")
        let ekiKeys = eki.out.split(separator: "\r\n").dropFirst().map { String($0.split(separator: ",")[0]) }.sorted()
        #expect(ogrKeys.count == 18)
        #expect(ogrKeys == ekiKeys)
    }

    static let n02CP932 = "datasets/csv-n02-2023-stations-ksj/N02-23_Station.cp932.csv"

    /// The CP932/CRLF file gives the same database as the UTF-8 one.
    @Test(.needsShared(TestPaths.n02CSVFile, ImportAndQueryTests.n02CP932), .needsTool("sqlite3"))
    func cp932EqualsUTF8() throws {
        let utf8 = TestPaths.requireShared(TestPaths.n02CSVFile)
        let cp932 = TestPaths.requireShared(Self.n02CP932)
        #expect(eki("import", "--db", db("u.gpkg"), utf8).status == 0)
        #expect(eki("import", "--db", db("c.gpkg"), cp932).status == 0)
        let a = try dump(db("u.gpkg")), b = try dump(db("c.gpkg"))
        #expect(a.count > 100_000)
        #expect(a == b)
    }

    /// A malformed CSV stops the import with file, line and column, exits 1, and leaves the
    /// database byte for byte as it was.
    @Test func malformedCSVLeavesDatabaseUnchanged() throws {
        let path = db("keep.gpkg")
        #expect(eki("import", "--db", path, TestPaths.package("Datasets/n02-odawara-tokyo.csv")).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let cases: [(String, String, String)] = [
            ("unclosed.csv", "N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat\n11,2,\"東海道線,東日本旅客鉄道,東京,1,1,139.7,35.6\n", "unclosed.csv:2:3: quoted field is never closed"),
            ("ragged.csv", "N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat\n11,2,東海道線,東日本旅客鉄道,東京,1,1,139.7,35.6\n11,2,東海道線,東日本旅客鉄道,有楽町,2,2,139.7\n", "ragged.csv:3: row has 8 fields, the header has 9"),
            ("badlat.csv", "N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat\n11,2,東海道線,東日本旅客鉄道,東京,1,1,139.7,abc\n", "badlat.csv:2:9: lat: 'abc' is not a number"),
            ("range.csv", "N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat\n11,2,東海道線,東日本旅客鉄道,東京,1,1,239.7,35.6\n", "range.csv:2:8: lon: longitude 239.7 is outside -180...180"),
            ("badbytes.csv", "name,lat,lon\n\u{FFFD}", "badbytes.csv:2: neither UTF-8 nor CP932"),
        ]
        for (name, text, expected) in cases {
            let file = dir.appendingPathComponent(name).path
            var bytes = Array(text.utf8)
            if name == "badbytes.csv" { bytes = Array("name,lat,lon\n".utf8) + [0x82, 0xFF, 0x0A] }
            #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
            // A good file first on the command line: nothing of it may be written either.
            let r = eki("import", "--db", path, TestPaths.package("Datasets/n02-odawara-tokyo.csv"), file)
            #expect(r.status == 1, "\(name)")
            #expect(r.err.contains(expected), "\(name): \(r.err)")
            let after = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(after == before, "\(name) changed the database")
        }
        // Mapping a column that is not there is an error too.
        let r = eki("import", "--db", path, "--columns", "name=駅名,lat=latitude", TestPaths.package("Datasets/odawara-readings.csv"))
        #expect(r.status == 1)
        #expect(r.err.contains("--columns maps lat to 'latitude', which is not in the header"))
    }

    @Test func usageErrorsExit64() {
        #expect(eki("bbox", "139,36,140,35").status == 64)          // minLat > maxLat (west > east crosses 180°)
        #expect(eki("bbox", "139,35,140").status == 64)
        #expect(eki("nearest", "--lat", "35").status == 64)
        #expect(eki("nearest", "--lat", "95", "--lon", "139").status == 64)
        #expect(eki("nearest", "--lat", "35", "--lon", "139", "-k", "0").status == 64)
        #expect(eki("import").status == 64)
        #expect(eki("import", "--profile", "kml", "x.csv").status == 64)
        #expect(eki("bbox", "--frobnicate", "1,2,3,4").status == 64)
        #expect(eki("frobnicate").status == 64)
        let missing = eki("bbox", "--db", db("nope.gpkg"), "139,35,140,36")
        #expect(missing.status == 1)
        #expect(missing.err.contains("no station database at"))
    }

    /// Generic CSV with a column map, and station readings in the output.
    @Test func genericProfileWithColumnMap() throws {
        let path = db("generic.gpkg")
        let r = eki("import", "--db", path, "--columns", "id=駅コード,name=駅名,reading=よみ,lat=緯度,lon=経度,operator=事業者,line=路線,class=区分",
                    TestPaths.package("Datasets/odawara-readings.csv"))
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("csv/odawara-readings: 21 rows → 21 entries\n"))
        let near = eki("nearest", "--db", path, "--lat", "35.2562", "--lon", "139.1558", "-k", "1", "--format", "json")
        let a = try JSONSerialization.jsonObject(with: Data(near.out.utf8)) as! [[String: Any]]
        #expect(a.count == 1)
        #expect(a[0]["reading"] as? String == "おだわら")
        #expect((a[0]["sources"] as? [String])?.first == "csv/odawara-readings:100204")
    }
}
