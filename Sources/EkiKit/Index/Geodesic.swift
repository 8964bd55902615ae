import Foundation

/// Geodesic distance on the WGS84 ellipsoid (a = 6,378,137 m, f = 1/298.257223563), by
/// Vincenty's inverse formula (1975), accurate to well under a millimetre where it converges.
/// For nearly antipodal points, where Vincenty may not converge, it falls back to the
/// great-circle distance on a sphere of the mean radius (error < 0.5 %); stations are never there.
public enum Geodesic {
    public static let a = 6_378_137.0
    public static let f = 1 / 298.257223563
    public static let b = a * (1 - f)
    /// Mean radius R1 = (2a + b) / 3, metres.
    public static let meanRadius = (2 * a + b) / 3

    /// Distance in metres between two points in degrees WGS84.
    public static func distance(_ p: Coordinate, _ q: Coordinate) -> Double {
        distance(lat1: p.lat, lon1: p.lon, lat2: q.lat, lon2: q.lon)
    }

    /// Distance in metres between two points in degrees WGS84.
    public static func distance(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        if lat1 == lat2 && lon1 == lon2 { return 0 }
        let rad = Double.pi / 180
        var L = (lon2 - lon1) * rad
        if L > .pi { L -= 2 * .pi } else if L < -.pi { L += 2 * .pi }
        let U1 = atan((1 - f) * tan(lat1 * rad))
        let U2 = atan((1 - f) * tan(lat2 * rad))
        let sinU1 = sin(U1), cosU1 = cos(U1), sinU2 = sin(U2), cosU2 = cos(U2)
        var lambda = L
        var iterations = 0
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cos2Alpha = 0.0, cos2SigmaM = 0.0
        while true {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cos2Alpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cos2Alpha : 0
            let C = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
            let previous = lambda
            lambda = L + (1 - C) * f * sinAlpha
                * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            iterations += 1
            if abs(lambda - previous) < 1e-12 { break }
            if iterations > 200 || abs(lambda) > .pi {
                return greatCircle(lat1: lat1, lon1: lon1, lat2: lat2, lon2: lon2)
            }
        }
        let uSq = cos2Alpha * (a * a - b * b) / (b * b)
        let A = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let B = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * A * (sigma - deltaSigma)
    }

    /// Great-circle (haversine) distance on the sphere of mean radius, metres.
    public static func greatCircle(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * meanRadius * asin(min(1, h.squareRoot()))
    }
}
