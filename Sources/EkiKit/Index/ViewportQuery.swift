import EkiSQLite

/// One viewport question, as the map, `eki bbox`, `eki render` and search's box plans ask it:
/// the entries inside a box (edges included; degrees WGS84, RFC 7946 order), narrowed by a
/// filter and a prefecture, with an optional pin cap.
///
/// ```swift
/// var q = ViewportQuery(bbox: BoundingBox(minLon: 139.74, minLat: 35.67, maxLon: 139.78, maxLat: 35.69), limit: 300)
/// q.filter = .excluding(visitedFids)       // 未乗下車駅のみ
/// let view = try store.spatial.viewport(q) // view.hits nearest the centre first, view.total in the box
/// ```
public struct ViewportQuery: Sendable, Equatable {
    /// Which entries count, by row id (`StationHit.fid`; `EntryCatalog.fids(keys:)` gives them
    /// for keys).
    public enum Filter: Sendable, Equatable {
        case all
        /// Only these entries (乗下車済駅のみ: the visited ones).
        case only(Set<Int64>)
        /// Every entry but these (未乗下車駅のみ).
        case excluding(Set<Int64>)

        /// True when the entry with this row id counts.
        public func admits(_ fid: Int64) -> Bool {
            switch self {
            case .all: return true
            case .only(let s): return s.contains(fid)
            case .excluding(let s): return !s.contains(fid)
            }
        }
    }

    public var bbox: BoundingBox
    public var filter: Filter
    /// The pin cap: keep the `limit` entries nearest the box centre (geodesic), ties by key.
    public var limit: Int?
    /// Also closed entries.
    public var includeClosed: Bool
    /// Only entries in this prefecture (as `Station.prefecture` names it: 東京都).
    public var prefecture: String?

    public init(bbox: BoundingBox, filter: Filter = .all, limit: Int? = nil, includeClosed: Bool = false,
                prefecture: String? = nil) {
        (self.bbox, self.filter, self.limit, self.includeClosed) = (bbox, filter, limit, includeClosed)
        self.prefecture = prefecture
    }
}

/// The answer to a `ViewportQuery`.
public struct ViewportResult: Sendable, Equatable {
    /// With a limit: the kept entries nearest the box centre first (`distance` in metres), ties
    /// by key; without: every entry that counts, in R-tree order (`distance` 0).
    public var hits: [StationHit]
    /// The entries that count in the box, before the pin cap.
    public var total: Int
}

extension SpatialIndex {
    /// The one viewport query: the entries of `query.bbox` that pass its filter, prefecture and
    /// open rule, and their total; with `query.limit`, only the `limit` nearest the box centre
    /// (geodesic, ties by key), exactly as if every entry of the box had been measured.
    ///
    /// A box holding more than twice `limit` entries that count (a city at low zoom) is
    /// answered by the best-first k-NN from the centre (`nearestHits`, same order), keeping the
    /// hits that count and asking for twice as many until `limit` do, instead of measuring
    /// every entry of the box.
    /// - Throws: `SQLiteError`.
    public func viewport(_ query: ViewportQuery) throws -> ViewportResult {
        let admits = try admission(query.filter, prefecture: query.prefecture)
        var hits = try self.hits(in: query.bbox, includeClosed: query.includeClosed)
        if query.filter != .all || query.prefecture != nil { hits.removeAll { !admits($0.fid) } }
        let total = hits.count
        guard let limit = query.limit.map({ max(0, $0) }) else { return ViewportResult(hits: hits, total: total) }
        let centre = query.bbox.center
        if total > 2 * limit {
            let near = try nearestHits(to: centre, k: limit, includeClosed: query.includeClosed) {
                query.bbox.contains($0.coordinate) && admits($0.fid)
            }
            return ViewportResult(hits: near, total: total)
        }
        for i in hits.indices { hits[i].distance = try Geodesic.distance(centre, hits[i].coordinate) }
        hits.sort { $0.distance < $1.distance }
        // Keep the ties at the cut, order the kept ones' ties by key, then cut.
        var n = min(limit, hits.count)
        while n > 0 && n < hits.count && hits[n].distance == hits[n - 1].distance { n += 1 }
        hits.removeSubrange(n...)
        try orderTiesByKey(&hits)
        return ViewportResult(hits: Array(hits.prefix(limit)), total: total)
    }

