import Foundation

/// Where the server listens: `HOST:PORT` (`127.0.0.1:8080`, `[::1]:8080`, `localhost:0`; port 0
/// lets the system choose one, which `HTTPServer.port` then reports).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public static let defaultAddress = ListenAddress(host: "127.0.0.1", port: 8080)

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; an IPv6 host is written in brackets.
    /// - Throws: `ServerError.badListenAddress` with the reason.
    public init(parsing text: String) throws(ServerError) {
        let host: Substring, port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw .badListenAddress(text, "write an IPv6 address as [ADDRESS]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .badListenAddress(text, "expected HOST:PORT") }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw .badListenAddress(text, "the host is empty") }
        guard let p = UInt16(port) else { throw .badListenAddress(text, "the port must be a number 0…65535") }
        self.host = String(host)
        self.port = p
    }

    /// True for `localhost`, 127.0.0.0/8 and `::1`: only this machine can connect.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `host:port`, brackets around an IPv6 host.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
