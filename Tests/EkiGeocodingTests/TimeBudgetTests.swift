import EkiKit
import EkiTestSupport
import Foundation
import Testing
@testable import EkiGeocoding

/// One time budget for a whole geocode call, and what each provider said when all fail.
@Suite(.needsTool("python3")) struct TimeBudgetTests {
    /// GSI hangs past the 1 s budget: Nominatim is not asked at all (the server saw one request),
    /// and the error says which provider timed out and which was not tried.
    @Test func hangingFirstProviderSpendsTheBudget() throws {
        let server = try GeocoderTestServer()
        let config = testConfiguration(server, "slow/5", cache: TemporaryDirectory(), providers: [.gsi, .nominatim])
        let g = try Geocoder(configuration: config)
        let error = caught { _ = try g.geocode("小田原") }
        #expect(error == .providersFailed([
            ProviderFailure(provider: .gsi, message: "timed out after 1.0 s"),
            ProviderFailure(provider: .nominatim, message: "not tried: the 1.0 s budget was spent"),
        ]))
        #expect(error?.description == "every provider failed: gsi: timed out after 1.0 s; nominatim: not tried: the 1.0 s budget was spent")
        #expect(try server.requests().count == 1)
    }

    /// Two providers that both refuse: each one's message, in order.
    @Test func everyProviderSaysWhatItSaid() throws {
        let server = try GeocoderTestServer()
        var config = testConfiguration(server, "error/Invalid%20key", cache: TemporaryDirectory(), providers: [.gsi])
        config.nominatimEndpoint = server.endpoint("error/Rate%20Limited")
        config.providerOrder = [.gsi, .nominatim]
        let error = caught { _ = try Geocoder(configuration: config).geocode("小田原") }
        #expect(error?.description == "every provider failed: gsi: refused by the service: Invalid key; check the User-Agent, the key and the usage policy; "
                + "nominatim: rate limited by the service: Rate Limited")
    }
}
