import Foundation

/// Which `Host` fields the server answers, as a browser writes them (RFC 9110 §7.2: `name`,
/// `name:port`, `[IPv6]:port`; the port left out when it is the scheme's default, 80 for HTTP
/// and 443 for HTTPS). A request with any other `Host` is refused on every route, the page
/// included (403 `foreign_host`), so that a foreign site's name pointed at this machine (DNS
/// rebinding) reads nothing, not the page nor its write token.
///
/// The port must be the one listened on. The name must be one of:
/// - `localhost`, `127.0.0.1` or `[::1]` (this machine's own names, which no DNS answer can change);
/// - the `--listen` host itself (unless it is a wildcard, `0.0.0.0` or `::`);
/// - when listening on an address other than loopback, any IP address (`192.0.2.7`,
///   `[2001:db8::7]`): a browser sends an address only when it was asked for that address, with no
///   name to rebind;
/// - a name given with `--host` (`MapServerConfiguration.hostNames`), for a name by which other
///   machines reach this one (`eki.example.org`, `mymachine.local`).
/// Names compare without case.
public struct HostCheck: Sendable {
    public let listen: ListenAddress
    public let port: UInt16
    public let isTLS: Bool
    public let names: Set<String>

    public init(listen: ListenAddress, port: UInt16, isTLS: Bool, names: [String] = []) {
        self.listen = listen
        self.port = port
        self.isTLS = isTLS
        self.names = Set(names.map { $0.lowercased() })
    }

    /// True when `host` (the request's `Host` field as sent) names this server.
    public func accepts(_ host: String) -> Bool {
        guard let (name, explicitPort) = Self.split(host.lowercased()) else { return false }
        guard (explicitPort ?? (isTLS ? 443 : 80)) == port else { return false }
        if ["localhost", "127.0.0.1", "[::1]"].contains(name) || names.contains(name) { return true }
        let own = listen.host.contains(":") ? "[\(listen.host.lowercased())]" : listen.host.lowercased()
        if name == own && !["0.0.0.0", "[::]"].contains(own) { return true }
        return !listen.isLoopback && Self.isAddress(name)
    }

    /// `name` and the port of a Host field (nil when it has none); nil when it is malformed
    /// (empty, a port that is not a number, text after an IPv6 literal's bracket).
    static func split(_ host: String) -> (String, UInt16?)? {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let name = String(host[...close])
            let rest = host[host.index(after: close)...]
            if rest.isEmpty { return (name, nil) }
            guard rest.hasPrefix(":"), let p = UInt16(rest.dropFirst()) else { return nil }
            return (name, p)
        }
        guard !host.isEmpty else { return nil }
        guard let colon = host.lastIndex(of: ":") else { return (host, nil) }
        let name = String(host[..<colon])
        guard !name.isEmpty, !name.contains(":"), let p = UInt16(host[host.index(after: colon)...]) else { return nil }
        return (name, p)
    }

    /// An IPv4 address in dotted form or an IPv6 address in brackets (as a Host field holds it).
    static func isAddress(_ name: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        if name.hasPrefix("[") && name.hasSuffix("]") {
            return inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &v6) == 1
        }
        return inet_pton(AF_INET, name, &v4) == 1
    }
}
