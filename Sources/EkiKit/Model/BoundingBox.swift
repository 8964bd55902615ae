/// An axis-aligned box in degrees WGS84, in RFC 7946 order: minLon, minLat, maxLon, maxLat.
/// A box whose west edge `minLon` is greater than its east edge `maxLon` crosses the
/// antimeridian (RFC 7946 §5.2: `177,-20,-178,-16` spans 177° E to 178° W); `halves` splits it.
public struct BoundingBox: Hashable, Sendable, Codable {
    public var minLon: Double
    public var minLat: Double
    public var maxLon: Double
    public var maxLat: Double

    public init(minLon: Double, minLat: Double, maxLon: Double, maxLat: Double) {
        self.minLon = minLon
        self.minLat = minLat
        self.maxLon = maxLon
        self.maxLat = maxLat
    }

    /// Parses `minLon,minLat,maxLon,maxLat` (RFC 7946 order, degrees); west > east is a box
    /// across the antimeridian (refused when `acrossAntimeridian` is false).
    /// - Throws: `BoundingBox.ParseError` when there are not four numbers, a value is out of
    ///   range, minLat exceeds maxLat, or (when not accepted) west exceeds east.
    public init(parsing text: String, acrossAntimeridian: Bool = true) throws(ParseError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 4 else {
            throw ParseError(text: text, reason: "expected minLon,minLat,maxLon,maxLat (4 numbers), got \(parts.count)")
        }
        var values: [Double] = []
        for p in parts {
            guard let v = DecimalNumber.parse(p) else {
                throw ParseError(text: text, reason: "'\(p)' is not a number")
            }
            values.append(v)
        }
        self.init(minLon: values[0], minLat: values[1], maxLon: values[2], maxLat: values[3])
        guard (-180...180).contains(minLon), (-180...180).contains(maxLon),
              (-90...90).contains(minLat), (-90...90).contains(maxLat) else {
            throw ParseError(text: text, reason: "longitudes must be in -180...180 and latitudes in -90...90")
        }
        guard minLat <= maxLat else {
            throw ParseError(text: text, reason: "minLat greater than maxLat (order is minLon,minLat,maxLon,maxLat)")
        }
        guard minLon <= maxLon || acrossAntimeridian else {
            throw ParseError(text: text, reason: "minLon greater than maxLon (a box across 180°) is not accepted here")
        }
    }

    /// True when the box crosses the antimeridian (west edge `minLon` > east edge `maxLon`).
    public var crossesAntimeridian: Bool { minLon > maxLon }

    /// The box as boxes that do not cross the antimeridian: itself, or for one that does, its
    /// part from `minLon` to 180 and its part from -180 to `maxLon`.
    public var halves: [BoundingBox] {
        guard crossesAntimeridian else { return [self] }
        return [BoundingBox(minLon: minLon, minLat: minLat, maxLon: 180, maxLat: maxLat),
                BoundingBox(minLon: -180, minLat: minLat, maxLon: maxLon, maxLat: maxLat)]
    }

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public var text: String
        public var reason: String
        public var description: String { "invalid bbox '\(text)': \(reason)" }
    }

    /// True when the point lies inside or on the edge of the box (on either side of 180° for
    /// a box that crosses it).
    public func contains(_ c: Coordinate) -> Bool {
        let inLon = crossesAntimeridian ? c.lon >= minLon || c.lon <= maxLon : c.lon >= minLon && c.lon <= maxLon
        return inLon && c.lat >= minLat && c.lat <= maxLat
    }

    /// The centre of the box (for one across 180°, the middle of its span, in -180...180).
    public var center: Coordinate {
        guard crossesAntimeridian else { return Coordinate(lat: (minLat + maxLat) / 2, lon: (minLon + maxLon) / 2) }
        var lon = (minLon + maxLon + 360) / 2
        if lon > 180 { lon -= 360 }
        return Coordinate(lat: (minLat + maxLat) / 2, lon: lon)
    }
}

import Foundation
