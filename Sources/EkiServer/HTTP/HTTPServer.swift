import CMicroHTTPD
import EkiKit
import Foundation
import Synchronization

/// Limits on what a client may send and on the connections it may hold: past the size limits the
/// answer is 413 and the request is not handled; the connection limits keep slow and idle clients
/// from shutting out the others (docs/serve.md, "Slow and idle clients").
public struct HTTPLimits: Sendable {
    /// Bytes of the request target (path and query).
    public var maxTarget: Int
    /// Bytes of all header names and values together.
    public var maxHeaderBytes: Int
    /// Bytes of the body.
    public var maxBody: Int
    /// Bytes of the body of `POST /api/sync` (a batch of up to 5,000 visit changes).
    public var maxSyncBody: Int
    /// Bytes of the body of `POST /api/visits/{id}/photos` (one photo as the phone sends it):
    /// 40 MiB, `PhotoLimits.maxInputBytes`.
    public var maxPhotoBody: Int
    /// Connections open at once, all clients together (`MHD_OPTION_CONNECTION_LIMIT`): 4,096.
    /// A connection past it waits in the listen backlog until another closes. The server raises
    /// the process's soft open-files limit toward the hard one to fit them; under a lower hard
    /// limit it takes fewer (`HTTPServer.connectionLimit`).
    public var maxConnections: Int
    /// Connections open at once from one client address (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`),
    /// when the server listens on an address other than loopback: 128; one past it is closed at
    /// once. On a loopback address every client is 127.0.0.1 or ::1, so there a limit per
    /// address would be one limit on everyone together: none.
    public var maxConnectionsPerClient: Int
    /// Seconds a connection may stay without a byte from the client before it is closed
    /// (`MHD_OPTION_CONNECTION_TIMEOUT`: an idle keep-alive connection, a request head or body
    /// that stalls): 15.
    public var idleTimeout: Int

    public init(maxTarget: Int = 4096, maxHeaderBytes: Int = 8192, maxBody: Int = 16 * 1024, maxSyncBody: Int = 4 * 1024 * 1024,
                maxPhotoBody: Int = 40 * 1024 * 1024, maxConnections: Int = 4096, maxConnectionsPerClient: Int = 128,
                idleTimeout: Int = 15) {
        self.maxTarget = maxTarget
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBody = maxBody
        self.maxSyncBody = maxSyncBody
        self.maxPhotoBody = maxPhotoBody
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
        self.idleTimeout = idleTimeout
    }

    /// The body limit for a request to `path` (as sent).
    public func maxBody(path: String) -> Int {
        if path == "/api/sync" { return maxSyncBody }
        if Self.isPhotoUpload(path) { return maxPhotoBody }
        return maxBody
    }

    /// `/api/visits/{digits}/photos`, the one route whose body may be a photo.
    static func isPhotoUpload(_ path: String) -> Bool {
        guard path.hasPrefix("/api/visits/"), path.hasSuffix("/photos") else { return false }
        let id = path.dropFirst("/api/visits/".count).dropLast("/photos".count)
        return !id.isEmpty && id.count <= 18 && id.allSatisfy(\.isASCII) && id.allSatisfy(\.isNumber)
    }
}

/// A certificate and its private key for HTTPS, as PEM text (what `--tls-cert` and `--tls-key`
/// name). The certificate file may hold the chain after the server's own certificate.
public struct TLSCredentials: Sendable {
    public var certificatePEM: String
    public var keyPEM: String

    public init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    /// True when this libmicrohttpd was built with TLS (Debian's is, on GnuTLS).
    public static var isSupported: Bool { eki_mhd_has_tls() != 0 }
}

