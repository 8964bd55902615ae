import EkiSQLite
import Foundation

/// Writes an `EntryPlan` into `stations`, `station_aliases` and `station_sources`, keeping the
/// R-tree in step (`SpatialIndex`). Call inside the import's transaction.
struct EntryWriter {
    /// How the rows get there; both give the same rows, fids and tree.
    enum Strategy: Sendable {
        /// The store holds no entries and no aliases: every entry is inserted in plan order
        /// (fids 1, 2, …), nothing is updated, merged, retired or deleted first. `applyFresh`
        /// takes the plan one base-key run at a time.
        case fresh
        /// Entries are updated in place, inserted, merged or retired; every `station_sources`
        /// row is written again.
        case incremental
    }

    let db: Database
    let spatialIndex: SpatialIndex
    /// How the R-tree is maintained (packed afresh or row by row through its triggers).
    let spatialIndexBuild: SpatialIndexBuild

    /// Applies `plan` the `.incremental` way (an empty store goes through `applyFresh`);
    /// `today` (YYYY-MM-DD) is the date retired entries get.
    /// - Throws: `SQLiteError`.
    func apply(_ plan: EntryPlan, today: String) throws -> MergeSummary {
        var summary = MergeSummary()
        var trace = PhaseTrace()
        // Many changed points: drop the R-tree triggers and pack the tree afresh at the end.
        let bulk = spatialIndexBuild.packs(changedRows: plan.changedRows, totalRows: plan.totalRows)
        if bulk { try spatialIndex.dropTriggers() }
        let insert = try db.prepare(Self.insertStationSQL)
        let update = try db.prepare(Self.updateStationSQL)
        let renameAlias = try db.prepare("INSERT OR REPLACE INTO station_aliases (old_key, new_key, reason) VALUES (?,?,'qualified by place')")
        var fidOfEntry = [Int64](repeating: 0, count: plan.entries.count)
        for (i, e) in plan.entries.enumerated() {
            let base = plan.clusters[i].baseKey
            if let ei = e.continues {
                let old = plan.stored[ei]
                if let from = e.renamedFrom { try renameAlias.run([.text(from), .text(e.key)]) }
                if e.changed {
                    Self.bind(plan.station(i), base: base, to: update)
                    update.bind(old.fid, at: 20)
                    try update.runBound()
                    summary.updated += 1
                } else {
                    summary.unchanged += 1
                }
                fidOfEntry[i] = old.fid
            } else {
                Self.bind(plan.station(i), base: base, to: insert)
                try insert.runBound()
                fidOfEntry[i] = db.lastInsertRowID
                summary.added += 1
            }
        }
        trace.mark("write entries")
        if !plan.leftovers.isEmpty {
            let alias = try db.prepare("INSERT OR REPLACE INTO station_aliases (old_key, new_key, reason) VALUES (?,?,?)")
            let repoint = try db.prepare("UPDATE station_aliases SET new_key = ? WHERE new_key = ?")
            let delete = try db.prepare("DELETE FROM stations WHERE fid = ?")
            let retire = try db.prepare("UPDATE stations SET retired = ?, open = 0 WHERE fid = ?")
            for leftover in plan.leftovers {
                switch leftover {
                case .merge(let ei, let target):
                    let e = plan.stored[ei]
                    try alias.run([.text(e.key), .text(target), .text("merged")])
                    try repoint.run([.text(target), .text(e.key)])
                    try delete.run([.int(e.fid)])
                    summary.merged += 1
                case .retire(let ei):
                    try retire.run([.text(today), .int(plan.stored[ei].fid)])
                    summary.retired += 1
                }
            }
        }
        // Which rows make each entry, in the primary key's order.
        try db.execute("DELETE FROM station_sources")
        // (entry, its n-th source row) pairs, sorted by source row then fid.
        var rows: [(entry: Int32, source: Int32)] = []
        rows.reserveCapacity(plan.clusters.reduce(0) { $0 + $1.station.sources.count })
        for (i, c) in plan.clusters.enumerated() {
            for j in c.station.sources.indices { rows.append((Int32(i), Int32(j))) }
        }
        func ref(_ r: (entry: Int32, source: Int32)) -> SourceRef { plan.clusters[Int(r.entry)].station.sources[Int(r.source)] }
        rows.sort { a, b in
            let x = ref(a), y = ref(b)
            if x.dataset != y.dataset { return utf8Less(x.dataset, y.dataset) }
            if x.id != y.id { return utf8Less(x.id, y.id) }
            return fidOfEntry[Int(a.entry)] < fidOfEntry[Int(b.entry)]
        }
        try writeStationSources(count: rows.count) { i in (fidOfEntry[Int(rows[i].entry)], ref(rows[i])) }
        trace.mark("write station_sources")
        if bulk { try spatialIndex.rebuild(); try spatialIndex.createTriggers() }
        trace.mark("R-tree")
        try updateExtent()
        return summary
    }

