import Foundation
@testable import EkiGeocoding

/// The loopback server of `Fixtures/geocoder_server.py`, one per test. It is stopped by closing
/// its stdin (a child of Swift Testing may have SIGTERM blocked).
final class LocalServer {
    struct Request: Decodable {
        var path: String
        /// The raw query string as received (still percent-encoded).
        var query: String
        /// `q`, decoded by the server.
        var q: String
        var ua: String
        var accept_encoding: String
        /// Arrival, seconds since 1970.
        var t: Double
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("Tests/EkiGeocodingTests/Fixtures/geocoder_server.py").path
    /// The recorded bodies, at `../shared/peer-suites/geocoder-samples` from the package root.
    static let samplesDirectory = packageRoot
        .appendingPathComponent("../shared/peer-suites/geocoder-samples").standardizedFileURL.path
    static var samplesAvailable: Bool {
        FileManager.default.fileExists(atPath: samplesDirectory + "/gsi/ypm_q_hakodate-kogyo.json")
    }

    private let process = Process()
    private let input = Pipe()
    let port: Int

    struct StartFailure: Error, CustomStringConvertible { var description: String }

    init(samples: Bool = false) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script] + (samples ? [Self.samplesDirectory] : [])
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8),
              let p = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            try? input.fileHandleForWriting.close()
            throw StartFailure(description: "geocoder_server.py did not print a port")
        }
        port = p
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Base URL that makes the server behave as `scenario` (see the script's docstring).
    func endpoint(_ scenario: String) -> String { "http://127.0.0.1:\(port)/\(scenario)" }

    /// Every request the server has answered so far, except these log reads.
    func requests() throws -> [Request] {
        let curl = try CurlEasy(settings: TransferSettings(userAgent: "EkiGeocodingTests", connectTimeout: 2,
                                                           timeout: 5, maxResponseBytes: 1 << 20, maxRedirects: 0))
        let r = try curl.get("http://127.0.0.1:\(port)/_log")
        return try JSONDecoder().decode([Request].self, from: Data(r.body))
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
