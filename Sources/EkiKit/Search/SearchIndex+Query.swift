import EkiSQLite
import Foundation

/// Station search by name, reading, romaji, line or operator (`store.search`).
extension SearchIndex {
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
    ///
    /// ```swift
    /// let hits = try store.search.stations(matching: "おだわら")                    // 小田原 first
    /// let near = try store.search.stations(matching: "中央", options: SearchOptions(near: here, limit: 5))
    /// ```
    /// - Throws: `SearchError.invalidLimit` for a limit below 1, `SearchError.indexMissing` for a
    ///   database written before search existed and opened read-only, `SQLiteError`.
    public func stations(matching query: String, options: SearchOptions = SearchOptions()) throws -> [SearchHit] {
        try stations(matching: query, options: options, caps: SearchRun.Caps())
    }

    /// `stations(matching:options:)` with the plan thresholds given (tests force each plan with them).
    func stations(matching query: String, options: SearchOptions, caps: SearchRun.Caps) throws -> [SearchHit] {
        if let l = options.limit, l < 1 { throw SearchError.invalidLimit(l) }
        guard exists else { throw SearchError.indexMissing(db.path) }
        let q = SearchQuery(query, scope: options.by)
        guard !q.fields.isEmpty else { return [] }
        var run = SearchRun(index: self, options: options, caps: caps)
        return try run.execute(q)
    }
}

/// One search: the ranks (tier × field group) tried best first, each by the cheapest plan.
///
/// Plans: (1) the term index — postings are clustered by sort id, an integer in result order
/// (see `SearchIndex`), so SQLite returns the first matches of any number of terms from one
/// covering index; (2) with `near`, when a rank has many postings, the entries nearest the point
/// in order (the spatial index's best-first k-NN, `SpatialIndex.nearestHits`), each tested;
/// (3) with `bbox`, when the box holds fewer entries than the rank has postings, every entry of
/// the box (`SpatialIndex.viewport`), tested; (4) for
/// a common single character inside fields, entries tested in result order, up to a budget.
/// Every plan returns what testing every entry would (SearchIndexTests checks each against
/// brute force).
struct SearchRun {
    /// An entry that matched, before it is loaded.
    struct Candidate {
        var fid: Int64, sid: Int64, lon: Double = 0, lat: Double = 0
        var distance: Double? = nil
    }

    /// When each plan is used.
    struct Caps {
        /// With `near`: up to this many postings, a rank's matches are all read and sorted by
        /// distance; above, entries around the point are tested. With `bbox`: a rank with more
        /// postings than the box has entries (and than this) scans the box. nil: √(N × need),
        /// at least 256, N estimated by the largest row id (reading a posting and testing an
        /// entry cost about the same, and the nearest-first search tests about N / M × need entries).
        var postings: Int? = nil
        /// Boxes with more entries than this are never scanned whole.
        var boxScan = 20_000
        /// A partial search for one character with more postings than this first tests up to
        /// `scanBudget` entries per result wanted, in result order (`scanInOrder`).
        var scanAbove = 2_000
        var scanBudget = 50
    }

    let index: SearchIndex
    let options: SearchOptions
    let caps: Caps
    var found = Set<Int64>()
    var hits: [(Candidate, SearchQuery.Tier, [SearchQuery.FieldQuery])] = []
    /// The entries of `options.bbox` (that may count), once a rank asks.
    private var boxHits: [StationHit]? = nil
    private var entryEstimate: Int? = nil

    init(index: SearchIndex, options: SearchOptions, caps: Caps) {
        self.index = index
        self.options = options
        self.caps = caps
    }

    var db: Database { index.db }

    mutating func execute(_ q: SearchQuery) throws -> [SearchHit] {
        let own = q.fields.filter { [.name, .reading, .romaji].contains($0.field) }
        let other = q.fields.filter { [.line, .operator].contains($0.field) }
        let tiers: [SearchQuery.Tier] = options.match == .partial ? [.exact, .prefix, .partial] : [.exact, .prefix]
        rankLoop: for tier in tiers {
            for group in [own, other] where !group.isEmpty {
                let need = options.limit.map { $0 - hits.count } ?? Int.max
                if need <= 0 { break rankLoop }
                for c in try rank(tier, group, need: need).prefix(need) {
                    found.insert(c.fid)
                    hits.append((c, tier, group))
                }
            }
        }
        return try hits.map { c, tier, group in
            let station = try index.entries.station(fid: c.fid)
            let framed = try framedForms(c.fid)
            let field = group.first { SearchQuery.matches(tier, $0, framed: framed[$0.field] ?? "") } ?? group[0]
            return SearchHit(station: station, field: field.field, isExact: tier == .exact,
                             isPrefix: tier != .partial, distance: c.distance)
        }
    }