    /// `.fresh` for plans made one after another (`plans` calls `write` with each plan, which
    /// continues no stored entry, and the positions in `segments` of its clusters' rows, as
    /// `EntryRule.forEachBaseRun` gives them): the rows, fids and tree `apply` writes for the
    /// plan of all the clusters, without holding more than one plan. Every stored source row
    /// is in `segments`.
    /// - Throws: `SQLiteError`, or what `plans` throws.
    func applyFresh(segments: [[SourceRecord]],
                    plans: (_ write: (EntryPlan, [[EntryRule.RowPosition]]) throws -> Void) throws -> Void) throws -> MergeSummary {
        var summary = MergeSummary()
        var trace = PhaseTrace()
        var fidOf = segments.map { [Int64](repeating: 0, count: $0.count) }
        // Whether to pack the tree is known once enough entries are planned (`packs` only
        // turns true as the count grows when every row is changed): plans wait until then.
        var bulk: Bool?
        var waiting: [(EntryPlan, [[EntryRule.RowPosition]])] = []
        var planned = 0
        var insert: Statement?
        func write(_ plan: EntryPlan, _ rows: [[EntryRule.RowPosition]]) throws {
            precondition(plan.stored.isEmpty, "fresh writes need an empty store")
            if insert == nil { insert = try db.prepare(Self.insertStationSQL) }
            let insert = insert!
            for i in plan.entries.indices {
                Self.bind(plan.station(i), base: plan.clusters[i].baseKey, to: insert)
                try insert.runBound()
                let fid = db.lastInsertRowID
                for r in rows[i] { fidOf[Int(r.set)][Int(r.index)] = fid }
                summary.added += 1
            }
        }
        try plans { plan, rows in
            if bulk != nil { return try write(plan, rows) }
            planned += plan.entries.count
            waiting.append((plan, rows))
            if spatialIndexBuild.packs(changedRows: planned, totalRows: planned) {
                bulk = true
                try spatialIndex.dropTriggers()
                for (p, r) in waiting { try write(p, r) }
                waiting = []
            }
        }
        if bulk == nil {
            bulk = false
            for (p, r) in waiting { try write(p, r) }
            waiting = []
        }
        trace.mark("plan and write entries")
        // Which rows make each entry, in the primary key's order.
        var order: [EntryRule.RowPosition] = []
        order.reserveCapacity(segments.reduce(0) { $0 + $1.count })
        for (si, records) in segments.enumerated() { for i in records.indices { order.append((Int32(si), Int32(i))) } }
        order.sort { a, b in
            let x = segments[Int(a.set)][Int(a.index)].source, y = segments[Int(b.set)][Int(b.index)].source
            if x.dataset != y.dataset { return utf8Less(x.dataset, y.dataset) }
            if x.id != y.id { return utf8Less(x.id, y.id) }
            return fidOf[Int(a.set)][Int(a.index)] < fidOf[Int(b.set)][Int(b.index)]
        }
        try writeStationSources(count: order.count) { i in
            let o = order[i]
            return (fidOf[Int(o.set)][Int(o.index)], segments[Int(o.set)][Int(o.index)].source)
        }
        trace.mark("write station_sources")
        if bulk == true { try spatialIndex.rebuild(); try spatialIndex.createTriggers() }
        trace.mark("R-tree")
        try updateExtent()
        return summary
    }

