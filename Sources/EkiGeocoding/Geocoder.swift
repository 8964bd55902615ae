import EkiKit
import Foundation

/// Per-query choices.
public struct GeocodeOptions: Sendable, Hashable {
    /// Most candidates returned (at least 1; Nominatim answers at most 40).
    public var limit: Int
    /// Nominatim `viewbox`: prefer places inside this box (degrees, RFC 7946 order).
    public var viewbox: BoundingBox?
    /// Nominatim `bounded=1`: only places inside `viewbox` (ignored without one).
    public var bounded: Bool
    /// Bypass the cache: neither read nor store answers. The rate limit still applies.
    public var noCache: Bool
    /// Providers to try, in order, instead of `GeocoderConfiguration.providerOrder`
    /// (the command line's `--provider`).
    public var providers: [GeocodeProvider]?

    public init(limit: Int = 10, viewbox: BoundingBox? = nil, bounded: Bool = false, noCache: Bool = false,
                providers: [GeocodeProvider]? = nil) {
        self.limit = limit
        self.viewbox = viewbox
        self.bounded = bounded
        self.noCache = noCache
        self.providers = providers
    }
}

/// Turns typed words (`小田原駅`, `函館工業`, `東京都港区芝公園4丁目`) into candidate places, trying
/// providers in order until one answers: by default the local station gazetteer, then GSI
/// (国土地理院), then Nominatim (© OpenStreetMap contributors).
///
/// Web answers are cached in the configured SQLite file for `cacheTTL` seconds, keyed by
/// provider, endpoint, normalized query and options (the request URL). Requests to each provider
/// and endpoint are spaced at least one second apart, across processes sharing the cache file.
/// Requests block the calling thread (including rate-limit and retry waits). Not thread-safe:
/// use one `Geocoder` per thread (several may share one cache file).
///
/// ```swift
/// let g = try Geocoder(configuration: try .fromEnvironment(),
///                      stations: StoreGazetteer(store: store))
/// let odawara = try g.geocode("小田原駅").first?.coordinate    // from the station gazetteer, no request
/// ```
public final class Geocoder {
    public let configuration: GeocoderConfiguration
    private let stations: (any StationGazetteer)?
    private var storeState: GeocodeStore??           // nil: not opened yet; .some(nil): no cache file
    private var httpClient: HTTPClient?

    /// - Parameters:
    ///   - configuration: endpoints, User-Agent, timeouts, cache; see `GeocoderConfiguration`.
    ///   - stations: the `stations` provider; without one it is skipped in the default order.
    /// - Throws: `GeocodingError.misconfigured` when `configuration.validate()` fails. The cache
    ///   file is opened on first use, not here.
    public init(configuration: GeocoderConfiguration, stations: (any StationGazetteer)? = nil) throws(GeocodingError) {
        try configuration.validate()
        self.configuration = configuration
        self.stations = stations
    }