/// An HTTP/1.1 server on libmicrohttpd: the one owner of an `MHD_Daemon`. It parses requests
/// (libmicrohttpd does: no HTTP parsing here), enforces `HTTPLimits`, and calls `handler` on one
/// of `threads` worker threads, each serving its own connections; handlers therefore run in
/// parallel, up to `threads` at once.
///
/// The path reaches the handler still percent-encoded (libmicrohttpd's unescaping is turned off)
/// so that `%2F` can be refused; query values are decoded here.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    let handler: Handler
    let limits: HTTPLimits
    private var daemon: OpaquePointer?
    /// Requests received and not yet answered (for a clean stop).
    private let inFlight = Mutex(0)
    /// `stop` has begun: new requests are answered 503.
    private let stopping = Atomic(false)
    /// The port the server listens on (the chosen one when the address asked for port 0).
    public private(set) var port: UInt16 = 0
    /// HTTPS (libmicrohttpd's TLS) rather than plain HTTP.
    public let isTLS: Bool
    /// The connections it holds open at most: `HTTPLimits.maxConnections`, or fewer when the
    /// process's open-files limit cannot be raised that far.
    public let connectionLimit: Int
    /// The connections it holds open now, all worker threads together.
    public var openConnections: Int { daemon.map { Int(eki_mhd_current_connections($0)) } ?? 0 }
    /// The PEM texts, kept for as long as the daemon runs.
    private let tlsTexts: (cert: UnsafeMutablePointer<CChar>, key: UnsafeMutablePointer<CChar>)?

    /// Binds `address` and starts serving, over HTTPS when `tls` is given.
    /// - Throws: `ServerError.cannotListen` when the host does not resolve or the port cannot
    ///   be bound (in use, not permitted), or the certificate and key are refused;
    ///   `ServerError.misconfigured` when this libmicrohttpd has no TLS.
    public init(address: ListenAddress, threads: Int, limits: HTTPLimits = HTTPLimits(), tls: TLSCredentials? = nil,
                handler: @escaping Handler) throws {
        self.handler = handler
        self.limits = limits
        if tls != nil && !TLSCredentials.isSupported {
            throw ServerError.misconfigured("this libmicrohttpd was built without TLS (MHD_FEATURE_TLS): --tls-cert needs one that has it, as Debian's libmicrohttpd12 has")
        }
        isTLS = tls != nil
        tlsTexts = tls.map { (strdup($0.certificatePEM)!, strdup($0.keyPEM)!) }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var res: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(address.host, String(address.port), &hints, &res)
        guard rc == 0, let info = res else {
            throw ServerError.cannotListen(address.description, String(cString: gai_strerror(rc)))
        }
        defer { freeaddrinfo(res) }
        connectionLimit = Self.fitOpenFiles(connections: max(1, limits.maxConnections))
        var settings = eki_mhd_settings(ipv6: info.pointee.ai_family == AF_INET6 ? 1 : 0, threads: UInt32(max(1, threads)),
                                        connection_memory: 64 * 1024, connection_limit: UInt32(connectionLimit),
                                        per_ip_limit: address.isLoopback ? 0 : UInt32(max(0, limits.maxConnectionsPerClient)),
                                        timeout: UInt32(max(0, limits.idleTimeout)), backlog: 1024,
                                        address: info.pointee.ai_addr, tls_cert: tlsTexts?.cert, tls_key: tlsTexts?.key)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let completed: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
            guard let cls, let slot = conCls, let state = slot.pointee else { return }
            Unmanaged<RequestState>.fromOpaque(state).release()
            slot.pointee = nil
            Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().inFlight.withLock { $0 -= 1 }
        }
        let access: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, conCls in
            Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue()
                .access(connection!, url: url!, method: method!, uploadData: uploadData, uploadSize: uploadSize!, conCls: conCls!)
        }
        daemon = eki_mhd_start(&settings, access, completed, me)
        guard let daemon else {
            let why = String(cString: strerror(errno))
            throw ServerError.cannotListen(address.description, tls == nil ? why : "\(why) (or the TLS certificate and key were refused)")
        }
        port = eki_mhd_bound_port(daemon)
    }

    /// Raises the process's soft open-files limit (`RLIMIT_NOFILE`) toward its hard limit so
    /// that `connections` sockets fit beside `reserve` other descriptors (the databases, photos,
    /// the listening socket, libmicrohttpd's own); returns how many connections fit (at least 16).
    static func fitOpenFiles(connections: Int, reserve: Int = 256) -> Int {
        var r = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &r) == 0 else { return connections }
        let need = rlim_t(connections + reserve)
        if r.rlim_cur != rlim_t.max && r.rlim_cur < need {
            var raised = r
            raised.rlim_cur = r.rlim_max == rlim_t.max ? need : min(need, r.rlim_max)
            if setrlimit(resource, &raised) == 0 { r = raised }
        }
        if r.rlim_cur == rlim_t.max { return connections }
        return max(16, min(connections, Int(r.rlim_cur) - reserve))
    }

    deinit {
        stop()
        if let t = tlsTexts { free(t.cert); free(t.key) }
    }

    /// Stops taking requests — one that arrives now is answered 503 with `Retry-After: 1` and
    /// `Connection: close` — lets requests already received finish (up to `grace` seconds),
    /// then closes the listening socket and every connection and joins the worker threads.
    /// Idempotent.
    ///
    /// (No `MHD_quiesce_daemon`: in libmicrohttpd 0.9.75 with an epoll thread pool it races the
    /// workers taking the listening socket out of their epoll sets and can abort the process,
    /// "Failed to remove listen FD from epoll set". `MHD_stop_daemon` closes that socket only
    /// after the workers have stopped.)
    public func stop(grace: Double = 5) {
        guard let d = daemon else { return }
        daemon = nil
        stopping.store(true, ordering: .sequentiallyConsistent)
        let deadline = Date().addingTimeInterval(grace)
        while inFlight.withLock({ $0 }) > 0 && Date() < deadline { usleep(5_000) }
        MHD_stop_daemon(d)
    }

    /// The state of one request between libmicrohttpd's calls: its body so far.
    final class RequestState {
        var body: [UInt8] = []
        /// The body limit for this request's path.
        var maxBody = 0
        /// An answer was queued already, or the body is being dropped.
        var refused = false
        /// The body went past the limit: answer 413 when it ends.
        var tooLarge = false
        var dropped = 0
    }

    /// The language the request's `Accept-Language` prefers.
    private static func language(_ connection: OpaquePointer) -> Language {
        Language(acceptLanguage: values(connection, eki_mhd_header_kind()).first { $0.0.lowercased() == "accept-language" }?.1)
    }

    private func access(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                        uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                        conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let raw = conCls.pointee else {
            // First call: headers only. Refuse oversized targets, headers and announced bodies now.
            let state = RequestState()
            state.maxBody = limits.maxBody(path: String(cString: url))
            conCls.pointee = Unmanaged.passRetained(state).toOpaque()
            inFlight.withLock { $0 += 1 }
            let headers = Self.values(connection, eki_mhd_header_kind())
            let headerBytes = headers.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 }
            let targetBytes = strlen(url) + Self.values(connection, eki_mhd_query_kind())
                .reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 2 }
            if stopping.load(ordering: .sequentiallyConsistent) {
                state.refused = true
                var r = HTTPResponse.error(503, "stopping", APIMessage.stopping.text(Self.language(connection)))
                r.headers += [("Retry-After", "1"), ("Connection", "close")]
                return Self.queue(r, on: connection)
            }
            var refusal: APIMessage?
            if targetBytes > limits.maxTarget {
                refusal = .tooLarge(what: .target, limit: limits.maxTarget)
            } else if headerBytes > limits.maxHeaderBytes {
                refusal = .tooLarge(what: .headers, limit: limits.maxHeaderBytes)
            } else if let length = headers.first(where: { $0.0.lowercased() == "content-length" }).flatMap({ Int($0.1) }),
                      length > state.maxBody {
                refusal = .tooLarge(what: .body, limit: state.maxBody)
            }
            if let refusal {
                state.refused = true
                return Self.queue(.error(413, "too_large", refusal.text(Self.language(connection))), on: connection)
            }
            return eki_mhd_yes()
        }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let n = uploadSize.pointee
            uploadSize.pointee = 0
            if state.refused {
                // Past the limit the body is read and dropped, and 413 is the answer once it has
                // ended (libmicrohttpd cannot answer in the middle of a chunked upload); a body
                // far past the limit just closes the connection.
                state.dropped += n
                return state.dropped > 16 * state.maxBody ? eki_mhd_no() : eki_mhd_yes()
            }
            if state.body.count + n > state.maxBody {
                state.refused = true
                state.tooLarge = true
                state.dropped = state.body.count + n
                state.body = []
                return eki_mhd_yes()
            }
            uploadData!.withMemoryRebound(to: UInt8.self, capacity: n) { state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            return eki_mhd_yes()
        }
        if state.tooLarge {
            state.tooLarge = false
            return Self.queue(.error(413, "too_large", APIMessage.tooLarge(what: .body, limit: state.maxBody)
                                        .text(Self.language(connection))), on: connection)
        }
        if state.refused { return eki_mhd_yes() }
        var query: [String: String] = [:]
        var badQuery = false
        for (k, v) in Self.values(connection, eki_mhd_query_kind()) {
            guard let key = PercentEncoding.decode(k), let value = PercentEncoding.decode(v) else { badQuery = true; continue }
            if query[key] == nil { query[key] = value }
        }
        var headers: [String: String] = [:]
        for (k, v) in Self.values(connection, eki_mhd_header_kind()) where headers[k.lowercased()] == nil { headers[k.lowercased()] = v }
        var request = HTTPRequest(method: String(cString: method), rawPath: String(cString: url), query: query,
                                  badQuery: badQuery, headers: headers, body: state.body)
        request.clientAddress = Self.clientAddress(connection)
        request.isTLS = isTLS
        return Self.queue(handler(request), on: connection)
    }

    /// The client's address as text (`MHD_CONNECTION_INFO_CLIENT_ADDRESS`), nil when unknown.
    private static func clientAddress(_ connection: OpaquePointer) -> String? {
        var text = [CChar](repeating: 0, count: 64)
        guard eki_mhd_client_address(connection, &text, socklen_t(text.count)) == 1 else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func queue(_ r: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let response: OpaquePointer? = r.body.withUnsafeBytes { eki_mhd_response_copy($0.baseAddress, $0.count) }
        guard let response else { return eki_mhd_no() }
        defer { MHD_destroy_response(response) }
        for (name, value) in r.headers { _ = MHD_add_response_header(response, name, value) }
        return MHD_queue_response(connection, UInt32(r.status), response)
    }

    /// Collects the values of one kind (header fields, query arguments) as sent.
    private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(String, String)] {
        final class Box { var pairs: [(String, String)] = [] }
        let box = Box()
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            let b = Unmanaged<Box>.fromOpaque(cls!).takeUnretainedValue()
            b.pairs.append((key.map { String(cString: $0) } ?? "", value.map { String(cString: $0) } ?? ""))
            return eki_mhd_yes()
        }
        _ = withExtendedLifetime(box) {
            MHD_get_connection_values(connection, kind, iterator, Unmanaged.passUnretained(box).toOpaque())
        }
        return box.pairs
    }
}

/// Errors starting or configuring the server.
public enum ServerError: Error, CustomStringConvertible, Sendable {
    case badListenAddress(String, String)
    case cannotListen(String, String)
    case misconfigured(String)
    /// Another address than loopback without accounts (anyone who reaches it could write).
    case needsAccounts(String)

    public var description: String {
        switch self {
        case .needsAccounts(let a):
            return "--listen \(a) is not loopback: other machines could reach the map and write visits; "
                + "add --accounts PATH (make it with `eki user add NAME --accounts PATH`) so that everyone logs in"
        case .badListenAddress(let t, let why): return "invalid --listen '\(t)': \(why)"
        case .cannotListen(let a, let why): return "cannot listen on \(a): \(why)"
        case .misconfigured(let why): return why
        }
    }
}
