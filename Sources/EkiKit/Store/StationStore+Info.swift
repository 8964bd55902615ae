import EkiSQLite

/// Counts for `eki info`.
public struct StoreInfo: Sendable {
    public struct Count: Sendable, Equatable {
        public var name: String
        public var entries: Int
        public var open: Int
        /// Entries that also hold rows of another dataset (0 when the database has one dataset).
        public var matched: Int
        /// Open entries that also hold rows of another dataset.
        public var openMatched: Int
    }
    public var entries: Int
    public var openEntries: Int
    /// Entries whose every source row is gone (kept for what refers to them).
    public var retiredEntries: Int
    /// Per dataset: entries with at least one source row from it.
    public var datasets: [Count]
    /// Per operator id and class: the id (`jr-east`, or the folded name of an operator the
    /// table does not know), its label (the table's short name, else the name as published),
    /// whether the operator table knows it, and the counts. Most entries first.
    public var operators: [(operatorID: String, label: String, known: Bool, serviceClass: ServiceClass, entries: Int, open: Int)]
}

extension StationStore {
    /// Entry counts in total, per dataset and per operator × class.
    public func info() throws -> StoreInfo {
        let total = try count(), open = try count(includeClosed: false)
        var datasets: [StoreInfo.Count] = []
        let d = try db.prepare("""
            WITH m AS (SELECT ss.dataset, s.fid, s.open,
                              EXISTS (SELECT 1 FROM station_sources o WHERE o.station_fid = s.fid AND o.dataset != ss.dataset) AS matched
                       FROM (SELECT DISTINCT dataset, station_fid FROM station_sources) ss JOIN stations s ON s.fid = ss.station_fid)
            SELECT dataset, count(*), sum(open), sum(matched), sum(open AND matched) FROM m GROUP BY dataset ORDER BY dataset
            """)
        while try d.step() {
            datasets.append(.init(name: d.text(0), entries: Int(d.int64(1)), open: Int(d.int64(2)),
                                  matched: Int(d.int64(3)), openMatched: Int(d.int64(4))))
        }
        let retired = Int(try db.scalarInt("SELECT count(*) FROM stations WHERE retired IS NOT NULL") ?? 0)
        var ops: [(operatorID: String, label: String, known: Bool, serviceClass: ServiceClass, entries: Int, open: Int)] = []
        let o = try db.prepare("""
            SELECT operator_id, min(coalesce(operator, '-')), class, count(*), sum(open) FROM stations
            GROUP BY operator_id, class ORDER BY count(*) DESC, operator_id, class
            """)
        while try o.step() {
            let id = o.text(0), known = OperatorTable.builtIn[id: id]
            ops.append((id, known?.shortName ?? o.text(1), known != nil,
                        ServiceClass(rawValue: o.text(2)) ?? .conventional, Int(o.int64(3)), Int(o.int64(4))))
        }
        return StoreInfo(entries: total, openEntries: open, retiredEntries: retired, datasets: datasets, operators: ops)
    }

    /// The open entries holding rows of `dataset` and of no other dataset: what no other
    /// source confirmed, for a person to check. Sorted by key.
    public func unmatchedEntries(dataset: String, includeClosed: Bool = false) throws -> [Station] {
        let s = try db.prepare("""
            SELECT \(Self.columns) FROM stations s
            WHERE s.fid IN (SELECT station_fid FROM station_sources WHERE dataset = ?1)
              AND NOT EXISTS (SELECT 1 FROM station_sources o WHERE o.station_fid = s.fid AND o.dataset != ?1)
              AND (?2 OR s.open = 1)
            ORDER BY s.key
            """)
        try s.bind([.text(dataset), .int(includeClosed ? 1 : 0)])
        var out: [Station] = []
        while try s.step() { out.append(Self.station(from: s)) }
        return out
    }
}

extension StationStore {
    /// What the sources disagree on and how it was settled: the stored source rows run through
    /// the reconciler again (`SourceReconciler`, with the stored operator aliases), as the last
    /// import did. Counts per kind, the operator decisions, and what could not be decided.
    /// - Throws: `SQLiteError`, `OperatorTableError` when the stored aliases no longer fit.
    public func conflicts() throws -> SourceReconciler.Report {
        let rule = EntryRule(operators: try operatorTable())
        return rule.reconciler.reconcile([try sourceRecords()]).report
    }
}
