import EkiSQLite

/// A line drawn through its stations: one polyline per branch (`LineStop.branch`), through the
/// open entries an ordered source places on it, in line order; a loop's first branch closed.
public struct LineStroke: Sendable {
    /// The line (`stationKeys` empty: only its id, name, operator, class and colour are read).
    public var line: Line
    /// Points in degrees WGS84, one array per branch with at least two points.
    public var branches: [[Coordinate]]

    /// The extent of every branch, nil when there is none.
    public var extent: BoundingBox? {
        let all = branches.joined()
        guard let first = all.first else { return nil }
        return all.reduce(BoundingBox(minLon: first.lon, minLat: first.lat, maxLon: first.lon, maxLat: first.lat)) { b, c in
            BoundingBox(minLon: min(b.minLon, c.lon), minLat: min(b.minLat, c.lat), maxLon: max(b.maxLon, c.lon), maxLat: max(b.maxLat, c.lat))
        }
    }

    /// The rule behind every stroke: ordered points (branch, point) in line order become one
    /// polyline per branch (branches of one point are left out); `loop` closes the first.
    static func branches(_ points: [(branch: Int, point: Coordinate)], loop: Bool) -> [[Coordinate]] {
        var out: [[Coordinate]] = []
        var current: Int?
        for p in points {
            if p.branch != current { out.append([]); current = p.branch }
            out[out.count - 1].append(p.point)
        }
        out.removeAll { $0.count < 2 }
        if loop, out.indices.contains(0), out[0].count > 2 { out[0].append(out[0][0]) }
        return out
    }
}

extension LineDetail {
    /// The line's stroke from its stops (open entries with an order).
    public var stroke: LineStroke {
        let points = stops.filter { $0.order != nil && $0.station.isOpen }.map { (branch: $0.branch, point: $0.station.coordinate) }
        var l = line
        l.stationKeys = []
        return LineStroke(line: l, branches: LineStroke.branches(points, loop: line.isLoop))
    }
}

extension LineTable {
    /// Every open line's stroke, sorted as `all()` sorts lines, read with one query.
    /// - Throws: `SQLiteError`.
    public func strokes() throws -> [LineStroke] {
        let table = try DatabaseInfo(db: db, entries: entries).operatorTable()
        let s = try db.prepare("""
            SELECT l.id, l.operator_id, l.class, l.name, l.color, l.loop, ls.branch, s.lon, s.lat
            FROM lines l JOIN line_stations ls ON ls.line_num = l.num JOIN stations s ON s.fid = ls.station_fid
            WHERE l.open = 1 AND s.open = 1 AND ls.seq IS NOT NULL
            ORDER BY l.operator_id, l.class DESC, l.name, l.id, ls.branch, ls.seq
            """)
        var out: [LineStroke] = []
        var points: [(branch: Int, point: Coordinate)] = []
        var line: Line?
        func flush() {
            if let line { out.append(LineStroke(line: line, branches: LineStroke.branches(points, loop: line.isLoop))) }
            points.removeAll()
        }
        while try s.step() {
            if line?.id != s.text(0) {
                flush()
                line = Line(id: s.text(0), name: s.text(3), operatorID: s.text(1),
                            operatorName: table[id: s.text(1)]?.shortName ?? s.text(1), operatorType: OperatorTypes.type(of: s.text(1)),
                            serviceClass: ServiceClass(rawValue: s.text(2)) ?? .conventional, color: s.optionalText(4),
                            isLoop: s.int64(5) != 0, isOpen: true, aliases: [], sources: [], stationKeys: [])
            }
            points.append((Int(s.int64(6)), Coordinate(lat: s.double(8), lon: s.double(7))))
        }
        flush()
        return out
    }

    /// The open lines the entry with `key` lies on (its current key: no alias is followed), as
    /// `all()` gives them, in its order.
    /// - Throws: `SQLiteError`.
    public func lines(through key: String) throws -> [Line] {
        let s = try db.prepare("""
            SELECT DISTINCT l.id FROM line_stations ls JOIN lines l ON l.num = ls.line_num JOIN stations s ON s.fid = ls.station_fid
            WHERE s.key = ? AND l.open = 1
            """)
        try s.bind([.text(key)])
        var ids: [String] = []
        while try s.step() { ids.append(s.text(0)) }
        return try ids.flatMap { try lines(id: $0, includeClosed: false) }
            .sorted { ($0.operatorID, $1.serviceClass.rawValue, $0.name, $0.id) < ($1.operatorID, $0.serviceClass.rawValue, $1.name, $1.id) }
    }
}
