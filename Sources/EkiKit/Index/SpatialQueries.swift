import EkiSQLite

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
            return try pinCapHits(in: bbox, limit: limit, includeClosed: includeClosed).hits.map { try station(fid: $0.fid) }
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

    /// The pin cap of a viewport, lean: the `limit` entries inside `bbox` nearest its centre
    /// (geodesic, metres in `distance`), nearest first, ties by key, and `total`, the number of
    /// entries inside the box. What `stations(in:limit:)` loads whole and the map server writes.
    ///
    /// A box holding more than twice `limit` entries (a city at low zoom) is answered by the
    /// best-first k-NN from the centre (`nearestHits`, same order), keeping the hits inside the
    /// box and asking for twice as many until `limit` are inside, instead of measuring the
    /// distance of every entry in the box.
    public func pinCapHits(in bbox: BoundingBox, limit: Int, includeClosed: Bool = false) throws
        -> (hits: [StationHit], total: Int) {
        let limit = max(0, limit)
        let centre = bbox.center
        var hits = try stationHits(in: bbox, includeClosed: includeClosed)
        let total = hits.count
        if total > 2 * limit {
            var k = max(1, limit)
            while true {
                let near = try nearestHits(to: centre, k: k, includeClosed: includeClosed)
                let inside = near.filter { bbox.contains($0.coordinate) }
                if inside.count >= limit || near.count < k { return (Array(inside.prefix(limit)), total) }
                k *= 2
            }
        }
        for i in hits.indices { hits[i].distance = try Geodesic.distance(centre, hits[i].coordinate) }
        hits.sort { $0.distance < $1.distance }
        // Keep the ties at the cut, order the kept ones' ties by key, then cut.
        var n = min(limit, hits.count)
        while n > 0 && n < hits.count && hits[n].distance == hits[n - 1].distance { n += 1 }
        hits.removeSubrange(n...)
        try orderTiesByKey(&hits)
        return (Array(hits.prefix(limit)), total)
    }

    /// The `k` entries nearest `point` by geodesic distance (WGS84, metres), nearest first, ties
    /// broken by key: exactly what a brute-force scan returns. The search is `nearestHits`
    /// (best-first over the R-tree); the k winners are then loaded whole.
    public func nearest(to point: Coordinate, k: Int, includeClosed: Bool = false) throws -> [StationDistance] {
        try nearestHits(to: point, k: k, includeClosed: includeClosed).map {
            StationDistance(station: try station(fid: $0.fid), distance: $0.distance)
        }
    }

    /// The entry with row id `fid` (as lean queries return it).
    /// - Throws: `StoreError.noEntry` when there is no such row, `SQLiteError`.
    public func station(fid: Int64) throws -> Station {
        let s = try db.cached("SELECT \(Self.columns) FROM stations s WHERE s.fid = ?")
        s.bind(fid, at: 1)
        defer { s.reset() }
        guard try s.step() else { throw StoreError.noEntry(fid: fid) }
        return Self.station(from: s)
    }
}

extension StationDistance {
    /// Nearest first, ties broken by key.
    public static func nearestFirst(_ a: StationDistance, _ b: StationDistance) -> Bool {
        a.distance != b.distance ? a.distance < b.distance : a.station.key < b.station.key
    }
}
