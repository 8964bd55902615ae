import EkiKit
import EkiTestSupport
import Foundation
import Testing
@testable import EkiGeocoding

/// The error `body` threw, when it is a `GeocodingError`.
func caught(_ body: () throws -> Void) -> GeocodingError? {
    do { try body() } catch let e as GeocodingError { return e } catch { return nil }
    return nil
}

/// A server answering as `scenario`, a geocoder on a fresh cache pointed at it, and the time taken.
func run(_ scenario: String, _ query: String = "小田原",
         configure: (inout GeocoderConfiguration) -> Void = { _ in })
    throws -> (result: Result<[GeocodeCandidate], GeocodingError>, requests: [GeocoderTestServer.Request], seconds: Double) {
    let server = try GeocoderTestServer()
    let cache = TemporaryDirectory()
    var config = testConfiguration(server, scenario, cache: cache)
    configure(&config)
    let geocoder = try Geocoder(configuration: config)
    let start = Date()
    let result: Result<[GeocodeCandidate], GeocodingError>
    do { result = .success(try geocoder.geocode(query)) } catch let e as GeocodingError { result = .failure(e) }
    return (result, try server.requests(), Date().timeIntervalSince(start))
}

extension Result {
    var error: Failure? { if case .failure(let e) = self { return e } else { return nil } }
    var value: Success? { try? get() }
}

