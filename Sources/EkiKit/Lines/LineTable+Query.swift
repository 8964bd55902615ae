import EkiSQLite

/// One line of the line table (see `LineTable`): one operator's line in one service class.
public struct Line: Sendable, Hashable {
    /// Stable id, `<operator id>/<c|s>/<folded name>` (`jr-central/s/東海道新幹線`).
    public var id: String
    /// The display name (東海道新幹線, 銀座線, 山手線).
    public var name: String
    /// The operator's id in the operator table (`jr-central`).
    public var operatorID: String
    /// The operator's short name from the operator table (JR東海), else its id.
    public var operatorName: String
    /// The operator's type (`OperatorTypes`: JR, 大手私鉄, 準大手私鉄, その他).
    public var operatorType: String
    public var serviceClass: ServiceClass
    /// `#RRGGBB` from the first source that gives one.
    public var color: String?
    /// True when the line is a loop (山手線).
    public var isLoop: Bool
    /// True when a source has the line open.
    public var isOpen: Bool
    /// Every name the line is known by (source names, short forms, curated common names), sorted.
    public var aliases: [String]
    /// The source lines matched to it, `dataset:line name`.
    public var sources: [String]
    /// Keys of its open entries (in the prefecture asked for, when one was), sorted: `total` is their count.
    public var stationKeys: [String]
    /// Number of open entries on the line (in the prefecture asked for, when one was).
    public var total: Int { stationKeys.count }
}

/// One entry of a line, in order along it.
public struct LineStop: Sendable {
    public var station: Station
    /// The sequence it lies on: 0, 1, … (a line with branches has several; entries only an
    /// unordered source places on the line are in the last one, with no `order`).
    public var branch: Int
    /// Position along its branch, from 0; nil when no ordered source places it.
    public var order: Int?

    public init(station: Station, branch: Int, order: Int?) {
        self.station = station
        self.branch = branch
        self.order = order
    }
}

/// A line with its entries in order, or the section of it a common name covers.
public struct LineDetail: Sendable {
    public var line: Line
    public var stops: [LineStop]
    /// The common name when this is a curated section (山形新幹線), else nil.
    public var section: String?
}

extension LineTable {
    /// Every line, sorted by operator id, class (conventional first) and name.
    /// - Parameters:
    ///   - operator: an operator id or any name the operator table knows (JR東海); nil for all.
    ///   - prefecture: a prefecture name (神奈川県): only lines with an open entry there, counting
    ///     those entries only.
    ///   - serviceClass: only lines of that class.
    ///   - includeClosed: also lines no source has open.
    /// - Throws: `SQLiteError`.
    public func all(operator op: String? = nil, prefecture: String? = nil, serviceClass: ServiceClass? = nil,
                    includeClosed: Bool = false) throws -> [Line] {
        try lines(id: nil, operator: op, prefecture: prefecture, serviceClass: serviceClass, includeClosed: includeClosed)
    }

    /// `all`, or the one line with `id` when given (its members and aliases only are read).
    func lines(id: String?, operator op: String? = nil, prefecture: String? = nil, serviceClass: ServiceClass? = nil,
                       includeClosed: Bool) throws -> [Line] {
        let table = try DatabaseInfo(db: db, entries: entries).operatorTable()
        let opID = op.map { table.operatorID(for: $0) ?? $0 }
        var members: [Int64: [String]] = [:]
        let inPrefecture: SQL = prefecture.map { "AND s.prefecture = \($0)" } ?? ""
        let ofLine: SQL = id.map { "AND ls.line_num = (SELECT num FROM lines WHERE id = \($0))" } ?? ""
        let m = try db.prepare(sql: """
            SELECT DISTINCT ls.line_num, s.key FROM line_stations ls JOIN stations s ON s.fid = ls.station_fid
            WHERE s.open = 1 AND s.retired IS NULL \(sql: inPrefecture) \(sql: ofLine) ORDER BY ls.line_num, s.key
            """)
        while try m.step() { members[m.int64(0), default: []].append(m.text(1)) }
        var aliases: [String: [String]] = [:]
        let a = try db.prepare(sql: "SELECT line_id, alias FROM line_aliases \(sql: id.map { "WHERE line_id = \($0)" } ?? "") ORDER BY line_id, alias")
        while try a.step() {
            if aliases[a.text(0)]?.last != a.text(1) { aliases[a.text(0), default: []].append(a.text(1)) }
        }
        let s = try db.prepare(sql: """
            SELECT id, operator_id, class, name, color, loop, open, sources, num FROM lines \(sql: id.map { "WHERE id = \($0)" } ?? "")
            ORDER BY operator_id, class DESC, name, id
            """)
        var out: [Line] = []
        while try s.step() {
            let line = Self.line(from: s, table: table, aliases: aliases[s.text(0)] ?? [], keys: members[s.int64(8)] ?? [])
            if let opID, line.operatorID != opID { continue }
            if let serviceClass, line.serviceClass != serviceClass { continue }
            if !includeClosed, !line.isOpen { continue }
            if prefecture != nil, line.total == 0 { continue }
            out.append(line)
        }
        return out
    }

