import Foundation

/// Earth-centred, Earth-fixed coordinates on the WGS84 ellipsoid, for lower bounds of geodesic
/// distance: the straight line between two surface points is never longer than a path on the
/// surface, so the chord (and the distance to a box holding a surface patch) bounds the geodesic
/// distance from below.
enum Earth {
    static let a = Geodesic.a
    static let e2 = Geodesic.f * (2 - Geodesic.f)

    /// The point at latitude/longitude (degrees) on the ellipsoid, metres.
    @inline(__always) static func point(lat: Double, lon: Double) -> (x: Double, y: Double, z: Double) {
        let phi = lat * .pi / 180, lam = lon * .pi / 180
        let sp = sin(phi), cp = cos(phi)
        let n = a / (1 - e2 * sp * sp).squareRoot()
        return (n * cp * cos(lam), n * cp * sin(lam), n * (1 - e2) * sp)
    }

    /// The square of the straight-line distance (m²) from `q` to the box at offset `o` of a
    /// shell array (minX, maxX, minY, maxY, minZ, maxZ): its root less 1 cm
    /// (`lowerBound(squared:)`) bounds the geodesic distance to anything inside from below.
    @inline(__always) static func squaredDistance(_ q: (x: Double, y: Double, z: Double), _ s: UnsafeBufferPointer<Float>, _ o: Int) -> Double {
        let dx = Swift.max(Double(s[o]) - q.x, q.x - Double(s[o + 1]), 0)
        let dy = Swift.max(Double(s[o + 2]) - q.y, q.y - Double(s[o + 3]), 0)
        let dz = Swift.max(Double(s[o + 4]) - q.z, q.z - Double(s[o + 5]), 0)
        return dx * dx + dy * dy + dz * dz
    }

    /// A lower bound of the geodesic distance (metres) from a squared straight-line distance to
    /// a shell box: the root less 1 cm.
    @inline(__always) static func lowerBound(squared d2: Double) -> Double { d2.squareRoot() - 0.01 }

    /// The squared straight-line distances (m²) at or below which a box may hold something
    /// within `bound` metres (a lower bound ≤ `bound`; wider by 1 cm for rounding).
    @inline(__always) static func squaredLimit(_ bound: Double) -> Double {
        bound.isFinite ? (bound + 0.02) * (bound + 0.02) : .infinity
    }

    /// How far (metres) a point rounded to 32-bit floats in `RTreeNodeCache.xyz` lies from the
    /// exact one, at most: half a float step below 2²³ m is 0.25 m per axis, √3 · 0.25 < 0.44 m
    /// in space (Earth-centred coordinates are below 6.4e6 m).
    static let floatPointError = 0.44

    /// The largest float ≤ `d`.
    static func floatDown(_ d: Double) -> Float {
        let f = Float(d)
        return Double(f) > d ? f.nextDown : f
    }

    /// The smallest float ≥ `d`.
    static func floatUp(_ d: Double) -> Float {
        let f = Float(d)
        return Double(f) < d ? f.nextUp : f
    }

    /// The smallest radius of curvature of the ellipsoid, b²/a (along the meridian at the
    /// equator), metres.
    static let minRadius = a * (1 - Geodesic.f) * (1 - Geodesic.f)

    /// An upper bound of the geodesic distance (metres) between two surface points `chord`
    /// metres apart in a straight line. A geodesic bends (in space) no more than the surface
    /// does, at most 1/minRadius, so by Schur's comparison theorem its chord is at least that of
    /// a circle arc of the same length s and radius minRadius: chord ≥ 2R sin(s / 2R), i.e.
    /// s ≤ 2R asin(chord / 2R) (for s ≤ πR: chords up to 10,000 km; beyond, ∞). Widened by
    /// 1e-9 relative and 1 cm for rounding and the geodesic's own error.
    static func geodesicUpperBound(chord: Double) -> Double {
        guard chord < 1e7 else { return .infinity }
        return 2 * minRadius * asin(chord / (2 * minRadius)) * (1 + 1e-9) + 0.01
    }

    /// Distance from the parallel's radius N·cosφ and height N(1−e²)sinφ at latitude φ.
    @inline(__always) static func radiusAndHeight(_ lat: Double) -> (r: Double, z: Double) {
        let phi = lat * .pi / 180
        let sp = sin(phi), cp = cos(phi)
        let n = a / (1 - e2 * sp * sp).squareRoot()
        return (n * cp, n * (1 - e2) * sp)
    }

    /// An axis-aligned box (minX, maxX, minY, maxY, minZ, maxZ; metres, widened by 1 cm) that
    /// holds every surface point with latitude and longitude in the given ranges (degrees).
    /// The parallel's radius N·cosφ shrinks as |φ| grows and the height N(1−e²)sinφ grows with
    /// φ; x = r·cosλ and y = r·sinλ are bilinear in (r, cosλ) and (r, sinλ), so their extremes
    /// lie at the range ends, where cos and sin reach ±1 inside the longitude range included.
    static func shell(minLon: Double, maxLon: Double, minLat: Double, maxLat: Double) -> [Double] {
        let lo = radiusAndHeight(minLat), hi = radiusAndHeight(maxLat)
        let rMin = min(lo.r, hi.r)
        let rMax = (minLat <= 0 && maxLat >= 0) ? a : max(lo.r, hi.r)
        var cMin = min(cos(minLon * .pi / 180), cos(maxLon * .pi / 180))
        var cMax = max(cos(minLon * .pi / 180), cos(maxLon * .pi / 180))
        var sMin = min(sin(minLon * .pi / 180), sin(maxLon * .pi / 180))
        var sMax = max(sin(minLon * .pi / 180), sin(maxLon * .pi / 180))
        func spans(_ l: Double) -> Bool {   // some λ ≡ l (mod 360) inside [minLon, maxLon]
            var k = ((minLon - l) / 360).rounded(.up)
            if k * 360 + l < minLon { k += 1 }
            return k * 360 + l <= maxLon
        }
        if maxLon - minLon >= 360 { cMin = -1; cMax = 1; sMin = -1; sMax = 1 } else {
            if spans(0) { cMax = 1 }
            if spans(180) { cMin = -1 }
            if spans(90) { sMax = 1 }
            if spans(-90) { sMin = -1 }
        }
        let xs = [rMin * cMin, rMin * cMax, rMax * cMin, rMax * cMax]
        let ys = [rMin * sMin, rMin * sMax, rMax * sMin, rMax * sMax]
        let m = 0.01
        return [xs.min()! - m, xs.max()! + m, ys.min()! - m, ys.max()! + m, lo.z - m, hi.z + m]
    }
}
