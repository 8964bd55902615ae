import Foundation

/// Web Mercator (EPSG:3857) in world units: x and y in [0, 1) across the world, y growing
/// southwards, as slippy-map tiles number it. The one projection the cluster grid, the rendered
/// pictures and the benchmarks use.
public enum WebMercator {
    /// The largest Mercator latitude, degrees (where the world square ends).
    public static let maxLatitude = 85.05112878

    /// Longitude (degrees) → x in 0…1.
    @inline(__always) public static func x(_ lon: Double) -> Double { (lon + 180) / 360 }

    /// Latitude (degrees, clamped to ±`maxLatitude`) → y in 0…1, north at 0.
    @inline(__always) public static func y(_ lat: Double) -> Double {
        let r = min(max(lat, -maxLatitude), maxLatitude) * .pi / 180
        return (1 - log(tan(r) + 1 / cos(r)) / .pi) / 2
    }

    /// x in 0…1 → longitude, degrees (inverse of `x`).
    @inline(__always) public static func lon(_ x: Double) -> Double { x * 360 - 180 }

    /// y in 0…1 → latitude, degrees (inverse of `y`).
    @inline(__always) public static func lat(_ y: Double) -> Double { atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi }

    /// The tile number at zoom `z` of a world coordinate, clamped to the world.
    @inline(__always) public static func tile(_ w: Double, _ z: Int) -> Int {
        let n = Double(1 << z)
        return Int(min(max((w * n).rounded(.down), 0), n - 1))
    }
}
