import EkiKit
import EkiTestSupport
import Foundation
import Testing
@testable import EkiCLI
@testable import EkiGeocoding

/// `eki geocode`, and `--place` on nearest and bbox: offline from the station database, and
/// against the loopback server for gsi and nominatim (no internet needed).
@Suite(.serialized) struct GeocodeCommandTests {
    let dir = TestPaths.temporaryDirectory()
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Web endpoints that nothing listens on, so an offline test can never reach the internet.
    static let offline = ["EKI_CACHE": "", "EKI_GSI_ENDPOINT": "http://127.0.0.1:9/gsi",
                          "EKI_NOMINATIM_ENDPOINT": "http://127.0.0.1:9/nominatim"]

    /// The Datasets sample (小田原 and 東京), imported.
    func sampleDB() throws -> String {
        let db = path("sample.gpkg")
        if !FileManager.default.fileExists(atPath: db) {
            let r = eki("import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv"))
            #expect(r.status == 0, "\(r.err)")
        }
        return db
    }

    /// Real N02-23 rows (copied unchanged) for 新横浜 (5 operators), 富山 and the 富山駅 tram stop,
    /// 府中 in four prefectures and 府中本町.
    func namesDB() throws -> String {
        let db = path("names.gpkg")
        let csv = path("names-n02.csv")
        try """
        N02_001,N02_002,N02_003,N02_004,N02_005,N02_005c,N02_005g,lon,lat,n_vertices
        12,3,3号線,横浜市,新横浜,004493,004501,139.617245,35.509055,2
        11,1,東海道新幹線,東海旅客鉄道,新横浜,004501,004501,139.617195,35.506982,4
        11,2,横浜線,東日本旅客鉄道,新横浜,004504,004501,139.617425,35.506765,2
        12,4,相鉄新横浜線,相模鉄道,新横浜,010164,004501,139.617261,35.508951,2
        12,4,東急新横浜線,東急電鉄,新横浜,010166,004501,139.617261,35.508951,2
        21,4,富山港線,富山地方鉄道,富山駅,001924,001923,137.212997,36.701755,3
        21,4,富山駅南北接続線,富山地方鉄道,富山駅,001923,001923,137.212997,36.701755,3
        11,2,高山線,西日本旅客鉄道,富山,001925,001925,137.213210,36.701690,2
        12,5,あいの風とやま鉄道線,あいの風とやま鉄道,富山,001926,001925,137.213210,36.701690,2
        11,1,北陸新幹線,西日本旅客鉄道,富山,001927,001925,137.213306,36.701439,2
        12,4,京王線,京王電鉄,府中,003821,003821,139.480100,35.672190,2
        11,2,徳島線,四国旅客鉄道,府中,008496,008496,134.482980,34.074285,2
        11,2,福塩線,西日本旅客鉄道,府中,007677,007677,133.236465,34.571525,2
        13,4,天橋立鋼索鉄道,丹後海陸交通,府中,004277,004277,135.195275,35.583365,2
        11,2,南武線,東日本旅客鉄道,府中本町,003876,003876,139.477263,35.665847,3
        11,2,武蔵野線,東日本旅客鉄道,府中本町,003878,003876,139.477090,35.665817,3

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        let r = eki("import", "--db", db, "--profile", "n02", csv)
        #expect(r.status == 0, "\(r.err)")
        return db
    }

    func json(_ text: String) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
    }

    // MARK: offline, the stations provider

    /// The "done when": the five 小田原 entries, offline, from the station gazetteer.
    @Test func nearestPlaceOdawaraOffline() throws {
        let db = try sampleDB()
        let r = eki(["nearest", "--db", db, "--place", "小田原駅", "-k", "5", "--format", "csv"], environment: Self.offline)
        #expect(r.status == 0, "\(r.err)")
        let rows = r.out.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0[1] == "小田原" })
        #expect(Set(rows.map { String($0[0]) }) == ["hakone-tozan/c/小田原", "odakyu/c/小田原", "jr-east/c/小田原",
                                                    "jr-central/s/小田原", "izuhakone/c/小田原"])
        #expect(r.err.hasPrefix("place: 小田原駅 (35.256286, 139.155579) from stations\n"))
        // The same five as the table of the issue, nearest the mean of their points.
        let table = eki(["nearest", "--db", db, "--place", "小田原駅", "-k", "5"], environment: Self.offline)
        #expect(table.out.split(separator: "\n").count == 7)
    }

    @Test func geocodeStationsFoldsNamesAndGroupsEntries() throws {
        let db = try sampleDB()
        let odawara = eki(["geocode", "--db", db, "小田原駅", "--format", "json"], environment: Self.offline)
        #expect(odawara.status == 0, "\(odawara.err)")
        let c = json(odawara.out)
        #expect(c.count == 1)
        #expect(c.first?["title"] as? String == "小田原駅" && c.first?["provider"] as? String == "stations")
        #expect(c.first?["rank"] as? Int == 1)
        // The mean of the five entries' points, and their extent as bbox.
        let five = json(eki("nearest", "--db", db, "--lat", "35.2564", "--lon", "139.1553", "-k", "5", "--format", "json").out)
        #expect(five.count == 5 && five.allSatisfy { $0["name"] as? String == "小田原" })
        let lat = five.compactMap { $0["lat"] as? Double }.reduce(0, +) / 5
        let lon = five.compactMap { $0["lon"] as? Double }.reduce(0, +) / 5
        #expect(abs((c.first?["lat"] as? Double ?? 0) - lat) <= 0.5e-7)
        #expect(abs((c.first?["lon"] as? Double ?? 0) - lon) <= 0.5e-7)
        #expect(c.first?["bbox"] as? [Double] == [139.154765, 35.256105, 139.156505, 35.256405])
        // Without 駅, full-width, with spaces: the same place.
        for q in ["小田原", "　小田原 駅", "小田原駅 "] {
            #expect(eki(["geocode", "--db", db, q, "--format", "json"], environment: Self.offline).out == odawara.out, "\(q)")
        }
        // A prefix finds the place too; 東京 is one place of four entries.
        #expect(json(eki(["geocode", "--db", db, "日比", "--format", "json"], environment: Self.offline).out)
            .map { $0["title"] as? String } == ["日比谷駅"])
        #expect(json(eki(["geocode", "--db", db, "東京", "--format", "json"], environment: Self.offline).out)
            .map { $0["title"] as? String } == ["東京駅"])
    }

    @Test func shinYokohamaToyamaAndFuchu() throws {
        let db = try namesDB()
        func titles(_ q: String, _ extra: [String] = []) -> [(String, Double, Double)] {
            let r = eki(["geocode", "--db", db, q, "--provider", "stations", "--format", "json"] + extra, environment: Self.offline)
            #expect(r.status == 0, "\(q): \(r.err)")
            return json(r.out).map { ($0["title"] as? String ?? "", $0["lat"] as? Double ?? 0, $0["lon"] as? Double ?? 0) }
        }
        let shinYokohama = titles("新横浜")
        #expect(shinYokohama.map(\.0) == ["新横浜駅"])                  // five operators, one place
        #expect(abs(shinYokohama[0].1 - 35.5079) < 0.001 && abs(shinYokohama[0].2 - 139.6173) < 0.001)
        #expect(titles("新横浜駅").map(\.0) == ["新横浜駅"])

        // 富山駅 is the official name of the tram stop: it comes first, then 富山 (JR, あいの風).
        let toyama = titles("富山駅")
        #expect(toyama.map(\.0) == ["富山駅", "富山駅"])
        #expect(titles("富山").map(\.0) == ["富山駅", "富山駅"])        // 富山 exact, then 富山駅 by prefix
        let tram = eki(["geocode", "--db", db, "富山駅", "--provider", "stations", "--format", "csv"], environment: Self.offline)
        #expect(tram.out.split(separator: "\r\n")[1].hasPrefix("1,富山駅,36.701755,137.212997,stations,"))

        // 府中 in four places far apart: four candidates, then 府中本町 (prefix); --limit cuts.
        let fuchu = titles("府中")
        #expect(fuchu.map(\.0) == ["府中駅", "府中駅", "府中駅", "府中駅", "府中本町駅"])
        #expect(Set(fuchu.prefix(4).map { Int($0.2) }) == [139, 134, 133, 135])
        #expect(titles("府中", ["--limit", "2"]).count == 2)
        #expect(eki(["geocode", "--db", db, "どこにもない駅", "--provider", "stations"], environment: Self.offline).status == 1)
    }

    @Test func entriesOfOneNameWithinOneAndAHalfKilometresAreOnePlace() throws {
        func entry(_ key: String, _ lat: Double) -> Station {
            Station(key: key, name: "中央", reading: nil, latinName: nil, operatorName: nil, operatorRef: nil,
                    serviceClass: .conventional, lines: [], prefecture: nil,
                    coordinate: Coordinate(lat: lat, lon: 139), sources: [], isOpen: true)
        }
        let metrePerDegree = 110_950.0                                  // near 35° N, to ±0.1 %
        let a = entry("a", 35), near = entry("b", 35 + 1_450 / metrePerDegree), far = entry("c", 35 + 1_550 / metrePerDegree)
        #expect(StoreGazetteer.groups([a, near]).map { $0.map(\.key) } == [["a", "b"]])
        #expect(StoreGazetteer.groups([a, far]).map { $0.map(\.key) } == [["a"], ["c"]])
        // Single linkage: a chain of neighbours is one place.
        #expect(StoreGazetteer.groups([a, far, near]).map { $0.map(\.key) } == [["a", "c", "b"]])
    }

    @Test func bboxAroundAPlace() throws {
        let db = try sampleDB()
        let centre = json(eki(["geocode", "--db", db, "東京駅", "--format", "json"], environment: Self.offline).out)
        let lat = try #require(centre.first?["lat"] as? Double), lon = try #require(centre.first?["lon"] as? Double)
        let box = BoundingBox(around: Coordinate(lat: lat, lon: lon), width: 600, height: 600)
        #expect(box.minLon < lon && lon < box.maxLon && box.minLat < lat && lat < box.maxLat)   // RFC 7946 order
        let around = eki(["bbox", "--db", db, "--place", "東京駅", "--span", "600", "--format", "csv"], environment: Self.offline)
        #expect(around.status == 0, "\(around.err)")
        let given = eki(["bbox", "--db", db, "\(box.minLon),\(box.minLat),\(box.maxLon),\(box.maxLat)", "--format", "csv"])
        #expect(around.out == given.out)
        #expect(around.out.components(separatedBy: ",東京,").count - 1 == 4)
        #expect(eki(["bbox", "--db", db, "--place", "東京駅", "--span", "600", "--pick", "2"], environment: Self.offline).status == 1)

        // The box is span metres wide along the parallel and high along the meridian.
        for (span, tolerance) in [(600.0, 0.01), (100_000.0, 100.0)] {
            for c in [Coordinate(lat: 35.68, lon: 139.77), Coordinate(lat: 43.07, lon: 141.35), Coordinate(lat: 0, lon: 0)] {
                let b = BoundingBox(around: c, width: span, height: span)
                let w = try Geodesic.distance(Coordinate(lat: c.lat, lon: b.minLon), Coordinate(lat: c.lat, lon: b.maxLon))
                let h = try Geodesic.distance(Coordinate(lat: b.minLat, lon: c.lon), Coordinate(lat: b.maxLat, lon: c.lon))
                #expect(abs(w - span) < tolerance && abs(h - span) < tolerance, "\(span) at \(c): \(w) × \(h)")
            }
        }
    }

    @Test func usageErrorsExit64() throws {
        let db = try sampleDB()
        let cases: [[String]] = [
            ["geocode"], ["geocode", "a", "b"], ["geocode", " "], ["geocode", "x", "--limit", "0"],
            ["geocode", "x", "--provider", "google"], ["geocode", "x", "--provider", "gsi,gsi"],
            ["geocode", "x", "--endpoint", "http://127.0.0.1:9/"],
            ["geocode", "x", "--provider", "gsi,nominatim", "--endpoint", "http://127.0.0.1:9/"],
            ["geocode", "x", "--provider", "gsi", "--endpoint", "file:///etc/passwd"],
            ["geocode", "x", "--format", "kml"],
            ["nearest", "--db", db, "--place", "小田原", "--lat", "35", "--lon", "139"],
            ["nearest", "--db", db, "--pick", "2", "--lat", "35", "--lon", "139"],
            ["nearest", "--db", db, "--provider", "gsi", "--lat", "35", "--lon", "139"],
            ["nearest", "--db", db, "--place", "小田原", "--pick", "0"],
            ["bbox", "--db", db, "--place", "小田原"],
            ["bbox", "--db", db, "--place", "小田原", "--span", "0"],
            ["bbox", "--db", db, "--span", "500", "139,35,140,36"],
            ["bbox", "--db", db, "--place", "小田原", "--span", "500", "139,35,140,36"],
        ]
        for args in cases {
            let r = eki(args, environment: Self.offline)
            #expect(r.status == 64, "\(args): \(r.status) \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1 && r.out.isEmpty, "\(args): \(r.err)")
        }
        let help = eki("geocode", "--help")
        #expect(help.status == 0 && help.out.contains("--provider") && help.out.contains("国土地理院"))
        #expect(eki("--help").out.contains("geocode "))
    }

    // MARK: gsi and nominatim on the loopback server

    @Test(.needsTool("python3")) func geocodeGSIAndNominatimAtAnEndpoint() throws {
        let server = try GeocoderTestServer()
        let env = ["EKI_CACHE": path("geocode-\(UUID().uuidString).sqlite")]
        let gsi = eki(["geocode", "小田原", "--provider", "gsi", "--endpoint", server.endpoint("ok"), "--format", "json"],
                      environment: env)
        #expect(gsi.status == 0, "\(gsi.err)")
        let g = json(gsi.out)
        #expect(g.map { $0["title"] as? String } == ["小田原駅", "小田原城"])
        #expect(g.allSatisfy { $0["provider"] as? String == "gsi" && $0["bbox"] is NSNull })
        #expect(g.first?["lat"] as? Double == 35.2564 && g.first?["lon"] as? Double == 139.155)

        let nominatim = eki(["geocode", "小田原 駅&東口 #2", "--provider", "nominatim", "--endpoint", server.endpoint("ok"),
                             "--user-agent", "EkiCLITests/1 (+test@example.org)", "--format", "geojson"], environment: env)
        #expect(nominatim.status == 0, "\(nominatim.err)")
        let fc = try #require(try JSONSerialization.jsonObject(with: Data(nominatim.out.utf8)) as? [String: Any])
        let feature = try #require((fc["features"] as? [[String: Any]])?.first)
        #expect(feature["bbox"] as? [Double] == [139.15, 35.2514, 139.16, 35.2614])        // RFC 7946 order
        #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [139.155, 35.2564])
        #expect((feature["properties"] as? [String: Any])?["provider"] as? String == "nominatim")

        let requests = try server.requests()
        #expect(requests.map(\.path) == ["/ok/address-search/AddressSearch", "/ok/search"])
        #expect(requests.last?.ua == "EkiCLITests/1 (+test@example.org)")
        #expect(requests.first?.ua == "EkiKit/\(EkiKitVersion.string)")
        #expect(requests.last?.query.hasPrefix("q=%E5%B0%8F%E7%94%B0%E5%8E%9F%20%E9%A7%85%26%E6%9D%B1%E5%8F%A3%20%232&format=jsonv2") == true)

        // The endpoint from the environment, the table with its credit line.
        let table = eki(["geocode", "小田原城", "--provider", "gsi", "--no-cache"],
                        environment: env.merging(["EKI_GSI_ENDPOINT": server.endpoint("ok")]) { $1 })
        #expect(table.status == 0)
        #expect(table.out.hasSuffix("(2 candidates)\n出典: 国土地理院 (GSI address search)\n"))
        #expect(table.out.split(separator: "\n")[1].hasPrefix("1  小田原城"))       // NFKC-equal title first
    }

    @Test(.needsTool("python3")) func nearestPlaceFromGSIWithPick() throws {
        let server = try GeocoderTestServer()
        let db = try sampleDB()
        let env = ["EKI_CACHE": path("geocode-\(UUID().uuidString).sqlite")]
        let r = eki(["nearest", "--db", db, "--place", "小田原城", "--provider", "gsi", "--endpoint", server.endpoint("ok"),
                     "--pick", "2", "-k", "1", "--format", "csv"], environment: env)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err == "place: 小田原駅 (35.256400, 139.155000) from gsi\n")
        #expect(r.out.split(separator: "\r\n").count == 2)
        let tooFar = eki(["nearest", "--db", db, "--place", "小田原城", "--provider", "gsi", "--endpoint", server.endpoint("ok"),
                          "--pick", "3"], environment: env)
        #expect(tooFar.status == 1 && tooFar.err == "eki nearest: --pick 3, but '小田原城' has only 2 candidates\n")
    }

    /// Typed geocoding errors: exit 1 with one line; nothing on stdout.
    @Test(.needsTool("python3")) func geocodingErrorsExit1WithOneLine() throws {
        let server = try GeocoderTestServer()
        let env = ["EKI_CACHE": path("geocode-\(UUID().uuidString).sqlite"), "EKI_HTTP_TIMEOUT": "1"]
        let cases: [(scenario: String, provider: String, extra: [String], message: String)] = [
            ("s403", "gsi", [], "refused by the service (HTTP 403)"),
            ("empty", "gsi", [], "no place found for '小田原'"),
            ("html", "gsi", [], "refused by the service: Access blocked; check the User-Agent"),
            ("badjson", "nominatim", [], "unparseable response: invalid JSON"),
            ("s400", "gsi", [], "bad request (HTTP 400)"),
            ("slow/5", "gsi", [], "timed out after 1.0 s"),
            ("huge", "gsi", [], "response larger than 1048576 bytes"),
            ("redirect-file", "gsi", [], "transfer failed (curl 1)"),
            ("ok", "nominatim", ["--user-agent", "curl/8.5.0"], "not sent: Nominatim's usage policy forbids stock User-Agents"),
        ]
        for c in cases {
            let start = Date()
            let r = eki(["geocode", "小田原", "--provider", c.provider, "--endpoint", server.endpoint(c.scenario)] + c.extra,
                        environment: env)
            #expect(r.status == 1, "\(c.scenario): \(r.status)")
            #expect(r.err.hasPrefix("eki geocode: " + c.message), "\(c.scenario): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1 && r.err.hasSuffix("\n") && r.out.isEmpty, "\(c.scenario)")
            #expect(Date().timeIntervalSince(start) < 4, "\(c.scenario) took too long")
        }
        // The stock User-Agent was never sent to Nominatim.
        #expect(try server.requests().filter { $0.path.hasPrefix("/ok/") }.isEmpty)

        // An unusable cache file: nothing is sent.
        let notADatabase = path("not-a-database.sqlite")
        try String(repeating: "not SQLite ", count: 20).write(toFile: notADatabase, atomically: true, encoding: .utf8)
        let count = try server.requests().count
        let r = eki(["geocode", "小田原", "--provider", "gsi", "--endpoint", server.endpoint("ok")],
                    environment: ["EKI_CACHE": notADatabase])
        #expect(r.status == 1 && r.err.hasPrefix("eki geocode: not sent: cache database ") && r.err.contains("not a database"))
        #expect(r.err.split(separator: "\n").count == 1)
        #expect(try server.requests().count == count)
    }

    @Test(.needsTool("python3")) func cachedQueryMakesNoRequestAndNoCacheDoes() throws {
        let server = try GeocoderTestServer()
        let env = ["EKI_CACHE": path("cache-\(UUID().uuidString)/geocode.sqlite")]
        let args = ["geocode", "小田原", "--provider", "gsi", "--endpoint", server.endpoint("ok"), "--format", "csv"]
        let first = eki(args, environment: env)
        #expect(first.status == 0)
        #expect(try server.requests().count == 1)
        let again = eki(args, environment: env)
        #expect(again.out == first.out)
        let smaller = eki(args + ["--limit", "1"], environment: env)
        #expect(smaller.out.split(separator: "\r\n").count == 2)
        #expect(try server.requests().count == 1)                    // both answered from the cache
        let fresh = eki(args + ["--no-cache"], environment: env)
        #expect(fresh.out == first.out)
        #expect(try server.requests().count == 2)
    }

    /// Two `eki geocode` processes started together, sharing the cache file (as a shell loop
    /// or two terminals would): their requests reach the server at least 1 s apart.
    @Test(.needsTool("python3")) func twoProcessesAreSpacedAtTheServer() throws {
        let binary = try #require(Self.ekiBinary, "the eki executable is built beside the tests (run `swift build` first)")
        let server = try GeocoderTestServer()
        let runs = try Self.geocodeTogether(["小田原", "新横浜"], binary: binary, server: server,
                                            environment: ["EKI_CACHE": path("shared-\(UUID().uuidString).sqlite")])
        for r in runs {
            #expect(r.status == 0, "\(r.err)")
            #expect(r.out.split(separator: "\r\n").count == 3)
        }
        let times = try server.requests().map(\.t).sorted()
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] >= 1.0, "\(times[1] - times[0]) s apart") }
    }

    /// `eki geocode Q --provider gsi` against `server`, one process per query, all started before
    /// any is waited for; each one's exit status, standard output and standard error.
    static func geocodeTogether(_ queries: [String], binary: String, server: GeocoderTestServer,
                                environment: [String: String]) throws -> [(status: Int32, out: String, err: String)] {
        let processes = try queries.map { q -> (Process, Pipe, Pipe) in
            let p = Process(), out = Pipe(), err = Pipe()
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = ["geocode", q, "--provider", "gsi", "--endpoint", server.endpoint("ok"), "--format", "csv"]
            p.environment = environment
            p.standardOutput = out
            p.standardError = err
            p.standardInput = FileHandle.nullDevice
            try p.run()
            return (p, out, err)
        }
        return processes.map { p, out, err in
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            return (p.terminationStatus, text, message)
        }
    }

    /// The `eki` executable of this build: beside the test bundle (`swift test` builds it with
    /// the tests), else in .build/debug.
    static var ekiBinary: String? {
        let beside = [Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
            .map { $0.appendingPathComponent("eki").path }
        return (beside + [TestPaths.package(".build/debug/eki")]).first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