    private static func line(from s: Statement, table: OperatorTable, aliases: [String], keys: [String]) -> Line {
        Line(id: s.text(0), name: s.text(3), operatorID: s.text(1), operatorName: table[id: s.text(1)]?.shortName ?? s.text(1),
             operatorType: OperatorTypes.type(of: s.text(1)),
             serviceClass: ServiceClass(rawValue: s.text(2)) ?? .conventional, color: s.optionalText(4),
             isLoop: s.int64(5) != 0, isOpen: s.int64(6) != 0, aliases: aliases,
             sources: JSONText.decodeStrings(s.text(7)), stationKeys: keys)
    }

    /// The ids of the open lines with an open entry no source orders (an entry placed without a
    /// position, listed after the ordered ones), sorted: the lines with no full order.
    /// - Throws: `SQLiteError`.
    public func withoutFullOrder() throws -> [String] {
        let s = try db.prepare("""
            SELECT DISTINCT l.id FROM lines l JOIN line_stations ls ON ls.line_num = l.num JOIN stations s ON s.fid = ls.station_fid
            WHERE l.open = 1 AND ls.seq IS NULL AND s.open = 1 AND s.retired IS NULL ORDER BY l.id
            """)
        var out: [String] = []
        while try s.step() { out.append(s.text(0)) }
        return out
    }

    /// The line with `id` and its entries in order (branch by branch), or nil.
    /// - Throws: `SQLiteError`.
    public func line(id: String) throws -> LineDetail? {
        guard let line = try lines(id: id, includeClosed: true).first else { return nil }
        let s = try db.prepare("""
            SELECT ls.branch, ls.seq, \(StationColumns.selectList) FROM line_stations ls JOIN stations s ON s.fid = ls.station_fid
            WHERE ls.line_num = (SELECT num FROM lines WHERE id = ?) ORDER BY ls.branch, ls.seq IS NULL, ls.seq, s.key
            """)
        try s.bind([.text(id)])
        var stops: [LineStop] = []
        while try s.step() {
            stops.append(LineStop(station: StationColumns.decode(s, offset: 2), branch: Int(s.int64(0)),
                                  order: s.isNull(1) ? nil : Int(s.int64(1))))
        }
        return LineDetail(line: line, stops: stops, section: nil)
    }

