import EkiKit
import Foundation

/// Everything the geocoder needs to know about the outside world: endpoints, identity, timeouts,
/// limits and where its cache lives. Times are in seconds, sizes in bytes.
///
/// Environment variables read by `fromEnvironment(_:)`:
/// - `EKI_CACHE`: path of the cache database (SQLite); empty disables the on-disk cache.
/// - `EKI_USER_AGENT`: the User-Agent sent to every service.
/// - `EKI_GSI_ENDPOINT`: base URL of the GSI address search (default https://msearch.gsi.go.jp).
/// - `EKI_NOMINATIM_ENDPOINT`: base URL of Nominatim (default https://nominatim.openstreetmap.org).
/// - `EKI_HTTP_TIMEOUT`: the time budget of one geocode call, all providers together, in
///   seconds (a positive number; default 10).
/// - `EKI_PROVIDERS`: providers tried in order, comma-separated (default `stations,gsi,nominatim`).
public struct GeocoderConfiguration: Sendable, Hashable {
    public static let defaultGSIEndpoint = "https://msearch.gsi.go.jp"
    public static let defaultNominatimEndpoint = "https://nominatim.openstreetmap.org"

    /// Base URL of the GSI address search (国土地理院); `/address-search/AddressSearch` is appended.
    public var gsiEndpoint: String
    /// Base URL of a Nominatim instance; `/search` is appended. Switch it to your own instance
    /// for anything beyond occasional lookups (the public one's usage policy).
    public var nominatimEndpoint: String
    /// Sent as `User-Agent` on every request. Nominatim's policy requires one identifying the
    /// application; the Nominatim provider refuses an empty or stock library value (`curl/…`,
    /// `libcurl…`, `python-requests/…`, …). Default: `EkiKit/<version>`; add a contact with
    /// `userAgent(contact:)`.
    public var userAgent: String
    /// Seconds allowed to establish the connection (libcurl `CURLOPT_CONNECTTIMEOUT_MS`).
    public var connectTimeout: Double
    /// Seconds of transfer allowed for one `Geocoder.geocode` call, every provider, request,
    /// redirect, body and retry together (each request's `CURLOPT_TIMEOUT_MS` is what is left);
    /// also the most one request may take. Request spacing and `Retry-After` waits come on top.
    public var timeout: Double
    /// Largest accepted body in bytes, after content decoding; a larger one is
    /// `GeocodingError.responseTooLarge`. Default 1 MiB.
    public var maxResponseBytes: Int
    /// Redirects followed at most (http and https only).
    public var maxRedirects: Int
    /// Path of the SQLite cache database, which also holds the per-provider time of the last
    /// request so that separate processes share the rate limit. nil: answers are not cached and
    /// the rate limit holds only within this process.
    public var cachePath: String?
    /// Where requests are spaced across processes when there is no cache file (`cachePath`
    /// nil): a SQLite file holding only the last request times, apart from any answer cache.
    /// `fromEnvironment` sets `defaultSpacingPath`; nil: spacing within this process only.
    public var spacingPath: String? = nil
    /// How long a cached answer is used, seconds. Default 7 days.
    public var cacheTTL: Double
    /// Least time between two requests to one provider and endpoint, seconds; values below 1 are
    /// raised to 1 (Nominatim: at most 1 request per second).
    public var minimumRequestInterval: Double
    /// Retry once after a 429 or 5xx answer. Never retried: 4xx, timeouts, transport errors.
    public var retryOn429And5xx: Bool
    /// Seconds to wait before the retry when the server sends no `Retry-After`.
    public var retryBackoff: Double
    /// Longest `Retry-After` honoured by waiting, seconds; a longer one is thrown at once as
    /// `GeocodingError.rateLimited(retryAfter:)` for the caller to act on.
    public var maxRetryAfter: Double
    /// Providers tried in this order until one gives a result.
    public var providerOrder: [GeocodeProvider]
    /// ISO 3166-1 alpha-2 codes sent to Nominatim as `countrycodes` (empty: not sent).
    public var countryCodes: [String]
    /// Sent to Nominatim as `accept-language`.
    public var acceptLanguage: String

    public init(gsiEndpoint: String = Self.defaultGSIEndpoint,
                nominatimEndpoint: String = Self.defaultNominatimEndpoint,
                userAgent: String = Self.userAgent(contact: nil),
                connectTimeout: Double = 3,
                timeout: Double = 10,
                maxResponseBytes: Int = 1 << 20,
                maxRedirects: Int = 3,
                cachePath: String? = Self.defaultCachePath(),
                cacheTTL: Double = 7 * 24 * 3600,
                minimumRequestInterval: Double = 1,
                retryOn429And5xx: Bool = true,
                retryBackoff: Double = 1,
                maxRetryAfter: Double = 10,
                providerOrder: [GeocodeProvider] = GeocodeProvider.defaultOrder,
                countryCodes: [String] = ["jp"],
                acceptLanguage: String = "ja") {
        self.gsiEndpoint = gsiEndpoint
        self.nominatimEndpoint = nominatimEndpoint
        self.userAgent = userAgent
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.maxRedirects = maxRedirects
        self.cachePath = cachePath
        self.cacheTTL = cacheTTL
        self.minimumRequestInterval = minimumRequestInterval
        self.retryOn429And5xx = retryOn429And5xx
        self.retryBackoff = retryBackoff
        self.maxRetryAfter = maxRetryAfter
        self.providerOrder = providerOrder
        self.countryCodes = countryCodes
        self.acceptLanguage = acceptLanguage
    }

