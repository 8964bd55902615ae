import CProj

/// Geodesic distance on the WGS84 ellipsoid (a = 6,378,137 m, f = 1/298.257223563): the one
/// place every distance in EkiKit is computed.
///
/// Source: Karney's algorithm (C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87,
/// 43–55, 2013) as implemented by PROJ's geodesic API (`geod_inverse`, header `geodesic.h`,
/// Debian `libproj-dev`). It converges for every pair of points, nearly antipodal ones included,
/// and is accurate to about 15 nm; on GeographicLib's test geodesics it agrees to well under 1 µm.
public enum Geodesic {
    /// Equatorial radius of WGS84, metres.
    public static let a = 6_378_137.0
    /// Flattening of WGS84.
    public static let f = 1 / 298.257223563

    /// The WGS84 ellipsoid as PROJ's `geod_geodesic`, initialised once and only read afterwards
    /// (`geod_inverse` takes it as `const`), so sharing it between threads is safe.
    nonisolated(unsafe) private static let wgs84: UnsafeMutablePointer<geod_geodesic> = {
        let g = UnsafeMutablePointer<geod_geodesic>.allocate(capacity: 1)
        geod_init(g, a, f)
        return g
    }()

    /// Distance in metres between two points in degrees WGS84.
    /// - Throws: `GeodesicError` when a latitude or longitude is NaN or infinite, or a latitude
    ///   lies outside -90...90. Longitudes outside -180...180 are reduced modulo 360.
    public static func distance(_ p: Coordinate, _ q: Coordinate) throws(GeodesicError) -> Double {
        try distance(lat1: p.lat, lon1: p.lon, lat2: q.lat, lon2: q.lon)
    }

    /// Distance in metres between (lat1, lon1) and (lat2, lon2), degrees WGS84.
    /// - Throws: `GeodesicError` when a value is NaN or infinite, or a latitude lies outside
    ///   -90...90. Longitudes outside -180...180 are reduced modulo 360 (as GeographicLib does).
    public static func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) throws(GeodesicError) -> Double {
        try check(lat1, lon1, point: 1)
        try check(lat2, lon2, point: 2)
        return distance(validLat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
    }

    /// Distance in metres between two points already known to be valid (`Coordinate.isValid`):
    /// the coordinates of stored entries and of rows an importer has accepted. For other input
    /// use the throwing `distance`; an invalid point here gives NaN.
    static func distance(valid p: Coordinate, _ q: Coordinate) -> Double {
        distance(validLat1: p.lat, lon1: p.lon, lat2: q.lat, lon2: q.lon)
    }

    /// `distance(valid:_:)` on bare degrees.
    static func distance(validLat1 lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        var s12 = 0.0
        geod_inverse(wgs84, lat1, lon1, lat2, lon2, &s12, nil, nil)
        return s12
    }

    private static func check(_ lat: Double, _ lon: Double, point: Int) throws(GeodesicError) {
        guard lat.isFinite, lon.isFinite else { throw .notFinite(point: point, lat: lat, lon: lon) }
        guard (-90...90).contains(lat) else { throw .latitudeOutOfRange(point: point, lat: lat) }
    }
}

/// Why `Geodesic.distance` refused its input. `point` is 1 or 2 (the first or second point).
public enum GeodesicError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A latitude or longitude is NaN or infinite.
    case notFinite(point: Int, lat: Double, lon: Double)
    /// A latitude is outside -90...90 degrees.
    case latitudeOutOfRange(point: Int, lat: Double)

    public var description: String {
        switch self {
        case .notFinite(let p, let lat, let lon):
            return "geodesic distance: point \(p) is not a finite position (lat \(lat), lon \(lon))"
        case .latitudeOutOfRange(let p, let lat):
            return "geodesic distance: point \(p) has latitude \(lat), outside -90...90 degrees"
        }
    }
}