    /// The lines a name or id gives: the line with that id; else every line one of whose
    /// aliases is `name` (folded with `SearchFold.name`); a curated common name (山形新幹線)
    /// gives the section it names, from its first station to its last, one detail per section.
    /// - Throws: `SQLiteError`.
    public func named(_ name: String) throws -> [LineDetail] {
        if let d = try line(id: name) { return [d] }
        let s = try db.prepare("SELECT DISTINCT line_id, from_fid, to_fid, alias FROM line_aliases WHERE form = ? ORDER BY line_id")
        try s.bind([.text(SearchFold.name(name))])
        var hits: [(id: String, from: Int64?, to: Int64?, alias: String)] = []
        while try s.step() {
            hits.append((s.text(0), s.isNull(1) ? nil : s.int64(1), s.isNull(2) ? nil : s.int64(2), s.text(3)))
        }
        // A common name's sections in the curated table's order.
        let curated = LineCommonNames.all.map { SearchFold.name($0.name) + "/" + SearchFold.name($0.line) }
        func rank(_ h: (id: String, from: Int64?, to: Int64?, alias: String)) -> Int {
            let key = SearchFold.name(h.alias) + "/" + (h.id.split(separator: "/").last.map(String.init) ?? "")
            return curated.firstIndex(of: key) ?? curated.count
        }
        hits.sort { a, b in (a.from == nil ? 0 : 1, rank(a), a.id) < (b.from == nil ? 0 : 1, rank(b), b.id) }
        var out: [LineDetail] = []
        var seen = Set<String>()
        for h in hits where seen.insert(h.id + "/\(h.from ?? -1)").inserted {
            guard var d = try line(id: h.id) else { continue }
            if let from = h.from, let to = h.to {
                let fidOf = try db.prepare("SELECT fid FROM stations WHERE key = ?")
                func fid(_ st: Station) throws -> Int64? {
                    try fidOf.bind([.text(st.key)]); defer { fidOf.reset() }
                    return try fidOf.step() ? fidOf.int64(0) : nil
                }
                var i: Int?, j: Int?
                for (k, stop) in d.stops.enumerated() where stop.order != nil {
                    let f = try fid(stop.station)
                    if f == from { i = k }
                    if f == to { j = k }
                }
                guard let i, let j else { continue }
                var part = Array(d.stops[min(i, j)...max(i, j)])
                if i > j { part.reverse() }
                d.stops = part.enumerated().map { LineStop(station: $0.element.station, branch: 0, order: $0.offset) }
                d.section = h.alias
            }
            out.append(d)
        }
        // Only the common-name sections when the name is one.
        if out.contains(where: { $0.section != nil }) { out.removeAll { $0.section == nil } }
        return out
    }
}

extension LineTable {
    /// The entries of the lines `query` names (`named(_:)`: an id, any alias, or a common
    /// name's sections), in order along each line, each once, as search hits of the line field
    /// (exact); nil when no line has that name. Closed entries only with
    /// `options.includeClosed`; `bbox` filters; `near` orders by distance (metres); `limit`
    /// is not applied.
    /// - Throws: `SQLiteError`.
    public func stationHits(named query: String, options: SearchOptions) throws -> [SearchHit]? {
        let found = try named(query)
        guard !found.isEmpty else { return nil }
        var seen = Set<String>()
        var hits: [SearchHit] = []
        for d in found {
            for stop in d.stops where (options.includeClosed || stop.station.isOpen) && seen.insert(stop.station.key).inserted {
                if let b = options.bbox, !b.contains(stop.station.coordinate) { continue }
                hits.append(SearchHit(station: stop.station, field: .line, isExact: true, isPrefix: true,
                                      distance: options.near.map { Geodesic.distance(valid: $0, stop.station.coordinate) }))
            }
        }
        if options.near != nil { hits.sort { ($0.distance!, $0.station.key) < ($1.distance!, $1.station.key) } }
        return hits
    }
}

extension VisitedStations {
    /// Visited / total per line of the line table (`LineTable.all()`, open lines, open
    /// entries), grouped as `<operator short name> <line name>` (JR東海 東海道新幹線), most
    /// visited first (then largest, then by name). The total and the closed and orphaned
    /// counts are those of `statistics(store:by:)`; staff-only stops are in no total unless
    /// `includeStaffOnly`, nor the entries `rules` leave out.
    /// - Throws: `SQLiteError`.
    public func lineStatistics(store: StationStore, includeStaffOnly: Bool = false,
                               rules: CountingRules = .default) throws -> VisitStatistics {
        var all = try statistics(store: store, by: nil, includeStaffOnly: includeStaffOnly, rules: rules)
        let staffOnly = (includeStaffOnly ? [] : try store.entries.keys(of: .staffOnly)).union(try rules.excludedKeys(store: store))
        all.groups = try store.lines.all().map { $0.without(staffOnly) }.map { l in
            VisitTally(group: "\(l.operatorName) \(l.name)", visited: l.stationKeys.filter(isVisited).count, total: l.total)
        }.sorted {
            ($0.visited, $0.total) != ($1.visited, $1.total) ? ($0.visited, $0.total) > ($1.visited, $1.total) : $0.group < $1.group
        }
        return all
    }
}