    /// The query as sent and cached: NFKC (composed), whitespace runs (incl. U+3000) collapsed
    /// to one space, trimmed.
    public static func normalize(_ query: String) -> String {
        TextFold.nfkc(query).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Candidates for `query` from the first provider (in `options.providers`, else the
    /// configured order) that finds any, best first, at most `options.limit`.
    ///
    /// A provider that fails does not stop the search; the next one is tried. The whole call
    /// has one time budget for its transfers, `configuration.timeout` seconds: each request gets
    /// what is left of it, and a provider reached after it is spent is not tried. (The waits the
    /// services impose, 1 s spacing and a `Retry-After` of at most `maxRetryAfter`, come on top.)
    /// - Throws: `GeocodingError.badRequest` for an empty query; when no provider finds anything,
    ///   the error of the one provider that failed (a `GeocodingError`, or what the gazetteer
    ///   threw), `GeocodingError.providersFailed` with each one's message when several did (or
    ///   the budget ran out before one was tried), else `GeocodingError.notFound`.
    public func geocode(_ query: String, options: GeocodeOptions = GeocodeOptions()) throws -> [GeocodeCandidate] {
        let normalized = Self.normalize(query)
        guard !normalized.isEmpty else { throw GeocodingError.badRequest(status: nil, message: "empty query") }
        let explicit = options.providers != nil
        budget = TimeBudget(total: configuration.timeout)
        defer { budget = nil }
        var failures: [(provider: GeocodeProvider, error: any Error)] = []
        var untried: [GeocodeProvider] = []
        for provider in options.providers ?? configuration.providerOrder {
            if provider == .stations, stations == nil, !explicit { continue }
            if provider != .stations, budget?.isSpent == true {
                untried.append(provider)
                continue
            }
            do {
                let found = try search(normalized, provider: provider, options: options)
                if !found.isEmpty { return found }
            } catch {
                failures.append((provider, error))
            }
        }
        if failures.count == 1 && untried.isEmpty { throw failures[0].error }
        if failures.isEmpty && untried.isEmpty { throw GeocodingError.notFound(query: query) }
        throw GeocodingError.providersFailed(
            failures.map { ProviderFailure(provider: $0.provider, message: String(describing: $0.error)) }
            + untried.map { ProviderFailure(provider: $0, message: "not tried: the \(configuration.timeout) s budget was spent") })
    }

    /// The current `geocode` call's time budget.
    private var budget: TimeBudget?

    /// Candidates for `query` from one provider; empty when it finds nothing.
    /// - Throws: for web providers a `GeocodingError` (timed out, unavailable, rate limited,
    ///   refused, bad request, unparseable, response too large, transport, misconfigured); for
    ///   `stations`, `misconfigured` without a gazetteer, else what the gazetteer throws.
    public func search(_ query: String, provider: GeocodeProvider,
                       options: GeocodeOptions = GeocodeOptions()) throws -> [GeocodeCandidate] {
        let q = Self.normalize(query)
        guard !q.isEmpty else { throw GeocodingError.badRequest(status: nil, message: "empty query") }
        let limit = max(1, options.limit)
        switch provider {
        case .stations:
            guard let stations else {
                throw GeocodingError.misconfigured(reason: "the stations provider needs a station database")
            }
            return Array(try stations.lookup(q, limit: limit).prefix(limit))
        case .gsi:
            return try searchWeb(GSIProvider(endpoint: configuration.gsiEndpoint), q, options, limit)
        case .nominatim:
            let p = NominatimProvider(endpoint: configuration.nominatimEndpoint,
                                      countryCodes: configuration.countryCodes,
                                      acceptLanguage: configuration.acceptLanguage)
            return try searchWeb(p, q, options, limit)
        }
    }

    private func searchWeb(_ p: some WebProvider, _ query: String, _ options: GeocodeOptions,
                           _ limit: Int) throws(GeocodingError) -> [GeocodeCandidate] {
        try p.checkPolicy(configuration)
        let url = p.url(for: query, options: options)
        let cacheKey = "\(p.provider.rawValue) \(url)"
        let store = try openStore()
        if !options.noCache, let store, let hit = try store.cached(cacheKey, ttl: configuration.cacheTTL) {
            return Array(hit.prefix(limit))
        }
        let response = try client(store).getJSON(url, spacingKey: "\(p.provider.rawValue) \(p.endpoint)", budget: budget)
        // Parse everything the service sent, so the cached answer serves larger limits too.
        let all = try p.parse(response.body, contentType: response.contentType, query: query, limit: .max)
        if !options.noCache, !all.isEmpty, let store {
            try store.store(all, for: cacheKey, ttl: configuration.cacheTTL)
        }
        return Array(all.prefix(limit))
    }

    private func openStore() throws(GeocodingError) -> GeocodeStore? {
        if let opened = storeState { return opened }
        let store = try configuration.cachePath.map { path throws(GeocodingError) in
            try GeocodeStore(path: path, minimumInterval: configuration.effectiveRequestInterval)
        }
        storeState = .some(store)
        return store
    }

    private func client(_ store: GeocodeStore?) throws(GeocodingError) -> HTTPClient {
        if let httpClient { return httpClient }
        // Without a cache file, a spacing-only file keeps requests apart across processes; one
        // that cannot be opened leaves the spacing to this process.
        let interval = configuration.effectiveRequestInterval
        let spacing: RequestSpacing = store
            ?? configuration.spacingPath.flatMap { try? GeocodeStore(path: $0, minimumInterval: interval) }
            ?? InProcessSpacing(minimumInterval: interval)
        let c = try HTTPClient(configuration: configuration, spacing: spacing)
        httpClient = c
        return c
    }
}
