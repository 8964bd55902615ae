import EkiSQLite

/// Re-deriving the entries from every stored source row while keeping keys (see
/// `StationStore.importBatches`): rows → clusters (`EntryRule`) → plan (`EntryPlan`) →
/// writes (`EntryWriter`); into an empty store, one base-key run at a time.
struct EntryDerivation {
    let db: Database
    let spatial: SpatialIndex
    /// Where the reconciler's report is stored.
    let info: DatabaseInfo
    /// `.fresh` or `.incremental`; nil chooses (`.fresh` for an empty store).
    let strategy: EntryWriter.Strategy?

    /// Re-derives every entry. `batches` are the rows just stored: when they are all the stored
    /// rows, they are clustered from memory instead of being read back. Either way `batches` is
    /// emptied before the rows are reconciled (the reconciler then holds the only reference).
    func rederive(rule: EntryRule, today: String,
                  batches: inout [(dataset: String, records: [SourceRecord])]) throws -> MergeSummary {
        var trace = PhaseTrace()
        let segments = try storedRows(batches)
        batches = []
        let (rows, report) = rule.reconciler.reconcile(consume segments)
        try info.store(conflicts: report)
        trace.mark("read and reconcile source rows")
        let stored = try storedEntries()
        let aliases = try aliasKeys()
        trace.mark("read \(stored.count) entries")
        let strategy = self.strategy ?? (stored.isEmpty && aliases.isEmpty ? .fresh : .incremental)
        let writer = EntryWriter(db: db, spatialIndex: spatial)
        defer { spatial.dropCache() }
        if strategy == .fresh {
            // Nothing to continue: each base-key run is planned and written on its own (the
            // keys a run gives with `@` carried on to the next), so only one run's clusters
            // and plan are held at a time.
            precondition(stored.isEmpty, "fresh writes need an empty store")
            var taken = aliases
            return try writer.applyFresh { write in
                try rule.forEachBaseRun(rows) { run, _ in
                    try write(EntryPlan(clusters: run, stored: [], taken: &taken, linkDistance: rule.linkDistance))
                }
            }
        }
        let clusters = rule.clusters(fromSegments: rows)
        trace.mark("cluster source rows")
        let plan = EntryPlan(clusters: clusters, stored: stored, aliases: aliases, linkDistance: rule.linkDistance)
        trace.mark("plan \(plan.entries.count) entries")
        return try writer.apply(plan, today: today)
    }

    /// Every stored source row in `ORDER BY dataset, ord` order, as consecutive segments:
    /// `batches` (just stored; not copied) when they are all the stored rows, else read back.
    private func storedRows(_ batches: [(dataset: String, records: [SourceRecord])]) throws -> [[SourceRecord]] {
        let total = batches.reduce(0) { $0 + $1.records.count }
        if !batches.isEmpty, Set(batches.map(\.dataset)).count == batches.count,
           try db.scalarInt("SELECT count(*) FROM source_records") == Int64(total) {
            return batches.sorted { $0.dataset.utf8.lexicographicallyPrecedes($1.dataset.utf8) }.map(\.records)
        }
        return [try SourceRows(db: db).read()]
    }

    /// The stored entries in fid order, with their source rows (`columns` reads them).
    private func storedEntries() throws -> [EntryPlan.Stored] {
        let s = try db.prepare("SELECT s.fid, coalesce(s.base_key, s.key), \(StationColumns.selectList) FROM stations s ORDER BY s.fid")
        var out: [EntryPlan.Stored] = []
        while try s.step() {
            let st = StationColumns.decode(s, offset: 2)
            out.append(EntryPlan.Stored(fid: s.int64(0), key: st.key, baseKey: s.text(1), station: st))
        }
        return out
    }

    /// The old keys of `station_aliases`.
    private func aliasKeys() throws -> Set<String> {
        let s = try db.prepare("SELECT old_key FROM station_aliases")
        var out = Set<String>()
        while try s.step() { out.insert(s.text(0)) }
        return out
    }
}