    /// `viewport(_:)` with the entries loaded whole: sorted by key without a limit, nearest
    /// the centre first with one.
    /// - Throws: `SQLiteError`.
    public func stations(_ query: ViewportQuery) throws -> (stations: [Station], total: Int) {
        let v = try viewport(query)
        return (try entries.stations(fids: v.hits.map(\.fid), orderedByKey: query.limit == nil), v.total)
    }

    /// Entries inside `bbox`, loaded whole (`stations(_:)` of a query with no filter).
    /// - Returns: entries sorted by key, or by distance from the centre when `limit` is given.
    /// - Throws: `SQLiteError`.
    public func stations(in bbox: BoundingBox, limit: Int? = nil, includeClosed: Bool = false) throws -> [Station] {
        try stations(ViewportQuery(bbox: bbox, limit: limit, includeClosed: includeClosed)).stations
    }

    /// The `k` entries nearest `point` that `admits` accepts (all when nil), by geodesic
    /// distance (WGS84, metres), nearest first, ties broken by key: exactly what a brute-force
    /// scan returns. The search is `nearestHits` (best-first over the R-tree), asked for twice
    /// as many until `k` are admitted or none are left.
    /// - Throws: `SQLiteError`, or what `admits` throws.
    public func nearestHits(to point: Coordinate, k: Int, includeClosed: Bool = false,
                            where admits: (StationHit) throws -> Bool) throws -> [StationHit] {
        guard k > 0 else { return [] }
        var n = k
        while true {
            let near = try nearestHits(to: point, k: n, includeClosed: includeClosed)
            let kept = try near.filter(admits)
            if kept.count >= k || near.count < n { return Array(kept.prefix(k)) }
            n *= 2
        }
    }

    /// The `k` entries nearest `point` that `filter` admits (in `prefecture` when given; see
    /// `nearestHits(to:k:includeClosed:where:)`).
    /// - Throws: `SQLiteError`.
    public func nearestHits(to point: Coordinate, k: Int, includeClosed: Bool = false,
                            filter: ViewportQuery.Filter, prefecture: String? = nil) throws -> [StationHit] {
        if filter == .all && prefecture == nil { return try nearestHits(to: point, k: k, includeClosed: includeClosed) }
        let admits = try admission(filter, prefecture: prefecture)
        return try nearestHits(to: point, k: k, includeClosed: includeClosed) { admits($0.fid) }
    }

    /// The `k` entries nearest `point` (those `filter` admits, in `prefecture` when given),
    /// loaded whole (by one read of their rows), nearest first, ties by key (see `nearestHits`).
    /// - Throws: `SQLiteError`, `StoreError.noEntry` when a hit has no row.
    public func nearest(to point: Coordinate, k: Int, includeClosed: Bool = false,
                        filter: ViewportQuery.Filter = .all, prefecture: String? = nil) throws -> [StationDistance] {
        let hits = try nearestHits(to: point, k: k, includeClosed: includeClosed, filter: filter, prefecture: prefecture)
        let byFid = try entries.stationsByFid(hits.map(\.fid))
        return try hits.map { h in
            guard let s = byFid[h.fid] else { throw StoreError.noEntry(fid: h.fid) }
            return StationDistance(station: s, distance: h.distance)
        }
    }

    /// A filter and a prefecture as one test of a row id.
    private func admission(_ filter: ViewportQuery.Filter, prefecture: String?) throws -> (Int64) -> Bool {
        guard let prefecture else { return { filter.admits($0) } }
        let s = try db.cached("SELECT fid FROM stations WHERE prefecture = ?")
        try s.bind([.text(prefecture)])
        defer { s.reset() }
        var inPrefecture = Set<Int64>()
        while try s.step() { inPrefecture.insert(s.int64(0)) }
        return { inPrefecture.contains($0) && filter.admits($0) }
    }
}

extension StationDistance {
    /// Nearest first, ties broken by key.
    public static func nearestFirst(_ a: StationDistance, _ b: StationDistance) -> Bool {
        a.distance != b.distance ? a.distance < b.distance : a.station.key < b.station.key
    }
}
