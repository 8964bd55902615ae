import EkiKit

/// Geocoding candidates as JSON: the one encoder behind `eki geocode --format json|geojson`
/// (pretty text, `JSONValue.text(pretty: true)`) and the map server's `/api/geocode` (compact).
/// Each candidate carries its rank (1-based, the number `--pick` takes), title and provider;
/// numbers are written by `JSONBytes.number`.
public enum GeocodeCandidateJSON {
    /// An RFC 7946 FeatureCollection: one Point feature per candidate (`coordinates` `[lon,
    /// lat]`, degrees WGS84), with `bbox` (minLon, minLat, maxLon, maxLat) after `type` when the
    /// provider gives one, and properties `rank`, `title`, `provider`.
    public static func featureCollection(_ found: [GeocodeCandidate]) -> JSONValue {
        let features = found.enumerated().map { i, c -> JSONValue in
            var members: [(String, JSONValue)] = [("type", .string("Feature"))]
            if let box = c.bbox { members.append(("bbox", bbox(box))) }
            members += [("geometry", .object([("type", .string("Point")),
                                              ("coordinates", .array([.number(c.coordinate.lon), .number(c.coordinate.lat)]))])),
                        ("properties", .object([("rank", .int(i + 1)), ("title", .string(c.title)),
                                                ("provider", .string(c.provider.rawValue))]))]
            return .object(members)
        }
        return .object([("type", .string("FeatureCollection")), ("features", .array(features))])
    }

    /// An array of flat objects: `rank`, `title`, `lat`, `lon`, `provider`, `bbox` (RFC 7946
    /// order, or null).
    public static func array(_ found: [GeocodeCandidate]) -> JSONValue {
        .array(found.enumerated().map { i, c in
            .object([("rank", .int(i + 1)), ("title", .string(c.title)), ("lat", .number(c.coordinate.lat)),
                     ("lon", .number(c.coordinate.lon)), ("provider", .string(c.provider.rawValue)),
                     ("bbox", c.bbox.map(bbox) ?? .null)])
        })
    }

    /// `[minLon, minLat, maxLon, maxLat]`.
    public static func bbox(_ b: BoundingBox) -> JSONValue {
        .array([.number(b.minLon), .number(b.minLat), .number(b.maxLon), .number(b.maxLat)])
    }
}
