/// Station search by name, reading, romaji, line or operator.
extension StationStore {
    /// Entries whose name, reading, romanized name, line or operator matches `query`.
    ///
    /// The query and the data are folded alike (`SearchFold`): おだわら, オダワラ, ｵﾀﾞﾜﾗ and
    /// odawara all find 小田原; 霞ケ関 finds 霞ヶ関; a trailing 駅 is ignored (小田原駅 → 小田原)
    /// while names that end in 駅 (富山駅) still match. The query is only ever data: quotes,
    /// `%`, `_`, `*`, FTS operators and SQL are searched for literally.
    ///
    /// Order: exact matches, then prefix matches, then (with `.partial`) matches inside a field;
    /// within each, matches of the station's own name, reading or romaji before matches of its
    /// line or operator; then nearest first (geodesic, WGS84) when `options.near` is given, else
    /// by reading (folded; the name where there is no reading); ties by key.
    /// - Returns: at most `options.limit` hits.
    /// - Throws: `SearchError.invalidLimit` for a limit below 1, `SearchError.indexMissing` for a
    ///   database written before search existed and opened read-only, `SQLiteError`.
    public func search(_ query: String, options: SearchOptions = SearchOptions()) throws -> [SearchHit] {
        try search(query, options: options, caps: SearchRun.Caps())
    }

    /// `search` with the plan thresholds given (tests force each plan with them).
    func search(_ query: String, options: SearchOptions, caps: SearchRun.Caps) throws -> [SearchHit] {
        if let l = options.limit, l < 1 { throw SearchError.invalidLimit(l) }
        guard hasSearchIndex else { throw SearchError.indexMissing(db.path) }
        let q = SearchQuery(query, scope: options.by)
        guard !q.fields.isEmpty else { return [] }
        var run = SearchRun(store: self, options: options, caps: caps)
        return try run.execute(q)
    }
}

/// One search: the ranks (tier × field group) tried best first, each by the cheapest plan.
struct SearchRun {
    /// An entry that matched, before it is loaded.
    struct Candidate {
        var fid: Int64, sortKey: String, lon: Double, lat: Double
        var distance: Double? = nil
    }

    /// When each plan is used.
    struct Caps {
        /// Up to this many postings, a rank's matches are read from the term index and sorted;
        /// above, entries are tested in result order (or nearest first, or in the box) instead.
        var postings = 2_000
        /// A box with up to this many entries is scanned whole when a rank has many matches.
        var boxScan = 20_000
    }

    let store: StationStore
    let options: SearchOptions
    let caps: Caps
    var found = Set<Int64>()
    var hits: [(Candidate, SearchQuery.Tier, [SearchQuery.FieldQuery])] = []
    private var boxCount: Int? = nil

    init(store: StationStore, options: SearchOptions, caps: Caps) {
        self.store = store
        self.options = options
        self.caps = caps
    }

    var db: Database { store.db }

    mutating func execute(_ q: SearchQuery) throws -> [SearchHit] {
        let own = q.fields.filter { [.name, .reading, .romaji].contains($0.field) }
        let other = q.fields.filter { [.line, .operator].contains($0.field) }
        let tiers: [SearchQuery.Tier] = options.match == .partial ? [.exact, .prefix, .partial] : [.exact, .prefix]
        rankLoop: for tier in tiers {
            for group in [own, other] where !group.isEmpty {
                let need = options.limit.map { $0 - hits.count } ?? Int.max
                if need <= 0 { break rankLoop }
                var batch = try fromPostings(tier, group)
                if batch == nil { batch = try byScan(tier, group, need: need) }
                for c in batch!.prefix(need) {
                    self.found.insert(c.fid)
                    hits.append((c, tier, group))
                }
            }
        }
        return try hits.map { c, tier, group in
            let station = try store.station(fid: c.fid)
            let framed = try framedForms(c.fid)
            let field = group.first { SearchQuery.matches(tier, $0, framed: framed[$0.field] ?? "") } ?? group[0]
            return SearchHit(station: station, field: field.field, isExact: tier == .exact,
                             isPrefix: tier != .partial, distance: c.distance)
        }
    }

