import EkiTestSupport
import Foundation
@testable import EkiGeocoding

/// The loopback server of `Tests/EkiGeocodingTests/Fixtures/geocoder_server.py` (see its
/// docstring for the scenarios), started as EkiGeocodingTests' `LocalServer` starts it. It is
/// stopped by closing its stdin: a child of Swift Testing may have SIGTERM blocked.
final class GeocoderServer {
    struct Request: Decodable {
        var path: String
        /// The raw query string as received (still percent-encoded).
        var query: String
        /// `q`, decoded by the server.
        var q: String
        var ua: String
        /// Arrival, seconds since 1970.
        var t: Double
    }

    static let script = TestPaths.package("Tests/EkiGeocodingTests/Fixtures/geocoder_server.py")

    private let process = Process()
    private let input = Pipe()
    let port: Int

    struct StartFailure: Error, CustomStringConvertible { var description: String }

    init() throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script]
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
    func endpoint(_ scenario: String) -> String { "http://127.0.0.1:\(port)/\(scenario)" }

    /// Every request the server has answered so far, except these log reads.
    func requests() throws -> [Request] {
        let curl = try CurlEasy(settings: TransferSettings(userAgent: "EkiCLITests", connectTimeout: 2,
                                                           timeout: 5, maxResponseBytes: 1 << 20, maxRedirects: 0))
        let r = try curl.get("http://127.0.0.1:\(port)/_log")
        return try JSONDecoder().decode([Request].self, from: Data(r.body))
    }
}
