import EkiGeocoding
import EkiKit
import Foundation

/// `--provider`, `--endpoint`, `--user-agent` and `--no-cache`: how `eki geocode` and `--place`
/// reach the geocoders. The configuration is `GeocoderConfiguration.fromEnvironment` (EKI_CACHE,
/// EKI_USER_AGENT, EKI_GSI_ENDPOINT, EKI_NOMINATIM_ENDPOINT, EKI_HTTP_TIMEOUT, EKI_PROVIDERS)
/// with these flags applied on top.
struct GeocodingOptions {
    static let valued: Set<String> = ["provider", "endpoint", "user-agent"]
    static let flags: Set<String> = ["no-cache"]
    static let help = """
      --provider P[,P]   stations, gsi or nominatim, tried in this order until one finds the
                         place (default: $EKI_PROVIDERS, else stations,gsi,nominatim)
      --endpoint URL     base URL of the one web provider in --provider (a mirror, your own
                         Nominatim); default $EKI_GSI_ENDPOINT / $EKI_NOMINATIM_ENDPOINT, else
                         https://msearch.gsi.go.jp / https://nominatim.openstreetmap.org
      --user-agent UA    User-Agent sent to the services (default: $EKI_USER_AGENT, else
                         EkiKit/\(EkiKitVersion.string)); Nominatim refuses stock library values
      --no-cache         neither read nor store cached answers (the 1 s spacing still holds)

    """

    /// `--provider`, when given (then the stations provider is required to work).
    let providers: [GeocodeProvider]?
    let configuration: GeocoderConfiguration
    let noCache: Bool

    /// - Throws: `UsageError` for a bad flag value; `GeocodingError.misconfigured` when the
    ///   environment is unusable (a data error, exit 1).
    init(_ args: Arguments, _ console: Console) throws {
        var c = try GeocoderConfiguration.fromEnvironment(console.environment)
        do {
            providers = try args["provider"].map { v throws(GeocodingError) in try GeocodeProvider.list(parsing: v) }
        } catch {
            throw UsageError("--provider: \(Self.reason(error))")
        }
        if let ua = args["user-agent"] { c.userAgent = ua }
        if let endpoint = args["endpoint"] {
            let web = (providers ?? []).filter { $0 != .stations }
            guard web.count == 1 else {
                throw UsageError("--endpoint needs --provider with exactly one of gsi, nominatim")
            }
            if web[0] == .gsi { c.gsiEndpoint = endpoint } else { c.nominatimEndpoint = endpoint }
        }
        do { try c.validate() } catch { throw UsageError(Self.reason(error)) }
        configuration = c
        noCache = args.has("no-cache")
    }

    private static func reason(_ e: GeocodingError) -> String {
        if case .misconfigured(let r) = e { return r }
        return e.description
    }

    /// Up to `limit` candidates for `query` from the first provider that finds any.
    ///
    /// The stations provider reads `store`; without one it is skipped, unless `--provider`
    /// named it, which is then an error.
    /// - Throws: `GeocodingError` (typed: not found, timed out, rate limited, …), or what the
    ///   station database throws.
    func geocode(_ query: String, limit: Int, store: StationStore?) throws -> [GeocodeCandidate] {
        let geocoder = try Geocoder(configuration: configuration, stations: store.map { StoreGazetteer(store: $0) })
        return try geocoder.geocode(query, options: GeocodeOptions(limit: limit, noCache: noCache, providers: providers))
    }

    /// Whether the stations provider will be asked, and whether it was asked for by name.
    var stations: (used: Bool, named: Bool) {
        let named = providers?.contains(.stations) == true
        return (named || (providers == nil && configuration.providerOrder.contains(.stations)), named)
    }
}

/// `--place QUERY [--pick N]` and the geocoding options, on `eki nearest` and `eki bbox`: the
/// place's candidate N (default the first) becomes the centre — "recentre the map, then list
/// stations".
struct PlaceOptions {
    static let valued: Set<String> = Set(["place", "pick"]).union(GeocodingOptions.valued)
    static let flags = GeocodingOptions.flags
    static let help = """
      --place QUERY      geocode QUERY (a station, address or place) and use it as the centre
      --pick N           use the N-th candidate, as numbered by `eki geocode` (default 1)
    \(GeocodingOptions.help)
    """

    let query: String
    let pick: Int
    let geocoding: GeocodingOptions

    /// nil when `--place` is not given (then no other geocoding option may be).
    /// - Throws: `UsageError`, or `GeocodingError.misconfigured` for an unusable environment.
    static func parse(_ args: Arguments, _ console: Console) throws -> PlaceOptions? {
        guard let query = args["place"] else {
            if let other = valued.union(flags).sorted().first(where: { args[$0] != nil || args.has($0) }) {
                throw UsageError("--\(other) needs --place")
            }
            return nil
        }
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("--place needs a place name") }
        return PlaceOptions(query: query, pick: try args.int("pick", default: 1, min: 1),
                            geocoding: try GeocodingOptions(args, console))
    }

    /// The chosen candidate; a line on stderr says which place it is.
    /// - Throws: `GeocodingError` when geocoding fails, `PlaceError` when there are fewer than
    ///   `pick` candidates.
    func centre(store: StationStore, console: Console) throws -> GeocodeCandidate {
        let found = try geocoding.geocode(query, limit: pick, store: store)
        guard found.count >= pick else {
            throw PlaceError(message: "--pick \(pick), but '\(query)' has only \(found.count) candidate\(found.count == 1 ? "" : "s")")
        }
        let c = found[pick - 1]
        console.err(String(format: "place: %@ (%.6f, %.6f) from %@\n", c.title, c.coordinate.lat, c.coordinate.lon,
                           c.provider.rawValue))
        return c
    }
}

/// A geocoded place that cannot serve as the centre asked for (exit 1).
struct PlaceError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
