import Foundation

/// Keeps requests to one service at least a minimum interval apart. `key` names the provider
/// and endpoint.
protocol RequestSpacing: AnyObject {
    /// Blocks until a request to `key` may start, and records that it starts now.
    func waitForTurn(_ key: String) throws(GeocodingError)
    /// Records that the request to `key` has finished (its end also counts as "last request").
    func finished(_ key: String)
}

/// Percent-encoding of query strings (RFC 3986): everything except the unreserved characters
/// `A–Z a–z 0–9 - . _ ~` is written as `%XX` of its UTF-8 bytes, so a space is `%20` (never `+`),
/// `&` is `%26`, `#` is `%23` and 駅 is `%E9%A7%85`. Same output as `curl_easy_escape`.
enum QueryEncoding {
    static func percentEncode(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        let hex = Array("0123456789ABCDEF")
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(b)))
            default:
                out.append("%")
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0x0F)])
            }
        }
        return out
    }

    /// `name=value&…`, both percent-encoded, in the given order.
    static func queryString(_ items: [(String, String)]) -> String {
        items.map { percentEncode($0.0) + "=" + percentEncode($0.1) }.joined(separator: "&")
    }

    /// `base` without trailing slashes, then `path`, then `?` and the query string.
    static func url(base: String, path: String, query: [(String, String)]) -> String {
        var b = Substring(base)
        while b.hasSuffix("/") { b = b.dropLast() }
        return b + path + "?" + queryString(query)
    }
}

/// GETs JSON from a web service: spacing, status mapping, and one retry on 429/5xx.
final class HTTPClient {
    private let curl: CurlEasy
    private let spacing: RequestSpacing
    private let retry: Bool
    private let backoff: Double
    private let maxRetryAfter: Double

    init(configuration c: GeocoderConfiguration, spacing: RequestSpacing) throws(GeocodingError) {
        curl = try CurlEasy(settings: TransferSettings(userAgent: c.userAgent, connectTimeout: c.connectTimeout,
                                                       timeout: c.timeout, maxResponseBytes: c.maxResponseBytes,
                                                       maxRedirects: c.maxRedirects))
        self.spacing = spacing
        retry = c.retryOn429And5xx
        backoff = max(0, c.retryBackoff)
        maxRetryAfter = max(0, c.maxRetryAfter)
    }

    /// The 2xx response for `url`, asking for JSON.
    /// - Throws: `rateLimited`, `unavailable`, `refused`, `badRequest` by status (after at most
    ///   one retry on 429/5xx), or the transfer errors of `CurlEasy.get`.
    ///   With a `budget` (a command's time budget), each transfer gets only the time left of it
    ///   and adds its duration to it; none starts once it is spent, and running out is
    ///   `timedOut` with the whole budget.
    func getJSON(_ url: String, spacingKey: String, budget: TimeBudget? = nil) throws(GeocodingError) -> HTTPResponse {
        var attempt = 0
        while true {
            attempt += 1
            try spacing.waitForTurn(spacingKey)
            if let budget, budget.isSpent {
                spacing.finished(spacingKey)
                throw .timedOut(seconds: budget.total)
            }
            let response: HTTPResponse
            let started = Date()
            do {
                response = try curl.get(url, headers: ["Accept: application/json"], timeout: budget?.left)
                budget?.spent += Date().timeIntervalSince(started)
                spacing.finished(spacingKey)
            } catch {
                budget?.spent += Date().timeIntervalSince(started)
                spacing.finished(spacingKey)
                if case .timedOut = error, let budget { throw .timedOut(seconds: budget.total) }
                throw error
            }
            let error: GeocodingError
            switch response.status {
            case 200..<300:
                return response
            case 429:
                error = .rateLimited(retryAfter: response.retryAfter)
            case 500..<600:
                error = .unavailable(status: response.status, message: ServiceMessage.of(response.body) ?? "")
            case 401, 403:
                throw .refused(status: response.status)
            case 400..<500:
                throw .badRequest(status: response.status, message: ServiceMessage.of(response.body) ?? "")
            default:
                throw .unparseable(reason: "unexpected HTTP status \(response.status)")
            }
            let wait = response.retryAfter ?? backoff
            guard retry, attempt == 1, wait <= maxRetryAfter else { throw error }
            Thread.sleep(forTimeInterval: wait)
        }
    }

    /// The start of a body, as one line of text, for error messages.
    static func snippet(_ body: [UInt8], max: Int = 160) -> String {
        let text = String(decoding: body.prefix(max * 4), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
        return line.count > max ? String(line.prefix(max)) + "…" : line
    }
}

/// The time one geocode call may spend in transfers, all providers together (seconds). Waits
/// the services impose (request spacing, `Retry-After`) are bounded on their own and not counted.
final class TimeBudget {
    let total: Double
    var spent = 0.0

    init(total: Double) { self.total = total }

    /// Seconds left (at least 1 ms, so a transfer is never asked to take none).
    var left: Double { max(0.001, total - spent) }
    var isSpent: Bool { total - spent <= 0.001 }
}
