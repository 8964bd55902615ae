/// An axis-aligned box in degrees WGS84, in RFC 7946 order: minLon, minLat, maxLon, maxLat.
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

    /// Parses `minLon,minLat,maxLon,maxLat` (RFC 7946 order, degrees).
    /// - Throws: `BoundingBox.ParseError` when there are not four numbers, a value is out of
    ///   range, or a minimum exceeds its maximum.
    public init(parsing text: String) throws(ParseError) {
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
        guard minLon <= maxLon, minLat <= maxLat else {
            throw ParseError(text: text, reason: "minimum greater than maximum (order is minLon,minLat,maxLon,maxLat)")
        }
    }

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public var text: String
        public var reason: String
        public var description: String { "invalid bbox '\(text)': \(reason)" }
    }

    /// True when the point lies inside or on the edge of the box.
    public func contains(_ c: Coordinate) -> Bool {
        c.lon >= minLon && c.lon <= maxLon && c.lat >= minLat && c.lat <= maxLat
    }

    /// The centre of the box.
    public var center: Coordinate {
        Coordinate(lat: (minLat + maxLat) / 2, lon: (minLon + maxLon) / 2)
    }
}

import Foundation
