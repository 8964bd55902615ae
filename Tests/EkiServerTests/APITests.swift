import EkiGeocoding
import EkiKit
import EkiServer
import EkiTestSupport
import Foundation
import Testing

/// The read endpoints on the sample database (39 entries: 21 around 小田原, 18 around 東京),
/// compared with real values and with what the command line prints for the same question.
@Suite struct APITests {
    let odawaraBox = "139.10,35.22,139.20,35.30"
    let tokyoBox = "139.755,35.672,139.775,35.690"

    @Test func bboxIsTheCommandLineGeoJSONWithATotal() throws {
        let s = try TestServer()
        let r = try s.get("/api/bbox?bbox=\(tokyoBox)")
        #expect(r.status == 200)
        #expect(r.headers["content-type"] == "application/json; charset=utf-8")
        #expect(r.object["total"] as? Int == 18)
        #expect(r.keys.count == 18)
        #expect(r.keys.first == "jr-central/s/東京" && r.keys.last == "tokyo-metro/c/銀座1丁目")
        #expect(r.keys == r.keys.sorted())
        // The same features, property for property, as `eki bbox --format geojson` with a log.
        let cli = runEki(["bbox", tokyoBox, "--db", s.db, "--visits", s.visits, "--format", "geojson"])
        #expect(cli.status == 0)
        let cliFeatures = features(ofCLI: cli.out)
        #expect(cliFeatures.count == 18)
        #expect(sameAsCLI(cliFeatures, r.features))
        let p = r.features[3]["properties"] as? [String: Any] ?? [:]
        #expect(p["key"] as? String == "jr-east/c/東京" && p["operator"] as? String == "東日本旅客鉄道")
        #expect(p["operator_short"] as? String == "JR東日本")
        #expect(p["visited"] as? Bool == false && p["completed"] is NSNull)
    }

    @Test func bboxWithALimitIsThePinCapNearestTheCentre() throws {
        let s = try TestServer()
        let r = try s.get("/api/bbox?bbox=\(odawaraBox)&limit=3")
        #expect(r.object["total"] as? Int == 21)
        #expect(r.keys == ["jr-central/s/小田原", "hakone-tozan/c/小田原", "odakyu/c/小田原"])
        let cli = runEki(["bbox", odawaraBox, "--limit", "3", "--db", s.db, "--visits", s.visits, "--format", "geojson"])
        #expect(sameAsCLI(features(ofCLI: cli.out), r.features))
        let c = try s.get("/api/bbox?bbox=\(odawaraBox)&limit=21")
        let all = try s.get("/api/bbox?bbox=\(odawaraBox)")
        #expect(c.keys.count == 21 && Set(c.keys) == Set(all.keys))
    }

