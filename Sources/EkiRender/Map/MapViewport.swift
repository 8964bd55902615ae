import EkiKit
import Foundation

/// Web Mercator (EPSG:3857, the projection of web map tiles) fitted to a picture: a bounding
/// box (degrees WGS84) shown whole and centred in `width × height` logical pixels, at the
/// largest zoom that fits (the other axis shows more than the box).
///
/// World pixels: the whole world (longitude −180…180, latitude ±85.0511°) is a square of
/// `worldSize` pixels, x growing east, y growing south, as tile servers number them.
public struct MapViewport: Sendable, Equatable {
    /// The box asked for.
    public let bbox: BoundingBox
    /// Logical size, pixels.
    public let width: Int, height: Int
    /// World width in pixels at this zoom (256 × 2^zoom for tile zoom levels).
    public let worldSize: Double
    /// World-pixel position of the picture's top-left corner.
    public let originX: Double, originY: Double

    /// The largest Mercator latitude, degrees (where the world square ends).
    public static let maxLatitude = WebMercator.maxLatitude

    /// Fits `bbox` into `width × height`. A box of zero width or height (one point) is shown
    /// about 1 km across.
    public init(fitting bbox: BoundingBox, width: Int, height: Int) {
        self.bbox = bbox
        self.width = width
        self.height = height
        var dx = (bbox.maxLon - bbox.minLon) / 360
        var dy = Self.unitY(bbox.minLat) - Self.unitY(bbox.maxLat)
        let minimum = 1_000 / 40_075_016.7   // about 1 km
        dx = max(dx, minimum)
        dy = max(dy, minimum)
        worldSize = min(Double(width) / dx, Double(height) / dy)
        let cx = (Self.unitX(bbox.minLon) + Self.unitX(bbox.maxLon)) / 2
        let cy = (Self.unitY(bbox.minLat) + Self.unitY(bbox.maxLat)) / 2
        originX = cx * worldSize - Double(width) / 2
        originY = cy * worldSize - Double(height) / 2
    }

    /// Longitude → x in 0…1 across the world (`WebMercator.x`).
    static func unitX(_ lon: Double) -> Double { WebMercator.x(lon) }
    /// Latitude → y in 0…1 down the world, clamped to ±`maxLatitude` (`WebMercator.y`).
    static func unitY(_ lat: Double) -> Double { WebMercator.y(lat) }

    /// The picture position (logical pixels from the top-left corner) of a coordinate.
    public func point(_ c: Coordinate) -> (x: Double, y: Double) {
        (Self.unitX(c.lon) * worldSize - originX, Self.unitY(c.lat) * worldSize - originY)
    }

    /// The coordinate at a picture position (inverse of `point`).
    public func coordinate(x: Double, y: Double) -> Coordinate {
        let ux = (x + originX) / worldSize, uy = (y + originY) / worldSize
        return Coordinate(lat: WebMercator.lat(uy), lon: WebMercator.lon(ux))
    }

    /// The box the whole picture shows (at least `bbox`).
    public var visibleBox: BoundingBox {
        let nw = coordinate(x: 0, y: 0), se = coordinate(x: Double(width), y: Double(height))
        return BoundingBox(minLon: nw.lon, minLat: se.lat, maxLon: se.lon, maxLat: nw.lat)
    }

    /// Ground metres per logical pixel at the picture's centre latitude (Web Mercator's scale
    /// factor 1/cos φ on the WGS84 equatorial radius 6,378,137 m).
    public var metresPerPixel: Double {
        let lat = coordinate(x: Double(width) / 2, y: Double(height) / 2).lat
        return 2 * .pi * 6_378_137 * cos(lat * .pi / 180) / worldSize
    }

    /// The smallest box holding every coordinate, grown by `margin` of its width and height on
    /// each side (at least about 500 m): how a list of stations or a line is framed.
    /// Nil for an empty list.
    public static func framing(_ coordinates: [Coordinate], margin: Double = 0.08) -> BoundingBox? {
        guard let first = coordinates.first else { return nil }
        var b = BoundingBox(minLon: first.lon, minLat: first.lat, maxLon: first.lon, maxLat: first.lat)
        for c in coordinates.dropFirst() {
            b.minLon = min(b.minLon, c.lon); b.maxLon = max(b.maxLon, c.lon)
            b.minLat = min(b.minLat, c.lat); b.maxLat = max(b.maxLat, c.lat)
        }
        let mx = max((b.maxLon - b.minLon) * margin, 0.005), my = max((b.maxLat - b.minLat) * margin, 0.005)
        return BoundingBox(minLon: max(-180, b.minLon - mx), minLat: max(-MapViewport.maxLatitude, b.minLat - my),
                           maxLon: min(180, b.maxLon + mx), maxLat: min(MapViewport.maxLatitude, b.maxLat + my))
    }
}
