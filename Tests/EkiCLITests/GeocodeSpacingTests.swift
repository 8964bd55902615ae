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
        let env = ["EKI_CACHE": "", "XDG_RUNTIME_DIR": runtime]
        let processes = try ["小田原", "新横浜"].map { q -> (Process, Pipe, Pipe) in
            let p = Process(), out = Pipe(), err = Pipe()
            p.executableURL = URL(fileURLWithPath: binary)
            p.arguments = ["geocode", q, "--provider", "gsi", "--endpoint", server.endpoint("ok"), "--format", "csv"]
            p.environment = env
            p.standardOutput = out
            p.standardError = err
            p.standardInput = FileHandle.nullDevice
            try p.run()
            return (p, out, err)
        }
        for (p, out, err) in processes {
            _ = out.fileHandleForReading.readDataToEndOfFile()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(message)")
        }
        let times = try server.requests().map(\.t).sorted()
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1] - times[0] >= 1.0, "\(times[1] - times[0]) s apart") }
        // The spacing lives in its own file in the runtime directory.
        #expect(FileManager.default.fileExists(atPath: runtime + "/eki/geocode-spacing.sqlite"))
    }
}
