import Foundation
import EkiTestSupport
@testable import EkiGeocoding

typealias LocalServer = GeocoderTestServer

extension GeocoderTestServer {
    /// Every request the server has answered so far, except these log reads.
    func requests() throws -> [Request] {
        let curl = try CurlEasy(settings: TransferSettings(userAgent: "EkiGeocodingTests", connectTimeout: 2,
                                                           timeout: 5, maxResponseBytes: 1 << 20, maxRedirects: 0))
        return try JSONDecoder().decode([Request].self, from: Data(try curl.get(logURL).body))
    }
}

/// A configuration for tests: both endpoints at `scenario`, short timeouts and backoff, a fresh
/// cache file in a temporary directory, and GSI as the only provider unless told otherwise.
func testConfiguration(_ server: LocalServer, _ scenario: String, cache: TemporaryDirectory?,
                       providers: [GeocodeProvider] = [.gsi]) -> GeocoderConfiguration {
    GeocoderConfiguration(gsiEndpoint: server.endpoint(scenario), nominatimEndpoint: server.endpoint(scenario),
                          connectTimeout: 1, timeout: 1, cachePath: cache?.file("geocode.sqlite"),
                          retryBackoff: 0.1, maxRetryAfter: 2, providerOrder: providers)
}

/// A directory removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("eki-geocoding-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