    @Test func thePinCapMatchesTheLibraryOnManyBoxes() throws {
        let s = try TestServer()
        let store = try StationStore(path: s.db, readOnly: true)
        var compared = 0
        for (lon, lat) in [(139.155, 35.256), (139.765, 35.681)] {
            for d in [0.004, 0.01, 0.03, 0.2] {
                for (dx, dy) in [(0.0, 0.0), (d / 3, -d / 4), (-d / 2, d / 5)] {
                    let box = BoundingBox(minLon: lon + dx - d, minLat: lat + dy - d * 0.8, maxLon: lon + dx + d, maxLat: lat + dy + d * 0.8)
                    for limit in [1, 2, 5, 9] {
                        let want = try store.spatial.stations(in: box, limit: limit).map(\.key)
                        let r = try s.get("/api/bbox?bbox=\(box.minLon),\(box.minLat),\(box.maxLon),\(box.maxLat)&limit=\(limit)")
                        #expect(r.keys == want, "\(box) limit \(limit)")
                        #expect(r.object["total"] as? Int == (try store.spatial.stations(in: box).count))
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 96)
    }

    @Test func nearestIsNearestFirstWithDistances() throws {
        let s = try TestServer()
        let r = try s.get("/api/nearest?lat=35.2564&lon=139.1553&k=6")
        #expect(r.status == 200)
        #expect(r.keys == ["hakone-tozan/c/小田原", "odakyu/c/小田原", "jr-central/s/小田原", "jr-east/c/小田原",
                           "izuhakone/c/小田原", "izuhakone/c/緑町"])
        let d = r.features.map { ($0["properties"] as? [String: Any])?["distance_m"] as? Double ?? -1 }
        #expect(d == [12.8, 12.8, 53.1, 53.6, 109.7, 438.3])
        let cli = runEki(["nearest", "--lat", "35.2564", "--lon", "139.1553", "-k", "6", "--db", s.db, "--visits", s.visits,
                          "--format", "geojson"])
        #expect(sameAsCLI(features(ofCLI: cli.out), r.features))
        #expect(try s.get("/api/nearest?lat=35.2564&lon=139.1553").keys.count == 10)
    }

    @Test func searchIsEkiSearch() throws {
        let s = try TestServer()
        let r = try s.get("/api/search?q=\(percent("小田原"))&by=name")
        #expect(r.keys == ["hakone-tozan/c/小田原", "izuhakone/c/小田原", "jr-central/s/小田原", "jr-east/c/小田原", "odakyu/c/小田原"])
        #expect(r.features.allSatisfy { ($0["properties"] as? [String: Any])?["match"] as? String == "exact" })
        let cli = runEki(["search", "小田原", "--by", "name", "--db", s.db, "--visits", s.visits, "--format", "geojson"])
        #expect(sameAsCLI(features(ofCLI: cli.out), r.features))
        // Partial, in a box, near a point, limited.
        let p = try s.get("/api/search?q=\(percent("田原"))&match=partial&bbox=\(odawaraBox)&near=35.2564,139.1553&limit=2")
        #expect(p.keys == ["hakone-tozan/c/小田原", "odakyu/c/小田原"])
        #expect((p.features[0]["properties"] as? [String: Any])?["distance_m"] as? Double == 12.8)
        #expect(try s.get("/api/search?q=odawara&by=name").keys.isEmpty)   // N02 has no readings
        let line = try s.get("/api/search?q=\(percent("東海道"))&by=line")
        #expect(line.keys == ["jr-central/s/小田原", "jr-east/c/小田原", "jr-east/c/早川", "jr-east/c/有楽町", "jr-central/s/東京",
                              "jr-east/c/東京", "jr-east/c/鴨宮"])
    }

    @Test func stationIsOneEntryWhole() throws {
        let s = try TestServer()
        let r = try s.get("/api/station?key=\(percent("jr-east/c/小田原"))")
        #expect(r.status == 200)
        let p = r.object["properties"] as? [String: Any] ?? [:]
        #expect(p["name"] as? String == "小田原" && p["operator_id"] as? String == "jr-east")
        #expect(p["lines"] as? [String] == ["東海道線"] && p["sources"] as? [String] == ["n02:005218"])
        #expect((p["visits"] as? [Any])?.isEmpty == true && p["visited"] as? Bool == false && p["retired"] is NSNull)
        #expect((r.object["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [139.155767, 35.256105])
        // `eki show` prints the same thing.
        let cli = runEki(["show", "jr-east/c/小田原", "--db", s.db, "--visits", s.visits, "--format", "json"])
        #expect(cli.status == 0 && parsed(cli.out) == parsed(r.text))
        let missing = try s.get("/api/station?key=\(percent("jr-east/c/どこにもない"))")
        #expect(missing.status == 404 && missing.error == "unknown_station")
        #expect(try s.get("/api/station").status == 400)
    }

    @Test func statsCountOpenEntries() throws {
        let s = try TestServer()
        let r = try s.get("/api/stats?by=class")
        #expect(r.status == 200)
        let total = r.object["total"] as? [String: Any] ?? [:]
        #expect(total["total"] as? Int == 39 && total["visited"] as? Int == 0)
        let groups = r.object["groups"] as? [[String: Any]] ?? []
        #expect(groups.map { $0["class"] as? String ?? "" } == ["conventional", "shinkansen"])
        #expect(groups.map { $0["total"] as? Int ?? 0 } == [36, 3])
        #expect(try s.get("/api/stats?by=colour").status == 400)
    }

    @Test func geocodeUsesTheConfiguredProviders() throws {
        let fake = try GeocoderTestServer()
        let config = GeocoderConfiguration(gsiEndpoint: fake.endpoint("ok"), cachePath: nil, minimumRequestInterval: 0,
                                           providerOrder: [.stations, .gsi])
        let s = try TestServer(geocoder: config)
        // 小田原城 is no station: the stations provider finds nothing, GSI (the fake) answers.
        let r = try s.get("/api/geocode?q=\(percent("小田原城"))")
        #expect(r.status == 200)
        let titles = r.features.map { ($0["properties"] as? [String: Any])?["title"] as? String ?? "" }
        #expect(titles == ["小田原城", "小田原駅"])   // GSI's answer, the exact title first
        #expect((r.features[0]["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [139.1534, 35.2509])
        // A station comes from the database, no network.
        let st = try s.get("/api/geocode?q=\(percent("小田原駅"))&provider=stations")
        #expect(st.status == 200 && (st.features.first?["properties"] as? [String: Any])?["provider"] as? String == "stations")
        #expect(try s.get("/api/geocode?q=\(percent("存在しない場所"))&provider=stations").status == 404)
        #expect(try s.get("/api/geocode?q=x&provider=google").status == 400)
        #expect(try s.get("/api/geocode").status == 400)
        let broken = try TestServer(geocoder: GeocoderConfiguration(gsiEndpoint: fake.endpoint("s500"), cachePath: nil,
                                                                    minimumRequestInterval: 0, retryOn429And5xx: false,
                                                                    providerOrder: [.gsi]))
        let b = try broken.get("/api/geocode?q=\(percent("小田原城"))")
        #expect(b.status == 502 && b.error == "geocoder_failed")
    }

    @Test(arguments: [
        ("/api/bbox", 400, "bad_request"),                                   // bbox missing
        ("/api/bbox?bbox=1,2,3", 400, "bad_request"),
        ("/api/bbox?bbox=139,35,140,36&limit=0", 400, "bad_request"),
        ("/api/bbox?bbox=139,35,140,36&filter=some", 400, "bad_request"),
        ("/api/bbox?bbox=139,35,140,36&include_closed=yes", 400, "bad_request"),
        ("/api/bbox?bbox=139,35,140,36&colour=red", 400, "bad_request"),     // unknown parameter
        ("/api/nearest?lat=91&lon=139", 400, "bad_request"),
        ("/api/nearest?lat=35&lon=139&k=abc", 400, "bad_request"),
        ("/api/nearest?lon=139", 400, "bad_request"),
        ("/api/search?q=", 400, "bad_request"),
        ("/api/search?q=a&by=colour", 400, "bad_request"),
        ("/api/search?q=a&match=fuzzy", 400, "bad_request"),
        ("/api/search?q=a&near=139,35,1", 400, "bad_request"),
        ("/api/search?q=%ZZ", 400, "bad_request"),                            // bad percent-encoding
        ("/api/nothing", 404, "not_found"),
        ("/api/visits/1", 405, "method_not_allowed"),                        // GET on a DELETE route
    ])
    func badRequestsAreRefusedWithJSON(target: String, status: Int, code: String) throws {
        let s = try TestServer()
        let r = try s.get(target)
        #expect(r.status == status)
        #expect(r.error == code)
        #expect(!(r.object["message"] as? String ?? "").isEmpty)
    }
}