    /// `EkiKit/<version>`, or `EkiKit/<version> (+<contact>)` when a contact (URL or e-mail) is
    /// given, as Nominatim's policy asks.
    public static func userAgent(contact: String?) -> String {
        let base = "EkiKit/\(EkiKitVersion.string)"
        guard let c = contact?.trimmingCharacters(in: .whitespaces), !c.isEmpty else { return base }
        return "\(base) (+\(c))"
    }

    /// `$XDG_CACHE_HOME/eki/geocode.sqlite`, else `$HOME/.cache/eki/geocode.sqlite`; nil when
    /// neither variable is set.
    public static func defaultCachePath(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let x = env["XDG_CACHE_HOME"], x.hasPrefix("/") { return x + "/eki/geocode.sqlite" }
        if let h = env["HOME"], !h.isEmpty { return h + "/.cache/eki/geocode.sqlite" }
        return nil
    }

    /// The spacing file used without a cache: `$XDG_RUNTIME_DIR/eki/geocode-spacing.sqlite`
    /// (the per-user runtime directory), else `geocode-spacing.sqlite` beside the default cache
    /// file; nil when neither directory is known.
    public static func defaultSpacingPath(_ env: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let r = env["XDG_RUNTIME_DIR"], r.hasPrefix("/") { return r + "/eki/geocode-spacing.sqlite" }
        return defaultCachePath(env).map { ($0 as NSString).deletingLastPathComponent + "/geocode-spacing.sqlite" }
    }

    /// The defaults, overridden by `EKI_CACHE`, `EKI_USER_AGENT`, `EKI_GSI_ENDPOINT`,
    /// `EKI_NOMINATIM_ENDPOINT`, `EKI_HTTP_TIMEOUT` (seconds) and `EKI_PROVIDERS` where set and
    /// non-empty (`EKI_CACHE` set to empty disables the on-disk cache).
    /// - Throws: `GeocodingError.misconfigured` when `EKI_HTTP_TIMEOUT` is not a positive number,
    ///   an endpoint is not an http(s) URL, or `EKI_PROVIDERS` names an unknown provider.
    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment)
        throws(GeocodingError) -> GeocoderConfiguration {
        var c = GeocoderConfiguration(cachePath: defaultCachePath(env))
        c.spacingPath = defaultSpacingPath(env)
        if let v = env["EKI_CACHE"] { c.cachePath = v.isEmpty ? nil : v }
        if let v = env["EKI_USER_AGENT"], !v.isEmpty { c.userAgent = v }
        if let v = env["EKI_GSI_ENDPOINT"], !v.isEmpty { c.gsiEndpoint = v }
        if let v = env["EKI_NOMINATIM_ENDPOINT"], !v.isEmpty { c.nominatimEndpoint = v }
        if let v = env["EKI_HTTP_TIMEOUT"], !v.isEmpty {
            guard let t = Double(v.trimmingCharacters(in: .whitespaces)), t.isFinite, t > 0 else {
                throw .misconfigured(reason: "EKI_HTTP_TIMEOUT must be a positive number of seconds, got '\(v)'")
            }
            c.timeout = t
            c.connectTimeout = min(c.connectTimeout, t)
        }
        if let v = env["EKI_PROVIDERS"], !v.isEmpty { c.providerOrder = try GeocodeProvider.list(parsing: v) }
        try c.validate()
        return c
    }

    /// Checks what can be checked without sending anything.
    /// - Throws: `GeocodingError.misconfigured` for a non-http(s) endpoint, a non-positive timeout
    ///   or size limit, or a User-Agent containing control characters.
    public func validate() throws(GeocodingError) {
        for (name, url) in [("GSI", gsiEndpoint), ("Nominatim", nominatimEndpoint)] {
            let lower = url.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
                  !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
                throw .misconfigured(reason: "\(name) endpoint must be an http(s) URL, got '\(url)'")
            }
        }
        guard timeout > 0, connectTimeout > 0, timeout.isFinite, connectTimeout.isFinite else {
            throw .misconfigured(reason: "timeouts must be positive numbers of seconds")
        }
        guard maxResponseBytes > 0 else { throw .misconfigured(reason: "maxResponseBytes must be positive") }
        guard !userAgent.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .misconfigured(reason: "User-Agent must not contain control characters")
        }
    }

    /// `minimumRequestInterval`, raised to at least one second.
    var effectiveRequestInterval: Double { max(1, minimumRequestInterval.isFinite ? minimumRequestInterval : 1) }
}