    /// Writes `count` rows of `station_sources` (emptied before), `row(i)` in the primary key's
    /// order so that
    /// its B-tree grows at its right edge; for many rows the index on `station_fid` is dropped
    /// and built again afterwards (one sort instead of a random insert per row).
    private func writeStationSources(count: Int, _ row: (Int) -> (fid: Int64, ref: SourceRef)) throws {
        let rebuildIndex = count >= 10_000
        if rebuildIndex { try db.execute("DROP INDEX IF EXISTS station_sources_fid") }
        let insert = try db.prepare("INSERT OR IGNORE INTO station_sources (station_fid, dataset, source_id) VALUES (?,?,?)")
        for i in 0..<count {
            let r = row(i)
            insert.bind(r.fid, at: 1); insert.bind(r.ref.dataset, at: 2); insert.bind(r.ref.id, at: 3)
            try insert.runBound()
        }
        if rebuildIndex { try db.execute("CREATE INDEX station_sources_fid ON station_sources(station_fid)") }
    }

    /// Writes the extent of all entries into gpkg_contents (informative in GeoPackage).
    private func updateExtent() throws {
        try db.execute("""
            UPDATE gpkg_contents SET
              min_x = (SELECT min(lon) FROM stations), max_x = (SELECT max(lon) FROM stations),
              min_y = (SELECT min(lat) FROM stations), max_y = (SELECT max(lat) FROM stations),
              last_change = strftime('%Y-%m-%dT%H:%M:%fZ','now')
            WHERE table_name = 'stations'
            """)
    }

    static let insertStationSQL = """
        INSERT INTO stations (geom, key, base_key, name, reading, latin_name, operator, operator_ref, class,
                              lines, prefecture, open, lon, lat, sources, former_names, retired, operator_id, kind)
        VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
        """
    static let updateStationSQL = """
        UPDATE stations SET geom = ?, key = ?, base_key = ?, name = ?, reading = ?, latin_name = ?, operator = ?,
          operator_ref = ?, class = ?, lines = ?, prefecture = ?, open = ?, lon = ?, lat = ?, sources = ?,
          former_names = ?, retired = ?, operator_id = ?, kind = ? WHERE fid = ?
        """

    /// Binds parameters 1…19 of `insertStationSQL` / `updateStationSQL`.
    static func bind(_ s: Station, base: String, to st: Statement) {
        GeoPackage.pointBlob(lon: s.coordinate.lon, lat: s.coordinate.lat).withUnsafeBytes { st.bind(blob: $0, at: 1) }
        st.bind(s.key, at: 2); st.bind(base, at: 3); st.bind(s.name, at: 4); st.bind(s.reading, at: 5)
        st.bind(s.latinName, at: 6); st.bind(s.operatorName, at: 7); st.bind(s.operatorRef, at: 8)
        st.bind(s.serviceClass.rawValue, at: 9); st.bind(JSONText.encodeStrings(s.lines), at: 10)
        st.bind(s.prefecture, at: 11); st.bind(Int64(s.isOpen ? 1 : 0), at: 12)
        st.bind(s.coordinate.lon, at: 13); st.bind(s.coordinate.lat, at: 14)
        st.bind(JSONText.encodeStrings(s.sources.map(\.description)), at: 15)
        st.bind(JSONText.encodeStrings(s.formerNames), at: 16); st.bind(s.retired, at: 17)
        st.bind(s.operatorID, at: 18); st.bind(s.kind.rawValue, at: 19)
    }
}

/// Byte-wise (SQLite BINARY collation) order of two strings' UTF-8.
@inline(__always) func utf8Less(_ a: String, _ b: String) -> Bool {
    var a = a, b = b
    return a.withUTF8 { x in
        b.withUTF8 { y in
            let n = min(x.count, y.count)
            if n > 0, let p = x.baseAddress, let q = y.baseAddress {
                let c = memcmp(p, q, n)
                if c != 0 { return c < 0 }
            }
            return x.count < y.count
        }
    }
}
