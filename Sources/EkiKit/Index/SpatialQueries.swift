/// Viewport (bbox) and nearest-first (k-NN) queries over the R-tree.
extension StationStore {
    /// Entries inside `bbox` (edges included), RFC 7946 order, degrees WGS84. The R-tree (32-bit
    /// floats rounded outward) is the filter; exact coordinates from the table decide.
    /// - Parameters:
    ///   - limit: a pin cap: keep the `limit` entries nearest the box centre (geodesic), ties by key.
    ///   - includeClosed: also return entries that are closed.
    /// - Returns: entries sorted by key, or by distance from the centre when `limit` is given.
    public func stations(in bbox: BoundingBox, limit: Int? = nil, includeClosed: Bool = false) throws -> [Station] {
        if let limit {
            let c = bbox.center
            var candidates: [(fid: Int64, key: String, distance: Double)] = []
            try forEachCandidate(in: bbox, includeClosed: includeClosed) { fid, key, lon, lat in
                candidates.append((fid, key, Geodesic.distance(lat1: c.lat, lon1: c.lon, lat2: lat, lon2: lon)))
            }
            candidates.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.key < $1.key }
            return try candidates.prefix(max(0, limit)).map { try station(fid: $0.fid) }
        }
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
        return out.sorted { $0.key < $1.key }
    }

    /// The `k` entries nearest `point` by geodesic distance (WGS84, metres), nearest first, ties
    /// broken by key: exactly what a brute-force scan returns.
    ///
    /// Expanding search: candidates come from the R-tree inside `Geodesic.enclosingBox` of a
    /// radius r, which provably holds every point within r; once k candidates lie within r, no
    /// entry outside can beat them. r starts at 2 km and grows ×4 until the box covers the globe.
    /// Only key and point are read for candidates; the k winners are then loaded whole.
    public func nearest(to point: Coordinate, k: Int, includeClosed: Bool = false) throws -> [StationDistance] {
        guard k > 0 else { return [] }
        var radius = 2_000.0
        while true {
            let box = Geodesic.enclosingBox(center: point, radius: radius)
            let global = box.minLon <= -180 && box.maxLon >= 180 && box.minLat <= -90 && box.maxLat >= 90
            var within: [(fid: Int64, key: String, distance: Double)] = []
            try forEachCandidate(in: box, includeClosed: includeClosed) { fid, key, lon, lat in
                let d = Geodesic.distance(lat1: point.lat, lon1: point.lon, lat2: lat, lon2: lon)
                if d <= radius || global { within.append((fid, key, d)) }
            }
            if within.count >= k || global {
                within.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.key < $1.key }
                return try within.prefix(k).map { c in
                    StationDistance(station: try station(fid: c.fid), distance: c.distance)
                }
            }
            radius *= 4
        }
    }

    /// Calls `body` with fid, key, lon and lat of every entry inside `box` (exact test).
    func forEachCandidate(in box: BoundingBox, includeClosed: Bool,
                          _ body: (Int64, String, Double, Double) throws -> Void) throws {
        let s = try db.cached("""
            SELECT s.fid, s.key, s.lon, s.lat FROM rtree_stations_geom r JOIN stations s ON s.fid = r.id
            WHERE r.minx <= ?3 AND r.maxx >= ?1 AND r.miny <= ?4 AND r.maxy >= ?2
              AND s.lon >= ?1 AND s.lon <= ?3 AND s.lat >= ?2 AND s.lat <= ?4 AND (?5 OR s.open = 1)
            """)
        s.bind(box.minLon, at: 1); s.bind(box.minLat, at: 2)
        s.bind(box.maxLon, at: 3); s.bind(box.maxLat, at: 4)
        s.bind(Int64(includeClosed ? 1 : 0), at: 5)
        defer { s.reset() }
        while try s.step() { try body(s.int64(0), s.text(1), s.double(2), s.double(3)) }
    }

    /// The entry with row id `fid` (as lean queries return it).
    /// - Throws: `SQLiteError` when there is no such row.
    public func station(fid: Int64) throws -> Station {
        let s = try db.cached("SELECT \(Self.columns) FROM stations s WHERE s.fid = ?")
        s.bind(fid, at: 1)
        defer { s.reset() }
        guard try s.step() else { throw SQLiteError(code: 0, message: "no station with fid \(fid)", sql: s.sql) }
        return Self.station(from: s)
    }
}

extension StationDistance {
    /// Nearest first, ties broken by key.
    public static func nearestFirst(_ a: StationDistance, _ b: StationDistance) -> Bool {
        a.distance != b.distance ? a.distance < b.distance : a.station.key < b.station.key
    }
}
