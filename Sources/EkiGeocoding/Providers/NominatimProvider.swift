import EkiKit

/// Nominatim search (OpenStreetMap): `GET {endpoint}/search?q=…&format=jsonv2&limit=…
/// &accept-language=…[&countrycodes=…][&viewbox=minLon,minLat,maxLon,maxLat&bounded=1]`.
///
/// Data © OpenStreetMap contributors, ODbL 1.0 (https://osm.org/copyright). The public
/// instance's usage policy (https://operations.osmfoundation.org/policies/nominatim/): at most
/// 1 request per second for the whole application, a User-Agent identifying the application
/// (stock library values will not do), cache results, and make the endpoint switchable. The
/// geocoder enforces all four; this type refuses a stock User-Agent.
///
/// The answer is a JSON array; `lat` and `lon` arrive as strings and `boundingbox` as
/// `[minlat, maxlat, minlon, maxlon]` (strings), converted here to RFC 7946 order.
public struct NominatimProvider: WebProvider {
    public let provider = GeocodeProvider.nominatim
    /// Base URL, e.g. https://nominatim.openstreetmap.org.
    public let endpoint: String
    /// ISO 3166-1 alpha-2 codes for `countrycodes` (empty: not sent).
    public var countryCodes: [String]
    /// Value of `accept-language`.
    public var acceptLanguage: String

    /// User-Agent prefixes of HTTP libraries and tools (and browsers, which the application
    /// must not pretend to be), compared case-insensitively.
    public static let stockUserAgentPrefixes = [
        "curl/", "libcurl", "python-requests/", "python-urllib/", "python-httpx/", "aiohttp/",
        "wget/", "go-http-client/", "okhttp/", "java/", "apache-httpclient/", "node-fetch",
        "axios/", "undici", "libwww-perl/", "mozilla/",
    ]
    /// Whole User-Agents refused as they are.
    static let stockUserAgents: Set<String> = ["curl", "wget", "python", "java", "go", "node", "ruby"]

    public init(endpoint: String = GeocoderConfiguration.defaultNominatimEndpoint,
                countryCodes: [String] = ["jp"], acceptLanguage: String = "ja") {
        self.endpoint = endpoint
        self.countryCodes = countryCodes
        self.acceptLanguage = acceptLanguage
    }

    /// Nominatim answers at most 40 results.
    static let maxLimit = 40

    func url(for query: String, options: GeocodeOptions) -> String {
        var items: [(String, String)] = [("q", query), ("format", "jsonv2"),
                                         ("limit", String(min(max(1, options.limit), Self.maxLimit))),
                                         ("accept-language", acceptLanguage)]
        if !countryCodes.isEmpty { items.append(("countrycodes", countryCodes.joined(separator: ","))) }
        if let v = options.viewbox {
            items.append(("viewbox", "\(v.minLon),\(v.minLat),\(v.maxLon),\(v.maxLat)"))
            if options.bounded { items.append(("bounded", "1")) }
        }
        return QueryEncoding.url(base: endpoint, path: "/search", query: items)
    }

    /// Refuses an empty User-Agent or one starting with a stock library prefix
    /// (`stockUserAgentPrefixes`), as the usage policy demands.
    /// - Throws: `GeocodingError.misconfigured`.
    func checkPolicy(_ configuration: GeocoderConfiguration) throws(GeocodingError) {
        let ua = configuration.userAgent.trimmingCharacters(in: .whitespaces).lowercased()
        guard !ua.isEmpty else {
            throw .misconfigured(reason: "Nominatim requires a User-Agent identifying the application (set EKI_USER_AGENT)")
        }
        if Self.stockUserAgents.contains(ua) || Self.stockUserAgentPrefixes.contains(where: { ua.hasPrefix($0) }) {
            throw .misconfigured(reason: "Nominatim's usage policy forbids stock User-Agents ('\(configuration.userAgent)'); "
                                 + "identify the application, e.g. '\(GeocoderConfiguration.userAgent(contact: "you@example.org"))'")
        }
    }

    private struct Place: Decodable {
        var lat: LenientDouble
        var lon: LenientDouble
        var display_name: String?
        var name: String?
        var boundingbox: [LenientDouble]?
    }

    /// Candidates from a Nominatim `jsonv2` (or `json`) search body.
    /// - Throws: `GeocodingError.unparseable` for HTML, invalid JSON, or JSON that is not an array
    ///   of places with `lat` and `lon` (e.g. an error object such as `{"status":700,…}`).
    public func parse(_ body: [UInt8], contentType: String? = nil, query: String, limit: Int) throws(GeocodingError) -> [GeocodeCandidate] {
        let places = try JSONBody.decode([Place].self, body, contentType: contentType)
        var candidates: [GeocodeCandidate] = []
        for p in places {
            let point = Coordinate(lat: p.lat.value, lon: p.lon.value)
            guard point.isValid else { continue }
            var bbox: BoundingBox?
            if let b = p.boundingbox, b.count == 4 {     // [minlat, maxlat, minlon, maxlon]
                let box = BoundingBox(minLon: b[2].value, minLat: b[0].value, maxLon: b[3].value, maxLat: b[1].value)
                if box.minLon <= box.maxLon, box.minLat <= box.maxLat { bbox = box }
            }
            let title = p.display_name ?? p.name ?? query
            candidates.append(GeocodeCandidate(title: title, coordinate: point, provider: .nominatim, bbox: bbox))
        }
        return Array(candidates.prefix(max(0, limit)))
    }
}