    /// The first `need` entries (not yet found) matching at this rank, in result order.
    private mutating func rank(_ tier: SearchQuery.Tier, _ group: [SearchQuery.FieldQuery], need: Int) throws -> [Candidate] {
        let terms = SQL.joined(group.map { SearchQuery.termSelect(tier, $0) }, separator: " UNION ALL ")
        let test: SQL = "(\(options.includeClosed) OR e.open = 1) AND (\(sql: SQL.joined(group.map { SearchQuery.entryTest(tier, $0) }, separator: " OR ")))"
        if let near = options.near {
            let cap = try postingCap(need: need)
            if try postingCount(terms, cap: cap) > cap {
                return try nearest(near, test: test, need: need)
            }
            return try allFromPostings(terms, near: near, need: need)
        }
        if let box = options.bbox {
            if boxHits == nil { boxHits = try index.spatial.viewport(ViewportQuery(bbox: box, includeClosed: options.includeClosed)).hits }
            let cap = min(boxHits!.count, caps.postings ?? Int.max)
            if boxHits!.count <= caps.boxScan, try postingCount(terms, cap: cap) > cap {
                return try passing(boxHits!, test: test).sorted { $0.sid < $1.sid }
            }
        }
        // A common single character inside fields (ん, 山, a) matches thousands of terms whose
        // postings lie all through the sort order: testing entries in that order finds the
        // first ones sooner than reading every posting.
        if tier == .partial, need < Int.max, options.bbox == nil, group.allSatisfy({ $0.base.unicodeScalars.count == 1 }),
           try postingCount(terms, cap: caps.scanAbove) > caps.scanAbove,
           let c = try scanInOrder(test: test, need: need) {
            return c
        }
        return try firstFromPostings(terms, need: need)
    }

    /// The first `need` entries passing `test`, testing entries in result order, at most
    /// `Caps.scanBudget` of them; nil when those did not hold `need` matches.
    private func scanInOrder(test: SQL, need: Int) throws -> [Candidate]? {
        let budget = caps.scanBudget * (need + found.count)
        let s = try db.cached(sql: """
            SELECT e.fid, e.sid FROM (SELECT * FROM search_entry INDEXED BY search_entry_sid ORDER BY sid
              LIMIT \(budget)) e WHERE \(sql: test) LIMIT \(need + found.count)
            """)
        defer { s.reset() }
        var out: [Candidate] = []
        while try s.step() {
            if !found.contains(s.int64(0)) { out.append(Candidate(fid: s.int64(0), sid: s.int64(1))) }
        }
        return out.count >= need ? out : nil
    }

    /// The first `need` matches in result order from the postings, which are ordered by sort
    /// id: SQLite keeps the first rows of all the terms' postings in sid order; an entry
    /// matching through several terms comes more than once, so fetch more until `need` differ.
    private func firstFromPostings(_ terms: SQL, need: Int) throws -> [Candidate] {
        var filter: SQL = """
            (\(options.includeClosed) OR p.open = 1) AND p.fid NOT IN (SELECT value FROM json_each(\("[" + found.map(String.init).joined(separator: ",") + "]")))
            """
        var join: SQL = ""
        if let b = options.bbox {
            join = "CROSS JOIN search_entry e ON e.fid = p.fid"
            // Across the antimeridian (west > east), either side of 180°.
            filter.append(b.crossesAntimeridian
                ? " AND (e.lon >= \(b.minLon) OR e.lon <= \(b.maxLon)) AND e.lat >= \(b.minLat) AND e.lat <= \(b.maxLat)"
                : " AND e.lon >= \(b.minLon) AND e.lat >= \(b.minLat) AND e.lon <= \(b.maxLon) AND e.lat <= \(b.maxLat)")
        }
        var limit = need == Int.max ? -1 : max(need, 16)
        while true {
            let s = try db.cached(sql: """
                SELECT p.fid FROM (\(sql: terms)) m CROSS JOIN search_posting p ON p.term_id = m.id \(sql: join)
                WHERE \(sql: filter) ORDER BY p.sid LIMIT \(limit)
                """)
            var out: [Candidate] = []
            var seen = Set<Int64>(), read = 0
            while try s.step() {
                read += 1
                if seen.insert(s.int64(0)).inserted { out.append(Candidate(fid: s.int64(0), sid: 0)) }
            }
            s.reset()
            if limit < 0 || read < limit || out.count >= need { return Array(out.prefix(need)) }
            limit *= 4
        }
    }

    /// Every match of a rank with its point, nearest first (`near`) — for ranks with few postings.
    private func allFromPostings(_ terms: SQL, near p: Coordinate, need: Int) throws -> [Candidate] {
        let s = try db.cached(sql: """
            SELECT p.fid, p.sid, e.lon, e.lat FROM (\(sql: terms)) m CROSS JOIN search_posting p ON p.term_id = m.id
            CROSS JOIN search_entry e ON e.fid = p.fid WHERE (\(options.includeClosed) OR p.open = 1)
            """)
        defer { s.reset() }
        var rows: [Candidate] = []
        var seen = Set<Int64>()
        while try s.step() {
            var c = Candidate(fid: s.int64(0), sid: s.int64(1), lon: s.double(2), lat: s.double(3))
            guard !found.contains(c.fid), seen.insert(c.fid).inserted else { continue }
            if let b = options.bbox, !b.contains(Coordinate(lat: c.lat, lon: c.lon)) { continue }
            c.distance = try Geodesic.distance(lat1: p.lat, lon1: p.lon, lat2: c.lat, lon2: c.lon)
            rows.append(c)
        }
        return Array(sortByDistance(rows).prefix(need))
    }

