import EkiKit
import EkiTestSupport
import Foundation
import Testing
@testable import EkiGeocoding

/// Request building, answer parsing, configuration and the cache file, without a server.
@Suite struct ParsingTests {
    @Test func percentEncodingKeepsOnlyUnreserved() {
        #expect(QueryEncoding.percentEncode("aZ09-._~") == "aZ09-._~")
        #expect(QueryEncoding.percentEncode("a b&c#d=e+f/g?%") == "a%20b%26c%23d%3De%2Bf%2Fg%3F%25")
        #expect(QueryEncoding.percentEncode("駅") == "%E9%A7%85")
        #expect(QueryEncoding.url(base: "http://h/x//", path: "/search", query: [("q", "a b")]) == "http://h/x/search?q=a%20b")
    }

    @Test func gsiPutsNFKCEqualTitlesFirst() throws {
        let body = #"""
        [{"geometry":{"coordinates":[139.74,35.65],"type":"Point"},"properties":{"title":"東京都港区芝公園"}},
         {"geometry":{"coordinates":[139.75,35.66],"type":"Point"},"properties":{"title":"芝公園４丁目"}},
         {"geometry":{"coordinates":[999,35.66],"type":"Point"},"properties":{"title":"bad point"}}]
        """#
        let found = try GSIProvider().parse(Array(body.utf8), query: "芝公園4丁目", limit: 10)
        #expect(found.map(\.title) == ["芝公園４丁目", "東京都港区芝公園"])
        #expect(found[0].coordinate == Coordinate(lat: 35.66, lon: 139.75))
        #expect(try GSIProvider().parse(Array("[]".utf8), query: "x", limit: 10).isEmpty)
    }

    @Test func nominatimConvertsBoundingBoxToRFC7946() throws {
        let body = #"[{"lat":35.6812,"lon":"139.7671","display_name":"東京駅","boundingbox":["35.67","35.69","139.75","139.78"]}]"#
        let found = try NominatimProvider().parse(Array(body.utf8), query: "東京駅", limit: 10)
        #expect(found == [GeocodeCandidate(title: "東京駅", coordinate: Coordinate(lat: 35.6812, lon: 139.7671),
                                           provider: .nominatim,
                                           bbox: BoundingBox(minLon: 139.75, minLat: 35.67, maxLon: 139.78, maxLat: 35.69))])
        // An error object is the service's own error, not a shape problem.
        #expect(caught({ _ = try NominatimProvider().parse(Array(#"{"status":700}"#.utf8), query: "x", limit: 1) })
                == .badRequest(status: nil, message: "status 700"))
    }

    @Test func nominatimURLCarriesThePolicyParameters() {
        let url = NominatimProvider(endpoint: "https://n.example/").url(for: "小田原", options: GeocodeOptions(limit: 99))
        #expect(url == "https://n.example/search?q=%E5%B0%8F%E7%94%B0%E5%8E%9F&format=jsonv2&limit=40&accept-language=ja&countrycodes=jp")
    }

    @Test func stockUserAgentsAreRefusedForNominatim() throws {
        for ua in ["", "curl/8.5.0", "libcurl/7.88.1", "python-requests/2.31", "Wget/1.21", "Mozilla/5.0 (X11)", "Go-http-client/1.1", "ruby"] {
            let config = GeocoderConfiguration(userAgent: ua, cachePath: nil)
            #expect(throws: GeocodingError.self) { try NominatimProvider().checkPolicy(config) }
        }
        for ua in [GeocoderConfiguration.userAgent(contact: nil), GeocoderConfiguration.userAgent(contact: "https://example.org/eki"), "MyMap/2.0 (me@example.org)"] {
            try NominatimProvider().checkPolicy(GeocoderConfiguration(userAgent: ua, cachePath: nil))
        }
        #expect(GeocoderConfiguration.userAgent(contact: "me@example.org") == "EkiKit/\(EkiKitVersion.string) (+me@example.org)")
        #expect(throws: GeocodingError.self) { try GeocoderConfiguration(userAgent: "EkiKit/1\r\nX: y", cachePath: nil).validate() }
    }

    @Test func configurationFromEnvironment() throws {
        let c = try GeocoderConfiguration.fromEnvironment([
            "HOME": "/home/someone", "EKI_CACHE": "eki-cache.sqlite", "EKI_USER_AGENT": "Test/1 (+t@example.org)",
            "EKI_GSI_ENDPOINT": "http://127.0.0.1:1/gsi", "EKI_NOMINATIM_ENDPOINT": "https://nominatim.example.org",
            "EKI_HTTP_TIMEOUT": "2.5",
        ])
        #expect(c.cachePath == "eki-cache.sqlite")
        #expect(c.userAgent == "Test/1 (+t@example.org)")
        #expect(c.gsiEndpoint == "http://127.0.0.1:1/gsi")
        #expect(c.nominatimEndpoint == "https://nominatim.example.org")
        #expect(c.timeout == 2.5 && c.connectTimeout == 2.5)

        let d = try GeocoderConfiguration.fromEnvironment(["HOME": "/home/someone"])
        #expect(d.cachePath == "/home/someone/.cache/eki/geocode.sqlite")
        #expect(d.gsiEndpoint == "https://msearch.gsi.go.jp" && d.nominatimEndpoint == "https://nominatim.openstreetmap.org")
        #expect(d.providerOrder == [.stations, .gsi, .nominatim] && d.cacheTTL == 7 * 24 * 3600)
        #expect(try GeocoderConfiguration.fromEnvironment(["EKI_CACHE": "", "HOME": "/h"]).cachePath == nil)
        #expect(try GeocoderConfiguration.fromEnvironment(["XDG_CACHE_HOME": "/xdg"]).cachePath == "/xdg/eki/geocode.sqlite")
        for bad in [["EKI_HTTP_TIMEOUT": "soon"], ["EKI_HTTP_TIMEOUT": "-1"], ["EKI_GSI_ENDPOINT": "file:///etc"]] {
            #expect(throws: GeocodingError.self) { try GeocoderConfiguration.fromEnvironment(bad) }
        }
    }

    @Test func providerOrderFromEnvironment() throws {
        #expect(try GeocodeProvider.list(parsing: " Nominatim,gsi ") == [.nominatim, .gsi])
        #expect(try GeocoderConfiguration.fromEnvironment(["EKI_PROVIDERS": "gsi,stations"]).providerOrder == [.gsi, .stations])
        for bad in ["", "gsi,", "google", "gsi,gsi"] {
            #expect(throws: GeocodingError.self) { try GeocodeProvider.list(parsing: bad) }
        }
        #expect(throws: GeocodingError.self) { try GeocoderConfiguration.fromEnvironment(["EKI_PROVIDERS": "osm"]) }
    }

    @Test func normalizationFoldsWidthAndSpaces() {
        #expect(Geocoder.normalize("　小田原   駅 ") == "小田原 駅")
        #expect(Geocoder.normalize("ﾀﾞｲﾔ４") == "ダイヤ4")
    }

    @Test func cacheEntriesExpireAfterTheirTTL() throws {
        let dir = TemporaryDirectory()
        let store = try GeocodeStore(path: dir.file("sub/dir/c.sqlite"), minimumInterval: 1)
        let c = [GeocodeCandidate(title: "小田原駅", coordinate: Coordinate(lat: 35.2564, lon: 139.155), provider: .gsi,
                                  bbox: BoundingBox(minLon: 139, minLat: 35, maxLon: 139.2, maxLat: 35.3))]
        try store.store(c, for: "k", ttl: 3600)
        #expect(try store.cached("k", ttl: 3600) == c)
        Thread.sleep(forTimeInterval: 0.02)
        #expect(try store.cached("k", ttl: 0.01) == nil)
        #expect(try store.cached("other", ttl: 3600) == nil)
    }
}
