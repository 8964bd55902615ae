import Foundation
import Testing
import EkiTestSupport

/// Requests stay at least 1 s apart across `eki` processes even with `EKI_CACHE=""` (no answer
/// cache): the spacing file lives in the runtime directory.
@Suite struct GeocodeSpacingTests {
    let dir = TestPaths.temporaryDirectory()

    @Test(.needsTool("python3")) func twoProcessesWithoutCacheAreSpaced() throws {
        let binary = try #require(GeocodeCommandTests.ekiBinary, "the eki executable is built beside the tests")
        let server = try GeocoderTestServer()
        let runtime = dir.appendingPathComponent("runtime").path
        let runs = try GeocodeCommandTests.geocodeTogether(["小田原", "新横浜"], binary: binary, server: server,
                                                           environment: ["EKI_CACHE": "", "XDG_RUNTIME_DIR": runtime])
        for r in runs { #expect(r.status == 0, "\(r.err)") }
        let times = try server.requests().map(\.t).sorted()
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] >= 1.0, "\(times[1] - times[0]) s apart") }
        // The spacing lives in its own file in the runtime directory.
        #expect(FileManager.default.fileExists(atPath: runtime + "/eki/geocode-spacing.sqlite"))
    }
}
