import EkiKit
import EkiTestSupport
import Foundation
import Testing
@testable import EkiGeocoding

/// A service's own error (a JSON error object, an HTML block page) is reported as the typed
/// error it is, with the service's message; an error page is never dumped.
@Suite struct ServiceErrorTests {
    @Test(arguments: [
        (#"{"error":"Rate Limited"}"#, GeocodingError.rateLimited(retryAfter: nil, message: "Rate Limited")),
        (#"{"error":"Invalid key"}"#, .refused(status: nil, message: "Invalid key")),
        (#"{"error":{"code":403,"message":"Access denied"}}"#, .refused(status: nil, message: "Access denied")),
        (#"{"status":700,"message":"Database connection failed"}"#, .badRequest(status: nil, message: "Database connection failed (status 700)")),
        (#"{"error":"Unable to geocode"}"#, .badRequest(status: nil, message: "Unable to geocode")),
        ("<html><head><title>Blocked</title></head><body>Your IP is banned</body></html>", .refused(status: nil, message: "Blocked")),
        ("<html><body><h1>429 Too Many Requests</h1></body></html>", .rateLimited(retryAfter: nil, message: "429 Too Many Requests")),
    ])
    func answerBodyStatesItsError(body: String, expected: GeocodingError) {
        for provider in [NominatimProvider() as any WebProvider, GSIProvider()] {
            #expect(caught({ _ = try provider.parse(Array(body.utf8), contentType: nil, query: "x", limit: 1) }) == expected,
                    "\(provider.provider)")
        }
    }

    @Test func messagesSayWhatTheServiceSaid() {
        #expect(GeocodingError.rateLimited(retryAfter: nil, message: "Rate Limited").description == "rate limited by the service: Rate Limited")
        #expect(GeocodingError.rateLimited(retryAfter: 120).description == "rate limited by the service (retry after 120.0 s)")
        #expect(GeocodingError.refused(status: nil, message: "Invalid key").description
                == "refused by the service: Invalid key; check the User-Agent, the key and the usage policy")
        #expect(GeocodingError.refused(status: 403).description == "refused by the service (HTTP 403); check the User-Agent, the key and the usage policy")
    }

    @Test(.needsTool("python3")) func overHTTP() throws {
        #expect(try run("error/Rate%20Limited").result.error == .rateLimited(retryAfter: nil, message: "Rate Limited"))
        #expect(try run("error/Invalid%20key").result.error == .refused(status: nil, message: "Invalid key"))
        // A 404 page: its title, never the HTML (the page is over 6 KB).
        #expect(try run("html404").result.error == .badRequest(status: 404, message: "404 Not Found"))
    }
}
