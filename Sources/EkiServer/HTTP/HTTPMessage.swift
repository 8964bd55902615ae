import EkiKit

/// One HTTP request as the server hands it to a handler: method, path and query as sent, header
/// fields (names lower-cased) and the whole body.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, … as sent.
    public var method: String
    /// The path as sent, still percent-encoded (so `%2F` can be told from `/`), without the query.
    public var rawPath: String
    /// Query parameters, percent-decoded (`+` is a space); the first of repeated names wins.
    public var query: [String: String]
    /// Query parameter names that were not valid percent-encoded UTF-8 (refused with 400).
    public var badQuery: Bool
    /// Header fields by lower-cased name (a repeated field keeps its first value).
    public var headers: [String: String]
    /// The request body (empty for GET).
    public var body: [UInt8]
    /// The address of the client as text (`192.0.2.1`, `2001:db8::1`), as the connection
    /// reports it; nil when unknown.
    public var clientAddress: String?
    /// The request came over HTTPS.
    public var isTLS = false

    public init(method: String, rawPath: String, query: [String: String] = [:], badQuery: Bool = false,
                headers: [String: String] = [:], body: [UInt8] = [], clientAddress: String? = nil) {
        self.method = method
        self.rawPath = rawPath
        self.query = query
        self.badQuery = badQuery
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }
}

/// One HTTP response: status, header fields and body bytes.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response (`application/json; charset=utf-8`, never cached).
    public static func json(_ body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8"),
                                               ("Cache-Control", "no-store")], body: body)
    }

    public static func json(_ text: String, status: Int = 200) -> HTTPResponse { json(Array(text.utf8), status: status) }

    /// `{"error": code, "message": message}` with `status` (400, 403, 404, 405, 413, 500, …).
    /// (A 405's `Allow` header is the route's: `APIError.allow`.)
    public static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        json("{\"error\":\(JSONBytes.quoted(code)),\"message\":\(JSONBytes.quoted(message))}", status: status)
    }
}

/// Percent-decoding of URL parts (RFC 3986), strict: a `%` not followed by two hex digits, or
/// bytes that are not UTF-8, give nil.
public enum PercentEncoding {
    public static func decode(_ s: String) -> String? {
        guard s.utf8.contains(UInt8(ascii: "%")) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let h = hex(it[it.startIndex]), let l = hex(it[it.startIndex + 1]) else { return nil }
                out.append(h << 4 | l)
                it = it.dropFirst(2)
            } else {
                out.append(b)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
