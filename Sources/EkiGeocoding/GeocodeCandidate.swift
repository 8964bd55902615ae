import EkiKit
import Foundation

/// A source of geocoding answers.
public enum GeocodeProvider: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// The local station database as a gazetteer (`小田原駅`, `新横浜`); no network. Supplied by
    /// the caller as a `StationGazetteer`.
    case stations
    /// 国土地理院 (GSI) address search, `GET {endpoint}/address-search/AddressSearch?q=…`.
    /// Source: 国土地理院. Results are addresses and facilities in Japan.
    case gsi
    /// Nominatim search, `GET {endpoint}/search?q=…&format=jsonv2`. Data © OpenStreetMap
    /// contributors, ODbL 1.0; the public instance's usage policy allows at most 1 request per
    /// second, requires an identifying User-Agent and asks clients to cache
    /// (https://operations.osmfoundation.org/policies/nominatim/).
    case nominatim

    public var description: String { rawValue }

    /// The order tried when none is configured: offline stations first, then GSI, then Nominatim.
    public static let defaultOrder: [GeocodeProvider] = [.stations, .gsi, .nominatim]

    /// Providers named in a comma-separated list (`stations,gsi`), in its order; names are
    /// case-insensitive and spaces around them are ignored.
    /// - Throws: `GeocodingError.misconfigured` for an empty list, an unknown name or a name
    ///   given twice.
    public static func list(parsing text: String) throws(GeocodingError) -> [GeocodeProvider] {
        var out: [GeocodeProvider] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard let p = GeocodeProvider(rawValue: name) else {
                throw .misconfigured(reason: "unknown provider '\(name)' (known: "
                                     + allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            guard !out.contains(p) else { throw .misconfigured(reason: "provider '\(name)' given twice") }
            out.append(p)
        }
        return out
    }
}

/// One place a query may mean, as a provider answered it.
public struct GeocodeCandidate: Hashable, Sendable, Codable {
    /// The name to show: GSI `properties.title`, Nominatim `display_name`, or a station name.
    /// Kept as the provider wrote it (GSI may answer full-width where the query was half-width).
    public var title: String
    /// The point, degrees WGS84.
    public var coordinate: Coordinate
    /// Which provider answered.
    public var provider: GeocodeProvider
    /// The extent of the place when the provider gives one (Nominatim does), degrees WGS84 in
    /// RFC 7946 order minLon, minLat, maxLon, maxLat.
    public var bbox: BoundingBox?

    public init(title: String, coordinate: Coordinate, provider: GeocodeProvider, bbox: BoundingBox? = nil) {
        self.title = title
        self.coordinate = coordinate
        self.provider = provider
        self.bbox = bbox
    }
}

/// The local station database used as a gazetteer: the `stations` provider. The command line
/// implements it over the station store; the geocoder tries it first by default.
public protocol StationGazetteer {
    /// Up to `limit` candidates for `query` (a station or place name, e.g. `小田原駅`, `新横浜`,
    /// as normalized by `Geocoder.normalize`: NFKC, single spaces), best first, with
    /// `provider == .stations`; empty when nothing matches.
    /// - Throws: whatever the underlying store throws; the geocoder passes it on.
    func lookup(_ query: String, limit: Int) throws -> [GeocodeCandidate]
}
