import EkiKit

/// 国土地理院 (Geospatial Information Authority of Japan) address search:
/// `GET {endpoint}/address-search/AddressSearch?q=<query>`.
///
/// The answer is a JSON array of GeoJSON-like features, `geometry.coordinates` = `[lon, lat]`
/// (degrees) and `properties.title`; `[]` means no result (the service also answers `[]` on its
/// own errors, so empty answers are not cached). The service takes no limit: the first `limit`
/// features are kept, those whose title equals the query under NFKC first (titles may be
/// full-width where the query was half-width). Source: 国土地理院.
public struct GSIProvider: WebProvider {
    public let provider = GeocodeProvider.gsi
    /// Base URL, e.g. https://msearch.gsi.go.jp.
    public let endpoint: String

    public init(endpoint: String = GeocoderConfiguration.defaultGSIEndpoint) {
        self.endpoint = endpoint
    }

    func url(for query: String, options: GeocodeOptions) -> String {
        QueryEncoding.url(base: endpoint, path: "/address-search/AddressSearch", query: [("q", query)])
    }

    private struct Feature: Decodable {
        struct Geometry: Decodable { var coordinates: [LenientDouble] }
        struct Properties: Decodable { var title: String }
        var geometry: Geometry
        var properties: Properties
    }

    /// Candidates from a GSI answer body.
    /// - Throws: `GeocodingError.unparseable` for HTML, invalid JSON, or JSON that is not an array
    ///   of features with a title and at least two coordinates.
    public func parse(_ body: [UInt8], contentType: String? = nil, query: String, limit: Int) throws(GeocodingError) -> [GeocodeCandidate] {
        let features = try JSONBody.decode([Feature].self, body, contentType: contentType)
        var candidates: [GeocodeCandidate] = []
        for f in features {
            let c = f.geometry.coordinates
            guard c.count >= 2 else { throw .unparseable(reason: "feature '\(f.properties.title)' has no [lon, lat]") }
            let point = Coordinate(lat: c[1].value, lon: c[0].value)
            guard point.isValid else { continue }
            candidates.append(GeocodeCandidate(title: f.properties.title, coordinate: point, provider: .gsi))
        }
        let key = TextFold.nfkc(query)
        let exact = candidates.filter { TextFold.nfkc($0.title) == key }
        let others = candidates.filter { TextFold.nfkc($0.title) != key }
        return Array((exact + others).prefix(max(0, limit)))
    }
}
