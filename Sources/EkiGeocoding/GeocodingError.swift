/// What went wrong while geocoding, in terms a caller can act on (the classes follow geopy's
/// `GeocoderTimedOut`, `GeocoderUnavailable`, `GeocoderRateLimited`, … ).
///
/// HTTP statuses map as: 2xx → parsed; 429 → `rateLimited`; 5xx → `unavailable`;
/// 401/403 → `refused`; other 4xx → `badRequest`. 429 and 5xx are retried once (see
/// `GeocoderConfiguration.retryOn429And5xx`); 4xx never is.
public enum GeocodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No complete answer within the configured connect or total timeout, in seconds
    /// (libcurl `CURLE_OPERATION_TIMEDOUT`).
    case timedOut(seconds: Double)
    /// The service could not be reached (DNS failure, connection refused or dropped; `status` nil)
    /// or answered 5xx (`status` set). Worth trying again later.
    case unavailable(status: Int?, message: String)
    /// HTTP 429, or an answer whose own error message says so (`{"error":"Rate Limited"}`).
    /// `retryAfter` is the server's `Retry-After` in seconds (delta or HTTP date), nil when it
    /// sent none; `message` is the service's own words, empty when it gave none.
    case rateLimited(retryAfter: Double?, message: String = "")
    /// HTTP 401 or 403, or an answer that says the client is refused or blocked
    /// (`{"error":"Invalid key"}`, an HTML block page; `status` nil when the HTTP status was
    /// 2xx): the service refuses this client (for Nominatim usually a missing or stock
    /// User-Agent, or a usage-policy block). `message` is the service's own words, or empty.
    case refused(status: Int?, message: String = "")
    /// HTTP 400 or another 4xx (e.g. 404 from a wrong endpoint: the message is the page's title,
    /// never the HTML); an answer whose own error object is not about limits or access
    /// (Nominatim's `{"status":700,"message":…}`), or a query that cannot be sent at all (empty
    /// after normalization), with `status` nil.
    case badRequest(status: Int?, message: String)
    /// A 2xx answer that is not the expected JSON: an HTML block or captcha page, invalid JSON,
    /// or JSON of another shape (e.g. Nominatim's `{"status":700,…}` error object).
    case unparseable(reason: String)
    /// No provider found anything for the query.
    case notFound(query: String)
    /// The body exceeded `GeocoderConfiguration.maxResponseBytes` (limit in bytes, counted after
    /// content decoding); the transfer was aborted.
    case responseTooLarge(limit: Int)
    /// Any other libcurl failure, with its `CURLcode` and message: a redirect to a protocol other
    /// than http/https (code 1), too many redirects (47), TLS verification failure (60), …
    case transport(code: Int, message: String)
    /// Every provider tried failed (more than one): what each one said, in order; a provider
    /// left untried because the command's time budget was spent says so.
    case providersFailed([ProviderFailure])
    /// The request was not sent because the configuration is unusable: an endpoint that is not an
    /// http(s) URL, a User-Agent Nominatim's policy forbids, the `stations` provider chosen
    /// without a gazetteer, or an unusable cache database.
    case misconfigured(reason: String)

    public var description: String {
        switch self {
        case .timedOut(let s): return "timed out after \(s) s"
        case .unavailable(let status?, let m): return "service unavailable (HTTP \(status))\(m.isEmpty ? "" : ": \(m)")"
        case .unavailable(nil, let m): return "service unavailable: \(m)"
        case .rateLimited(let r, let m):
            return "rate limited by the service" + (m.isEmpty ? "" : ": \(m)") + (r.map { " (retry after \($0) s)" } ?? "")
        case .refused(let s, let m):
            return "refused by the service" + (s.map { " (HTTP \($0))" } ?? "") + (m.isEmpty ? "" : ": \(m)")
                + "; check the User-Agent, the key and the usage policy"
        case .badRequest(let s?, let m): return "bad request (HTTP \(s))\(m.isEmpty ? "" : ": \(m)")"
        case .badRequest(nil, let m): return "bad request: \(m)"
        case .unparseable(let r): return "unparseable response: \(r)"
        case .notFound(let q): return "no place found for '\(q)'"
        case .responseTooLarge(let n): return "response larger than \(n) bytes"
        case .transport(let c, let m): return "transfer failed (curl \(c)): \(m)"
        case .misconfigured(let r): return "not sent: \(r)"
        case .providersFailed(let f):
            return "every provider failed: " + f.map { "\($0.provider.rawValue): \($0.message)" }.joined(separator: "; ")
        }
    }
}

/// One provider's failure within `GeocodingError.providersFailed`.
public struct ProviderFailure: Hashable, Sendable {
    public var provider: GeocodeProvider
    /// What went wrong, as the error describes itself (or "not tried: …").
    public var message: String

    public init(provider: GeocodeProvider, message: String) {
        self.provider = provider
        self.message = message
    }
}
