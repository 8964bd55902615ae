import EkiKit
import EkiTestSupport
import Foundation
import Synchronization
import Testing
@testable import EkiGeocoding

/// A gazetteer with two stations; `失敗` makes it throw.
struct FakeStations: StationGazetteer {
    struct Broken: Error {}
    func lookup(_ query: String, limit: Int) throws -> [GeocodeCandidate] {
        if query == "失敗" { throw Broken() }
        let all = [GeocodeCandidate(title: "小田原駅", coordinate: Coordinate(lat: 35.2564, lon: 139.1550), provider: .stations),
                   GeocodeCandidate(title: "新横浜駅", coordinate: Coordinate(lat: 35.5069, lon: 139.6170), provider: .stations)]
        return all.filter { $0.title.hasPrefix(query) }
    }
}

@Suite struct GeocoderTests {
    @Test(.needsShared(GeocoderTestServer.samplesFile), .needsTool("python3"))
    func recordedGSIAnswer() throws {
        let server = try GeocoderTestServer(samples: true)
        let cache = TemporaryDirectory()
        let g = try Geocoder(configuration: testConfiguration(server, "samples", cache: cache))
        let found = try g.geocode("函館工業")
        #expect(found.map(\.title) == ["道立北海道函館工業高等学校", "函館工業高等専門学校"])
        #expect(found.first?.coordinate == Coordinate(lat: 41.79252925, lon: 140.7683382))
        #expect(found.allSatisfy { $0.provider == .gsi && $0.bbox == nil })
        #expect(caught { _ = try g.geocode("どこにもない") } == .notFound(query: "どこにもない"))
    }

    @Test(.needsShared(GeocoderTestServer.samplesFile), .needsTool("python3"))
    func recordedNominatimAnswerWithBoundingBox() throws {
        let server = try GeocoderTestServer(samples: true)
        let cache = TemporaryDirectory()
        let g = try Geocoder(configuration: testConfiguration(server, "samples", cache: cache, providers: [.nominatim]))
        let box = BoundingBox(minLon: 13.3, minLat: 52.5, maxLon: 13.4, maxLat: 52.6)
        let found = try g.geocode("Ditsch", options: GeocodeOptions(limit: 5, viewbox: box, bounded: true))
        #expect(found.count == 1)
        #expect(found.first?.title.hasPrefix("Ditsch, Lindower Straße") == true)
        #expect(found.first?.coordinate == Coordinate(lat: 52.54274275, lon: 13.36690305710228))
        #expect(found.first?.bbox == BoundingBox(minLon: 13.3668619, minLat: 52.5427201, maxLon: 13.3669442, maxLat: 52.5427654))
        let query = try server.requests().first?.query ?? ""
        #expect(query == "q=Ditsch&format=jsonv2&limit=5&accept-language=ja&countrycodes=jp"
                + "&viewbox=13.3%2C52.5%2C13.4%2C52.6&bounded=1")
    }

    @Test(.needsShared(GeocoderTestServer.samplesFile), .needsTool("python3"))
    func recordedNominatimErrorObjectIsTheServicesError() throws {
        let server = try GeocoderTestServer(samples: true)
        let cache = TemporaryDirectory()
        let error = { (file: String) throws -> GeocodingError? in
            let g = try Geocoder(configuration: testConfiguration(server, "file/nominatim/\(file).json", cache: cache,
                                                                  providers: [.nominatim]))
            return caught({ _ = try g.geocode("London") })
        }
        #expect(try error("status_json_error") == .badRequest(status: nil, message: "Database connection failed (status 700)"))
        guard case .unparseable? = try error("output_json_single_place_object") else {
            Issue.record("a single place object was not unparseable"); return
        }
    }

    @Test(.needsTool("python3")) func cachedQueryMakesNoRequest() throws {
        let server = try GeocoderTestServer()
        let cache = TemporaryDirectory()
        let config = testConfiguration(server, "ok", cache: cache)
        let first = try Geocoder(configuration: config).geocode("小田原")
        // Another instance on the same file, a different spelling of the same query, a smaller limit.
        let again = try Geocoder(configuration: config).geocode(" 小田原　", options: GeocodeOptions(limit: 1))
        #expect(first.count == 2)
        #expect(again == Array(first.prefix(1)))
        #expect(try server.requests().count == 1)

        let fresh = try Geocoder(configuration: config).geocode("小田原", options: GeocodeOptions(noCache: true))
        #expect(fresh == first)
        #expect(try server.requests().count == 2)
    }

    @Test(.needsTool("python3")) func emptyAnswersAreNotCached() throws {
        let server = try GeocoderTestServer()
        let cache = TemporaryDirectory()
        let g = try Geocoder(configuration: testConfiguration(server, "empty", cache: cache))
        #expect(caught { _ = try g.geocode("小田原") } == .notFound(query: "小田原"))
        let store = try GeocodeStore(path: cache.file("geocode.sqlite"), minimumInterval: 1)
        let key = "gsi " + server.endpoint("empty") + "/address-search/AddressSearch?q=%E5%B0%8F%E7%94%B0%E5%8E%9F"
        #expect(try store.cached(key, ttl: 3600) == nil)
    }

    @Test(.needsTool("python3")) func stationsComeFirstAndTheOrderFallsThrough() throws {
        let server = try GeocoderTestServer()
        let cache = TemporaryDirectory()
        var config = testConfiguration(server, "ok", cache: cache, providers: GeocodeProvider.defaultOrder)
        let g = try Geocoder(configuration: config, stations: FakeStations())
        #expect(try g.geocode("小田原駅").map(\.provider) == [.stations])
        #expect(try server.requests().isEmpty)
        #expect(try g.geocode("小田原城").first?.provider == .gsi)       // not a station: GSI answers
        #expect(try g.geocode("失敗", options: GeocodeOptions(noCache: true)).first?.provider == .gsi)
        #expect(try g.search("新横浜", provider: .stations).map(\.title) == ["新横浜駅"])

        config.providerOrder = [.nominatim, .stations]
        let reordered = try Geocoder(configuration: config, stations: FakeStations())
        #expect(try reordered.geocode("小田原駅").first?.provider == .nominatim)

        let without = try Geocoder(configuration: config)
        guard case .misconfigured? = caught({ _ = try without.geocode("x", options: GeocodeOptions(providers: [.stations])) })
        else { Issue.record("stations without a gazetteer was not misconfigured"); return }
        #expect(caught { _ = try g.geocode("　 ") } == .badRequest(status: nil, message: "empty query"))
    }

    /// Two geocoders on separate threads, sharing the cache file (as two `eki` processes would)
    /// or, without one, sharing the process: their requests reach the server at least 1 s apart.
    @Test(.needsTool("python3"), arguments: [true, false])
    func concurrentGeocodersAreSpacedAtTheServer(sharedCacheFile: Bool) throws {
        let server = try GeocoderTestServer()
        let cache = TemporaryDirectory()
        var config = testConfiguration(server, "ok", cache: sharedCacheFile ? cache : nil)
        config.timeout = 5
        let shared = config
        let results = Mutex<[Int]>([])
        let done = DispatchGroup()
        for query in ["小田原", "新横浜"] {
            done.enter()
            Thread {
                let n = (try? Geocoder(configuration: shared).geocode(query).count) ?? -1
                results.withLock { $0.append(n) }
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(results.withLock { $0 } == [2, 2])
        let times = try server.requests().map(\.t).sorted()
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] >= 1.0) }
    }
}
