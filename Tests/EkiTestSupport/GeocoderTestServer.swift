import Foundation

/// The loopback HTTP server of `Tests/EkiGeocodingTests/Fixtures/geocoder_server.py` (see its
/// docstring for the scenarios it plays), one per test, on 127.0.0.1 and a free port. It is
/// stopped by closing its stdin: a child process of Swift Testing may have SIGTERM blocked.
public final class GeocoderTestServer {
    /// One request as the server logged it.
    public struct Request: Decodable, Sendable {
        public var path: String
        /// The raw query string as received (still percent-encoded).
        public var query: String
        /// `q`, decoded by the server.
        public var q: String
        public var ua: String
        public var accept_encoding: String
        /// Arrival, seconds since 1970.
        public var t: Double
    }

    public static let script = TestPaths.package("Tests/EkiGeocodingTests/Fixtures/geocoder_server.py")
    /// The recorded bodies, at `../shared/peer-suites/geocoder-samples` from the package root.
    public static let samplesDirectory = TestPaths.packageRoot
        .appendingPathComponent("../shared/peer-suites/geocoder-samples").standardizedFileURL.path
    public static var samplesAvailable: Bool {
        FileManager.default.fileExists(atPath: samplesDirectory + "/gsi/ypm_q_hakodate-kogyo.json")
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    private let process = Process()
    private let input = Pipe()
    public let port: Int

    /// Starts the server; with `samples`, it also serves the recorded bodies.
    public init(samples: Bool = false) throws {
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
        guard let p = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            try? input.fileHandleForWriting.close()
            throw StartFailure(description: "geocoder_server.py did not print a port")
        }
        port = p
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Base URL that makes the server behave as `scenario`.
    public func endpoint(_ scenario: String) -> String { "http://127.0.0.1:\(port)/\(scenario)" }

    /// The URL of the server's request log (a JSON array of `Request`).
    public var logURL: String { "http://127.0.0.1:\(port)/_log" }
}
