import EkiCLI
import EkiGeocoding
import EkiKit
import EkiServer
import EkiTestSupport
import Foundation

/// One answer as a raw HTTP/1.1 client read it.
struct RawResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body parsed as JSON.
    var json: Any { (try? JSONSerialization.jsonObject(with: Data(body))) ?? NSNull() }
    var object: [String: Any] { json as? [String: Any] ?? [:] }
    var features: [[String: Any]] { object["features"] as? [[String: Any]] ?? [] }
    var keys: [String] { features.map { ($0["properties"] as? [String: Any])?["key"] as? String ?? "?" } }
    var error: String? { object["error"] as? String }
}

/// A server on the sample database (`Datasets/n02-odawara-tokyo.csv`: 39 entries, 21 around
/// 小田原) in a fresh folder, on 127.0.0.1 and a port the system chooses.
final class TestServer: @unchecked Sendable {
    let folder: URL
    let db: String
    let visits: String
    let server: MapServer
    var port: UInt16 { server.port }
    var token: String { server.token }

    /// `configure` changes the configuration last (accounts, TLS, the address).
    init(readOnly: Bool = false, webRoot: String? = nil, geocoder: GeocoderConfiguration? = nil,
         limits: HTTPLimits = HTTPLimits(), database: String? = nil,
         configure: ((inout MapServerConfiguration) throws -> Void)? = nil) throws {
        folder = TestPaths.temporaryDirectory()
        visits = folder.appendingPathComponent("visits.sqlite").path
        if let database {
            db = database
        } else {
            db = folder.appendingPathComponent("stations.gpkg").path
            let status = EkiCommandLine.run(["import", "--db", db, TestPaths.package("Datasets/n02-odawara-tokyo.csv")],
                                            console: Console(out: { _ in }, err: { _ in }))
            precondition(status == 0, "importing the sample failed")
        }
        var c = MapServerConfiguration(databasePath: db, visitsPath: visits, listen: ListenAddress(host: "127.0.0.1", port: 0),
                                       tiles: nil, readOnly: readOnly, threads: 4, webRoot: webRoot, limits: limits)
        c.geocoder = geocoder ?? GeocoderConfiguration(cachePath: nil, minimumRequestInterval: 0, providerOrder: [.stations])
        try configure?(&c)
        server = try MapServer(configuration: c)
    }

    deinit { server.stop() }

    /// Sends `method target` with the given extra header lines and body over a new connection,
    /// exactly as written (nothing normalized), and reads the whole answer.
    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = [],
              host: String? = nil, rawHead: String? = nil) throws -> RawResponse {
        var head = rawHead ?? "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { head += "\(k): \(v)\r\n" }
        if !body.isEmpty && headers["Transfer-Encoding"] == nil { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return try RawHTTP.exchange(port: port, Array(head.utf8), body: body)
    }

    func get(_ target: String, headers: [String: String] = [:]) throws -> RawResponse {
        try send("GET", target, headers: headers)
    }

    /// A write as the page sends it: JSON, with the CSRF token.
    func write(_ method: String, _ target: String, json: String? = nil, token: String? = nil,
               headers: [String: String] = [:]) throws -> RawResponse {
        var h = headers
        h["X-CSRF-Token"] = token ?? self.token
        if json != nil && h["Content-Type"] == nil { h["Content-Type"] = "application/json" }
        return try send(method, target, headers: h, body: Array((json ?? "").utf8))
    }
}

/// A plain TCP client for the tests: bytes out, bytes in, parsed into status, headers and body.
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Sends `head`, then — unless the server has already answered (a 413 for announced sizes)
    /// — `body`, and reads until the server closes.
    static func exchange(port: UInt16, _ head: [UInt8], body: [UInt8] = []) throws -> RawResponse {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else { throw Failure(description: "connect failed") }
        var tv = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        func write(_ bytes: [UInt8]) {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }   // the server may answer (413) and close before reading everything
                sent += n
            }
        }
        write(head)
        if !body.isEmpty {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 200) == 0 { write(body) }
        }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data.append(contentsOf: buffer[..<n])
        }
        return try parse(data)
    }

    static func parse(_ data: [UInt8]) throws -> RawResponse {
        let sep: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = (0..<max(0, data.count - 3)).first(where: { Array(data[$0..<$0 + 4]) == sep }) else {
            throw Failure(description: "no complete answer (\(data.count) bytes)")
        }
        let head = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            if let colon = line.firstIndex(of: ":") {
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        var body = Array(data[(end + 4)...])
        if let n = headers["content-length"].flatMap(Int.init), body.count > n { body = Array(body[..<n]) }
        return RawResponse(status: status, headers: headers, body: body)
    }
}

/// Runs `eki` in-process and returns (status, stdout, stderr).
func runEki(_ arguments: [String], environment: [String: String] = [:]) -> (status: Int32, out: String, err: String) {
    final class Box: @unchecked Sendable {
        let lock = NSLock()
        var out = "", err = ""
    }
    let box = Box()
    let console = Console(out: { s in box.lock.withLock { box.out += s } }, err: { s in box.lock.withLock { box.err += s } },
                          environment: environment)
    let status = EkiCommandLine.run(arguments, console: console)
    return (status, box.out, box.err)
}

/// JSON text parsed, for comparing answers independent of spacing.
func parsed(_ text: String) -> NSObject? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? NSObject
}

func percent(_ s: String) -> String {
    s.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~,"))) ?? s
}

/// The features of a FeatureCollection printed by `eki … --format geojson`.
func features(ofCLI text: String) -> [[String: Any]] {
    (parsed(text) as? [String: Any])?["features"] as? [[String: Any]] ?? []
}

/// True when two lists of JSON objects are equal value for value.
func sameJSON(_ a: [[String: Any]], _ b: [[String: Any]]) -> Bool {
    NSArray(array: a).isEqual(to: b)
}

/// True when the API's features are the command line's ones plus the member the API adds to
/// every feature (`operator_short`, the short operator name).
func sameAsCLI(_ cli: [[String: Any]], _ api: [[String: Any]]) -> Bool {
    let stripped = api.map { f -> [String: Any] in
        var f = f
        var p = f["properties"] as? [String: Any] ?? [:]
        guard p.removeValue(forKey: "operator_short") != nil else { return ["missing": "operator_short"] }
        f["properties"] = p
        return f
    }
    return sameJSON(cli, stripped)
}