    /// The rank's matches from the term index, filtered and ordered; nil when there are more
    /// than `postingCap` postings.
    private func fromPostings(_ tier: SearchQuery.Tier, _ group: [SearchQuery.FieldQuery]) throws -> [Candidate]? {
        var params: [SQLValue] = []
        let terms = group.map { SearchQuery.termSelect(tier, $0, &params) }.joined(separator: " UNION ALL ")
        params.append(.int(Int64(caps.postings + 1)))
        let s = try db.cached("""
            SELECT p.fid, e.sort_key, e.lon, e.lat, e.open FROM (\(terms)) m
            CROSS JOIN search_posting p ON p.term_id = m.id CROSS JOIN search_entry e ON e.fid = p.fid
            LIMIT ?\(params.count)
            """)
        try s.bind(params)
        defer { s.reset() }
        var rows: [Candidate] = []
        var seen = Set<Int64>()
        var n = 0
        while try s.step() {
            n += 1
            if n > caps.postings { return nil }
            let c = Candidate(fid: s.int64(0), sortKey: s.text(1), lon: s.double(2), lat: s.double(3))
            guard options.includeClosed || s.int64(4) != 0, !found.contains(c.fid), seen.insert(c.fid).inserted else { continue }
            if let b = options.bbox, !b.contains(Coordinate(lat: c.lat, lon: c.lon)) { continue }
            rows.append(c)
        }
        return ordered(rows)
    }

    /// The rank's matches by testing entries: nearest first around `near`, or every entry of a
    /// small enough box, or entries in result order until `need` are found.
    private mutating func byScan(_ tier: SearchQuery.Tier, _ group: [SearchQuery.FieldQuery], need: Int) throws -> [Candidate] {
        var params: [SQLValue] = [.int(options.includeClosed ? 1 : 0)]
        let test = "(?1 OR e.open = 1) AND (" + group.map { SearchQuery.entryTest(tier, $0, &params) }.joined(separator: " OR ") + ")"
        if let near = options.near { return try nearest(near, test: test, params: params, need: need) }
        if let box = options.bbox {
            if boxCount == nil {
                boxCount = Int(try db.scalarInt("""
                    SELECT count(*) FROM (SELECT 1 FROM rtree_stations_geom WHERE minx <= ?3 AND maxx >= ?1 AND miny <= ?4 AND maxy >= ?2 LIMIT ?5)
                    """, [.double(box.minLon), .double(box.minLat), .double(box.maxLon), .double(box.maxLat), .int(Int64(caps.boxScan + 1))]) ?? 0)
            }
            if boxCount! <= caps.boxScan { return ordered(try inBox(box, test: test, params: params)) }
        }
        var where_ = test
        if let b = options.bbox {
            params += [.double(b.minLon), .double(b.minLat), .double(b.maxLon), .double(b.maxLat)]
            let n = params.count
            where_ += " AND e.lon >= ?\(n - 3) AND e.lat >= ?\(n - 2) AND e.lon <= ?\(n - 1) AND e.lat <= ?\(n)"
        }
        let limit = need == Int.max ? -1 : Int64(need + found.count)
        params.append(.int(limit))
        let s = try db.cached("""
            SELECT e.fid, e.sort_key, e.lon, e.lat FROM search_entry e INDEXED BY search_entry_sort
            WHERE \(where_) ORDER BY e.sort_key LIMIT ?\(params.count)
            """)
        try s.bind(params)
        defer { s.reset() }
        var out: [Candidate] = []
        while try s.step() {
            if found.contains(s.int64(0)) { continue }
            out.append(Candidate(fid: s.int64(0), sortKey: s.text(1), lon: s.double(2), lat: s.double(3)))
        }
        return out
    }

