import EkiTestSupport
import Foundation
@testable import EkiGeocoding

/// The geocoding tests' loopback server (`GeocoderTestServer`), for the CLI tests.
typealias GeocoderServer = GeocoderTestServer

extension GeocoderTestServer {
    /// Every request the server has answered so far, except these log reads.
    func requests() throws -> [Request] {
        let curl = try CurlEasy(settings: TransferSettings(userAgent: "EkiCLITests", connectTimeout: 2,
                                                           timeout: 5, maxResponseBytes: 1 << 20, maxRedirects: 0))
        return try JSONDecoder().decode([Request].self, from: Data(try curl.get(logURL).body))
    }
}
