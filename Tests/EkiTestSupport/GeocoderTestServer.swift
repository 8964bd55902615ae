import Foundation

/// The loopback HTTP server of `Tests/EkiGeocodingTests/Fixtures/geocoder_server.py` (see its
/// docstring for the scenarios it plays), one per test, on 127.0.0.1 and a free port. It is
/// stopped by closing its stdin: a child process of Swift Testing may have SIGTERM blocked.
/// Not thread-safe: one test uses one server.
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
    public static let samplesFolder = "peer-suites/geocoder-samples"
    public static var samplesDirectory: String { TestPaths.requireShared(samplesFolder) }
    /// True when the recorded bodies are there (a test serving them needs `.needsShared(samplesFile)`).
    public static let samplesFile = samplesFolder + "/gsi/ypm_q_hakodate-kogyo.json"

    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    /// What the server wrote on stdout and has not been read as a line yet.
    private var pending = Data()
    public let port: Int

    /// Starts the server; with `samples`, it also serves the recorded bodies.
    public init(samples: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script] + (samples ? [Self.samplesDirectory] : [])
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var buffer = Data()
        let first = Self.nextLine(output.fileHandleForReading, &buffer)
        pending = buffer
        guard let p = Int(first.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            try? input.fileHandleForWriting.close()
            throw StartFailure(description: "geocoder_server.py did not print a port")
        }
        port = p
    }

    /// The next line of `handle`, `buffer` holding what was read beyond it (empty at the end).
    private static func nextLine(_ handle: FileHandle, _ buffer: inout Data) -> String {
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        let end = buffer.firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? buffer.endIndex
        let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
        buffer = Data(buffer[end...])
        return line
    }

    /// Every request the server has answered so far, oldest first (asked on its stdin, so the
    /// asking is no request of its own).
    public func requests() throws -> [Request] {
        input.fileHandleForWriting.write(Data("log\n".utf8))
        return try JSONDecoder().decode([Request].self, from: Data(Self.nextLine(output.fileHandleForReading, &pending).utf8))
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Base URL that makes the server behave as `scenario`.
    public func endpoint(_ scenario: String) -> String { "http://127.0.0.1:\(port)/\(scenario)" }
}