    /// Entries inside `box` passing `test` (not yet found), unordered.
    private func inBox(_ box: BoundingBox, test: String, params: [SQLValue]) throws -> [Candidate] {
        let n = params.count
        let s = try db.cached("""
            SELECT e.fid, e.sort_key, e.lon, e.lat FROM rtree_stations_geom r CROSS JOIN search_entry e ON e.fid = r.id
            WHERE r.minx <= ?\(n + 3) AND r.maxx >= ?\(n + 1) AND r.miny <= ?\(n + 4) AND r.maxy >= ?\(n + 2)
              AND e.lon >= ?\(n + 1) AND e.lat >= ?\(n + 2) AND e.lon <= ?\(n + 3) AND e.lat <= ?\(n + 4) AND \(test)
            """)
        try s.bind(params + [.double(box.minLon), .double(box.minLat), .double(box.maxLon), .double(box.maxLat)])
        defer { s.reset() }
        var out: [Candidate] = []
        while try s.step() {
            if found.contains(s.int64(0)) { continue }
            out.append(Candidate(fid: s.int64(0), sortKey: s.text(1), lon: s.double(2), lat: s.double(3)))
        }
        return out
    }

    /// The `need` nearest entries passing `test` (inside `options.bbox` when given): the
    /// expanding search of `StationStore.nearest`, radius from 2 km, ×4 until enough lie within it.
    private func nearest(_ p: Coordinate, test: String, params: [SQLValue], need: Int) throws -> [Candidate] {
        var radius = 2_000.0
        while true {
            var box = Geodesic.enclosingBox(center: p, radius: radius)
            var complete = box.minLon <= -180 && box.maxLon >= 180 && box.minLat <= -90 && box.maxLat >= 90
            if let b = options.bbox {
                complete = complete || (box.minLon <= b.minLon && box.maxLon >= b.maxLon && box.minLat <= b.minLat && box.maxLat >= b.maxLat)
                box = BoundingBox(minLon: max(box.minLon, b.minLon), minLat: max(box.minLat, b.minLat),
                                  maxLon: min(box.maxLon, b.maxLon), maxLat: min(box.maxLat, b.maxLat))
            }
            var within: [Candidate] = []
            if box.minLon <= box.maxLon && box.minLat <= box.maxLat {
                for var c in try inBox(box, test: test, params: params) {
                    let d = Geodesic.distance(lat1: p.lat, lon1: p.lon, lat2: c.lat, lon2: c.lon)
                    c.distance = d
                    if d <= radius || complete { within.append(c) }
                }
            }
            if within.count >= need || complete { return Array(sortByDistance(within).prefix(need)) }
            radius *= 4
        }
    }

    /// Candidates in result order: by distance from `near` when given, else by sort key.
    private func ordered(_ rows: [Candidate]) -> [Candidate] {
        guard let p = options.near else { return rows.sorted { $0.sortKey < $1.sortKey } }
        return sortByDistance(rows.map { c in
            var c = c
            c.distance = Geodesic.distance(lat1: p.lat, lon1: p.lon, lat2: c.lat, lon2: c.lon)
            return c
        })
    }

    private func sortByDistance(_ rows: [Candidate]) -> [Candidate] {
        rows.sorted { $0.distance! != $1.distance! ? $0.distance! < $1.distance! : $0.sortKey < $1.sortKey }
    }

    /// The framed forms of each field of one entry.
    private func framedForms(_ fid: Int64) throws -> [SearchField: String] {
        let s = try db.cached("SELECT name_h, reading_h, romaji_h, line_h, operator_h FROM search_entry WHERE fid = ?")
        try s.bind([.int(fid)])
        defer { s.reset() }
        guard try s.step() else { return [:] }
        return [.name: s.text(0), .reading: s.text(1), .romaji: s.text(2), .line: s.text(3), .operator: s.text(4)]
    }
}
