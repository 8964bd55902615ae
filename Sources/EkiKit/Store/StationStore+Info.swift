/// Counts for `eki info`.
public struct StoreInfo: Sendable {
    public struct Count: Sendable, Equatable {
        public var name: String
        public var entries: Int
        public var open: Int
    }
    public var entries: Int
    public var openEntries: Int
    /// Per dataset: entries with at least one source row from it.
    public var datasets: [Count]
    /// Per operator (as published; `-` for unknown) and class.
    public var operators: [(operatorName: String, serviceClass: ServiceClass, entries: Int, open: Int)]
}

extension StationStore {
    /// Entry counts in total, per dataset and per operator × class.
    public func info() throws -> StoreInfo {
        let total = try count(), open = try count(includeClosed: false)
        var datasets: [StoreInfo.Count] = []
        let d = try db.prepare("""
            SELECT ss.dataset, count(DISTINCT s.fid), count(DISTINCT CASE WHEN s.open THEN s.fid END)
            FROM station_sources ss JOIN stations s ON s.fid = ss.station_fid GROUP BY ss.dataset ORDER BY ss.dataset
            """)
        while try d.step() { datasets.append(.init(name: d.text(0), entries: Int(d.int64(1)), open: Int(d.int64(2)))) }
        var ops: [(String, ServiceClass, Int, Int)] = []
        let o = try db.prepare("""
            SELECT coalesce(operator, '-'), class, count(*), sum(open) FROM stations
            GROUP BY 1, 2 ORDER BY count(*) DESC, 1, 2
            """)
        while try o.step() {
            ops.append((o.text(0), ServiceClass(rawValue: o.text(1)) ?? .conventional, Int(o.int64(2)), Int(o.int64(3))))
        }
        return StoreInfo(entries: total, openEntries: open, datasets: datasets,
                         operators: ops.map { (operatorName: $0.0, serviceClass: $0.1, entries: $0.2, open: $0.3) })
    }
}
