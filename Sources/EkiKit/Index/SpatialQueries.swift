/// Viewport (bbox) and nearest-first (k-NN) queries over the R-tree.
extension StationStore {
    /// Entries inside `bbox` (edges included), RFC 7946 order, degrees WGS84. The R-tree (32-bit
    /// floats rounded outward) is the filter; exact coordinates from the table decide.
    /// - Parameters:
    ///   - limit: a pin cap: keep the `limit` entries nearest the box centre (geodesic), ties by key.
    ///   - includeClosed: also return entries that are closed.
    /// - Returns: entries sorted by key, or by distance from the centre when `limit` is given.
    public func stations(in bbox: BoundingBox, limit: Int? = nil, includeClosed: Bool = false) throws -> [Station] {
        let s = try db.cached("""
            SELECT \(Self.columns) FROM rtree_stations_geom r JOIN stations s ON s.fid = r.id
            WHERE r.minx <= ?3 AND r.maxx >= ?1 AND r.miny <= ?4 AND r.maxy >= ?2
              AND s.lon >= ?1 AND s.lon <= ?3 AND s.lat >= ?2 AND s.lat <= ?4 AND (?5 OR s.open = 1)
            """)
        s.bind(bbox.minLon, at: 1); s.bind(bbox.minLat, at: 2)
        s.bind(bbox.maxLon, at: 3); s.bind(bbox.maxLat, at: 4)
        s.bind(Int64(includeClosed ? 1 : 0), at: 5)
        var out: [Station] = []
        while try s.step() { out.append(Self.station(from: s)) }
        s.reset()
        guard let limit else { return out.sorted { $0.key < $1.key } }
        let c = bbox.center
        return out.map { StationDistance(station: $0, distance: Geodesic.distance(c, $0.coordinate)) }
            .sorted(by: StationDistance.nearestFirst)
            .prefix(max(0, limit)).map(\.station)
    }

    /// The `k` entries nearest `point` by geodesic distance (WGS84, metres), nearest first, ties
    /// broken by key: exactly what a brute-force scan returns.
    ///
    /// Expanding search: candidates come from the R-tree inside `Geodesic.enclosingBox` of a
    /// radius r, which holds every point within r; once k candidates lie within r, no entry
    /// outside can beat them. r starts at 2 km and grows ×4; beyond 500 km the whole table is
    /// scanned.
    public func nearest(to point: Coordinate, k: Int, includeClosed: Bool = false) throws -> [StationDistance] {
        guard k > 0 else { return [] }
        var radius = 2_000.0
        while radius <= 500_000 {
            let box = Geodesic.enclosingBox(center: point, radius: radius)
            let within = try stations(in: box, includeClosed: includeClosed)
                .map { StationDistance(station: $0, distance: Geodesic.distance(point, $0.coordinate)) }
                .filter { $0.distance <= radius }
            if within.count >= k {
                return Array(within.sorted(by: StationDistance.nearestFirst).prefix(k))
            }
            radius *= 4
        }
        return Array(try allStations(includeClosed: true)
            .filter { includeClosed || $0.isOpen }
            .map { StationDistance(station: $0, distance: Geodesic.distance(point, $0.coordinate)) }
            .sorted(by: StationDistance.nearestFirst).prefix(k))
    }
}

extension StationDistance {
    /// Nearest first, ties broken by key.
    public static func nearestFirst(_ a: StationDistance, _ b: StationDistance) -> Bool {
        a.distance != b.distance ? a.distance < b.distance : a.station.key < b.station.key
    }
}
