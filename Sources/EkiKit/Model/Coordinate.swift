/// A point on the WGS84 ellipsoid, in degrees. Latitude is in -90...90, longitude in -180...180.
/// (N02's JGD2011 coordinates agree with WGS84 to well under a metre and are used as such.)
public struct Coordinate: Hashable, Sendable, Codable {
    /// Latitude in degrees (WGS84), positive north.
    public var lat: Double
    /// Longitude in degrees (WGS84), positive east.
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// True when both values are finite and within their ranges.
    public var isValid: Bool {
        lat.isFinite && lon.isFinite && (-90...90).contains(lat) && (-180...180).contains(lon)
    }
}