/// Each deliberate misbehaviour of the server gives its typed error (or the right answer) in
/// bounded time, with the expected number of requests (one retry on 429/5xx only).
@Suite(.needsTool("python3")) struct HTTPMisbehaviourTests {
    @Test func sleepingPastTheTimeoutIsTimedOutWithoutRetry() throws {
        let r = try run("slow/5")
        #expect(r.result.error == .timedOut(seconds: 1))
        #expect(r.seconds < 3)
        #expect(r.requests.count == 1)
    }

    @Test func tooLongRetryAfterIsRateLimitedAtOnce() throws {
        let r = try run("s429/120")
        #expect(r.result.error == .rateLimited(retryAfter: 120))
        #expect(r.requests.count == 1)
        #expect(r.seconds < 1)
    }

    @Test func shortRetryAfterIsHonouredThenRetriedOnce() throws {
        let r = try run("s429once/1")
        #expect(r.result.value?.first?.title == "小田原駅")
        #expect(r.requests.count == 2)
        if r.requests.count == 2 { #expect(r.requests[1].t - r.requests[0].t >= 1) }
    }

    @Test func serverErrorIsRetriedOnceThenUnavailable() throws {
        let r = try run("s500")
        guard case .unavailable(status: 500, _)? = r.result.error else {
            Issue.record("expected unavailable(500), got \(r.result)"); return
        }
        #expect(r.requests.count == 2)
    }

    @Test func serverErrorOnceIsRecoveredByTheRetry() throws {
        let r = try run("s503once")
        #expect(r.result.value?.count == 2)
        #expect(r.requests.count == 2)
    }

    @Test func forbiddenIsRefusedWithoutRetry() throws {
        let r = try run("s403")
        #expect(r.result.error == .refused(status: 403))
        #expect(r.requests.count == 1)
    }

    @Test func badRequestIsNotRetried() throws {
        let r = try run("s400")
        guard case .badRequest(status: 400, let message)? = r.result.error else {
            Issue.record("expected badRequest(400), got \(r.result)"); return
        }
        #expect(message.contains("deliberate 400"))
        #expect(r.requests.count == 1)
    }

    /// A 200 block page is the refusal it states, with its heading as the message.
    @Test func htmlBlockPageIsRefused() throws {
        #expect(try run("html").result.error == .refused(status: nil, message: "Access blocked"))
    }

    @Test func invalidJSONIsUnparseable() throws {
        #expect(try run("badjson").result.error == .unparseable(reason: "invalid JSON"))
    }

    @Test(arguments: ["huge", "hugestream", "gzipbomb"])
    func fiveMebibytesAreTooLarge(_ scenario: String) throws {
        let r = try run(scenario)
        #expect(r.result.error == .responseTooLarge(limit: 1 << 20))
        #expect(r.requests.count == 1)
    }

    @Test func redirectToFileIsRefusedByProtocol() throws {
        let r = try run("redirect-file")
        guard case .transport(code: 1, _)? = r.result.error else {     // CURLE_UNSUPPORTED_PROTOCOL
            Issue.record("expected transport(1), got \(r.result)"); return
        }
        #expect(r.requests.count == 1)
    }

    @Test func redirectLoopStopsAtTheLimit() throws {
        let r = try run("redirect-loop")
        guard case .transport(code: 47, _)? = r.result.error else {    // CURLE_TOO_MANY_REDIRECTS
            Issue.record("expected transport(47), got \(r.result)"); return
        }
        #expect(r.requests.count == 4)                                  // first + 3 redirects
    }

    @Test func httpRedirectIsFollowed() throws {
        let r = try run("redirect-ok")
        #expect(r.result.value?.map(\.title) == ["小田原駅", "小田原城"])
        #expect(r.requests.map { $0.path.hasPrefix("/ok/") } == [false, true])
    }

    @Test func gzipBodyIsDecodedAndEncodingsAreOffered() throws {
        let r = try run("gzip")
        #expect(r.result.value?.count == 2)
        #expect(r.requests.first?.accept_encoding.contains("gzip") == true)
    }

    @Test func closedPortIsUnavailable() throws {
        var endpoint = ""
        do { endpoint = try GeocoderTestServer().endpoint("ok") }              // stopped at once
        let cache = TemporaryDirectory()
        let g = try Geocoder(configuration: GeocoderConfiguration(gsiEndpoint: endpoint, cachePath: cache.file("c.sqlite"),
                                                                  providerOrder: [.gsi]))
        guard case .unavailable(status: nil, _)? = caught({ _ = try g.geocode("小田原") }) else {
            Issue.record("expected unavailable(nil)"); return
        }
    }

    @Test func userAgentIsSentAndStockOnesAreRefused() throws {
        let good = try run("ua")
        #expect(good.result.value?.count == 2)
        #expect(good.requests.first?.ua == GeocoderConfiguration.userAgent(contact: nil))
        #expect(GeocoderConfiguration.userAgent(contact: nil) == "EkiKit/\(EkiKitVersion.string)")

        let stock = try run("ua") { $0.userAgent = "curl/7.88.1" }      // GSI sends it; server refuses
        #expect(stock.result.error == .refused(status: 403))

        for ua in ["curl/7.88.1", "libcurl-agent/1.0", "", "  "] {      // Nominatim: never sent
            let r = try run("ok") { $0.userAgent = ua; $0.providerOrder = [.nominatim] }
            guard case .misconfigured? = r.result.error else { Issue.record("'\(ua)' was accepted"); continue }
            #expect(r.requests.isEmpty)
        }
    }

    @Test func queryIsPercentEncoded() throws {
        let query = "小田原 駅&東口 #2 100%"
        for provider in [GeocodeProvider.gsi, .nominatim] {
            let r = try run("echo", query) { $0.providerOrder = [provider] }
            #expect(r.result.value?.first?.title == query)
            let raw = r.requests.first?.query ?? ""
            #expect(raw.hasPrefix("q=%E5%B0%8F%E7%94%B0%E5%8E%9F%20%E9%A7%85%26%E6%9D%B1%E5%8F%A3%20%232%20100%25"))
            #expect(!raw.contains("+") && !raw.contains("#"))
        }
    }

    @Test func halfWidthQueryIsSentAsNFKC() throws {
        let r = try run("echo", "ﾀﾞｲﾔ　函館")
        #expect(r.result.value?.first?.title == "ダイヤ 函館")
    }
}
