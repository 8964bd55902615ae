import Foundation

/// Boxes from distances on the WGS84 ellipsoid (`Geodesic.a`, `Geodesic.f`): the one place
/// where metres become degrees of a box.
extension BoundingBox {
    /// A box `width` × `height` metres centred on `centre`, in degrees (RFC 7946 order): half
    /// the height north and south along the meridian, half the width east and west along the
    /// parallel, using the WGS84 radii of curvature at the centre's latitude (meridian M and
    /// prime vertical N: M·dφ and N·cosφ·dλ metres per radian). Exact along those two lines to
    /// well under 0.1 % for boxes up to some hundred kilometres. Latitudes are clamped to ±90;
    /// a box reaching past ±180° of longitude wraps into one across the antimeridian (west >
    /// east), and one 360° wide or more spans all longitudes.
    public init(around centre: Coordinate, width: Double, height: Double) {
        let e2 = Geodesic.f * (2 - Geodesic.f)
        let phi = centre.lat * .pi / 180
        let w = 1 - e2 * sin(phi) * sin(phi)
        let m = Geodesic.a * (1 - e2) / (w * w.squareRoot())     // metres per radian of latitude
        let n = Geodesic.a / w.squareRoot()
        let dLat = height / 2 / m * 180 / .pi
        let dLon = width / 2 / max(n * cos(phi), 1e-9) * 180 / .pi
        var west = centre.lon - dLon, east = centre.lon + dLon
        if dLon >= 180 {
            (west, east) = (-180, 180)
        } else {
            if west < -180 { west += 360 }
            if east > 180 { east -= 360 }
        }
        self.init(minLon: west, minLat: max(-90, centre.lat - dLat), maxLon: east, maxLat: min(90, centre.lat + dLat))
    }

    /// A box (degrees) that contains every point within `radius` metres (geodesic) of `center`.
    /// Latitude: the meridian arc has at least a(1−e²) metres per radian (its curvature radius
    /// at the equator), and no path changes latitude faster than along a meridian. Longitude:
    /// a path of length ≤ r stays inside that latitude band, where a parallel has radius
    /// N·cosφ ≥ a·cosφ at the most poleward latitude, so no path changes longitude faster.
    /// Both get a further 1 % margin. Longitudes are not wrapped; a box reaching a pole or
    /// spanning ≥ 180° of longitude spans all longitudes.
    public init(enclosing center: Coordinate, radius: Double) {
        let metresPerDegreeLat = Geodesic.a * (1 - Geodesic.f * (2 - Geodesic.f)) * .pi / 180 * 0.99
        let dLat = radius / metresPerDegreeLat
        let minLat = max(-90, center.lat - dLat), maxLat = min(90, center.lat + dLat)
        let poleward = max(abs(minLat), abs(maxLat))
        if poleward >= 89.9 {
            self.init(minLon: -180, minLat: minLat, maxLon: 180, maxLat: maxLat)
            return
        }
        let metresPerDegreeLon = Geodesic.a * cos(poleward * .pi / 180) * .pi / 180 * 0.99
        let dLon = radius / metresPerDegreeLon
        if dLon >= 180 {
            self.init(minLon: -180, minLat: minLat, maxLon: 180, maxLat: maxLat)
        } else {
            self.init(minLon: center.lon - dLon, minLat: minLat, maxLon: center.lon + dLon, maxLat: maxLat)
        }
    }
}