    /// The number of postings of a rank's terms, counted up to `cap + 1`.
    private func postingCount(_ terms: SQL, cap: Int) throws -> Int {
        if cap == Int.max { return 0 }
        return Int(try scalar("""
            SELECT count(*) FROM (SELECT 1 FROM (\(sql: terms)) m CROSS JOIN search_posting p ON p.term_id = m.id LIMIT \(cap + 1))
            """) ?? 0)
    }

    /// See `Caps.postings`.
    private mutating func postingCap(need: Int) throws -> Int {
        if let fixed = caps.postings { return fixed }
        if need == Int.max { return Int.max }
        if entryEstimate == nil { entryEstimate = Int(try scalar("SELECT max(fid) FROM search_entry") ?? 0) }
        return max(256, Int((Double(entryEstimate!) * Double(need + found.count)).squareRoot()))
    }

    /// The entries of `hits` passing `test` (not yet found), unordered.
    private func passing(_ hits: [StationHit], test: SQL) throws -> [Candidate] {
        let fids = "[" + hits.lazy.filter { !found.contains($0.fid) }.map { String($0.fid) }.joined(separator: ",") + "]"
        let s = try db.cached(sql: """
            SELECT e.fid, e.sid, e.lon, e.lat FROM search_entry e
            WHERE e.fid IN (SELECT value FROM json_each(\(fids))) AND \(sql: test)
            """)
        defer { s.reset() }
        var out: [Candidate] = []
        while try s.step() { out.append(Candidate(fid: s.int64(0), sid: s.int64(1), lon: s.double(2), lat: s.double(3))) }
        return out
    }

    /// The `need` nearest entries passing `test` (inside `options.bbox` when given), nearest
    /// first, ties in result order: the spatial index's nearest-first search, each entry it
    /// meets tested, asked for more until the `need`-th distance is not tied with the next.
    private func nearest(_ p: Coordinate, test: SQL, need: Int) throws -> [Candidate] {
        var sids: [Int64: Int64] = [:]
        // One statement for every entry met: the fid is its first argument, the test's follow.
        let s = try db.prepare(sql: "SELECT e.sid FROM search_entry e WHERE e.fid = \(Int64(0)) AND \(sql: test)")
        let admits = { (h: StationHit) throws -> Bool in
            guard !self.found.contains(h.fid), self.options.bbox?.contains(h.coordinate) ?? true else { return false }
            if sids[h.fid] != nil { return true }
            s.reset()
            try s.bind(arguments: [.int(h.fid)] + test.arguments)
            guard try s.step() else { return false }
            sids[h.fid] = s.int64(0)
            return true
        }
        var k = need
        while true {
            let hits = try index.spatial.nearestHits(to: p, k: k, includeClosed: options.includeClosed, where: admits)
            if hits.count < k || hits[k - 1].distance > hits[need - 1].distance || k == Int.max {
                let rows = hits.map { Candidate(fid: $0.fid, sid: sids[$0.fid]!, lon: $0.coordinate.lon, lat: $0.coordinate.lat, distance: $0.distance) }
                return Array(sortByDistance(rows).prefix(need))
            }
            k = k > Int.max / 2 ? Int.max : k * 2
        }
    }

    private func sortByDistance(_ rows: [Candidate]) -> [Candidate] {
        rows.sorted { $0.distance! != $1.distance! ? $0.distance! < $1.distance! : $0.sid < $1.sid }
    }

    /// Sort-key order as SQLite's BINARY collation has it: UTF-8 bytes, i.e. Unicode scalars.
    static func before(_ a: String, _ b: String) -> Bool { utf8Less(a, b) }

    /// The first column of the first row of `sql` (a cached statement).
    private func scalar(_ sql: SQL) throws -> Int64? {
        let s = try db.cached(sql: sql)
        defer { s.reset() }
        return try s.step() && !s.isNull(0) ? s.int64(0) : nil
    }

    /// The framed forms of each field of one entry.
    private func framedForms(_ fid: Int64) throws -> [SearchField: String] {
        let s = try db.cached(sql: "SELECT name_h, reading_h, romaji_h, line_h, operator_h FROM search_entry WHERE fid = \(fid)")
        defer { s.reset() }
        guard try s.step() else { return [:] }
        return [.name: s.text(0), .reading: s.text(1), .romaji: s.text(2), .line: s.text(3), .operator: s.text(4)]
    }
}
