import EkiTestSupport
@testable import EkiGeocoding

/// A configuration for tests: both endpoints at `scenario`, short timeouts and backoff, a fresh
/// cache file in a temporary directory, and GSI as the only provider unless told otherwise.
func testConfiguration(_ server: GeocoderTestServer, _ scenario: String, cache: TemporaryDirectory?,
                       providers: [GeocodeProvider] = [.gsi]) -> GeocoderConfiguration {
    GeocoderConfiguration(gsiEndpoint: server.endpoint(scenario), nominatimEndpoint: server.endpoint(scenario),
                          connectTimeout: 1, timeout: 1, cachePath: cache?.file("geocode.sqlite"),
                          retryBackoff: 0.1, maxRetryAfter: 2, providerOrder: providers)
}
