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
    /// The R-tree, and how it is maintained (`SpatialIndex.build`: packed afresh or row by row
    /// through its triggers).
    let spatialIndex: SpatialIndex
    var spatialIndexBuild: SpatialIndexBuild { spatialIndex.build }

    /// Applies `plan` the `.incremental` way (an empty store goes through `applyFresh`);
    /// `today` (YYYY-MM-DD) is the date retired entries get.
    /// - Throws: `SQLiteError`.
    func apply(_ plan: EntryPlan, today: String) throws -> MergeSummary {
        var summary = MergeSummary()
        var trace = PhaseTrace()
        // Many changed points: drop the R-tree triggers and pack the tree afresh at the end.
        let bulk = spatialIndexBuild.packs(changedRows: plan.changedRows, totalRows: plan.totalRows)
        if bulk { try spatialIndex.dropTriggers() }
        let insert = try db.prepare(StationColumns.insertSQL)
        let update = try db.prepare(StationColumns.updateSQL)
        let renameAlias = try db.prepare("INSERT OR REPLACE INTO station_aliases (old_key, new_key, reason) VALUES (?,?,'qualified by place')")
        var fidOfEntry = [Int64](repeating: 0, count: plan.entries.count)
        for (i, e) in plan.entries.enumerated() {
            let base = plan.clusters[i].baseKey
            if let ei = e.continues {
                let old = plan.stored[ei]
                if let from = e.renamedFrom { try renameAlias.run([.text(from), .text(e.key)]) }
                if e.changed {
                    StationColumns.bind(plan.station(i), baseKey: base, to: update)
                    StationColumns.bindFid(old.fid, to: update)
                    try update.runBound()
                    summary.updated += 1
                } else {
                    summary.unchanged += 1
                }
                fidOfEntry[i] = old.fid
            } else {
                StationColumns.bind(plan.station(i), baseKey: base, to: insert)
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
        // Which rows make each entry, in the primary key's order (fid, then source row).
        try db.execute("DELETE FROM station_sources")
        let byFid = plan.entries.indices.sorted { fidOfEntry[$0] < fidOfEntry[$1] }
        let insertSource = try db.prepare(Self.insertSourceSQL)
        for i in byFid { try Self.writeSources(plan.clusters[i].station.sources, fid: fidOfEntry[i], with: insertSource) }
        trace.mark("write station_sources")
        if bulk { try spatialIndex.rebuild(); try spatialIndex.createTriggers() }
        trace.mark("R-tree")
        try updateExtent()
        return summary
    }

    /// `.fresh` for plans made one after another (`plans` calls `write` with each plan, which
    /// continues no stored entry, as `EntryRule.forEachBaseRun` gives them): the rows, fids and
    /// tree `apply` writes for the plan of all the clusters, without holding more than one plan.
    /// Each entry's `station_sources` rows follow it (fids only grow: both B-trees grow at
    /// their right edge).
    /// - Throws: `SQLiteError`, or what `plans` throws.
    func applyFresh(plans: (_ write: (EntryPlan) throws -> Void) throws -> Void) throws -> MergeSummary {
        var summary = MergeSummary()
        var trace = PhaseTrace()
        // Whether to pack the tree is known once enough entries are planned (`packs` only
        // turns true as the count grows when every row is changed): plans wait until then.
        var bulk: Bool?
        var waiting: [EntryPlan] = []
        var planned = 0
        var statements: (station: Statement, source: Statement)?
        func write(_ plan: EntryPlan) throws {
            precondition(plan.stored.isEmpty, "fresh writes need an empty store")
            if statements == nil { statements = (try db.prepare(StationColumns.insertSQL), try db.prepare(Self.insertSourceSQL)) }
            let (insert, source) = statements!
            for i in plan.entries.indices {
                let station = plan.station(i)
                StationColumns.bind(station, baseKey: plan.clusters[i].baseKey, to: insert)
                try insert.runBound()
                try Self.writeSources(station.sources, fid: db.lastInsertRowID, with: source)
                summary.added += 1
            }
        }
        try plans { plan in
            if bulk != nil { return try write(plan) }
            planned += plan.entries.count
            waiting.append(plan)
            if spatialIndexBuild.packs(changedRows: planned, totalRows: planned) {
                bulk = true
                try spatialIndex.dropTriggers()
                for p in waiting { try write(p) }
                waiting = []
            }
        }
        if bulk == nil {
            bulk = false
            for p in waiting { try write(p) }
            waiting = []
        }
        trace.mark("plan and write entries")
        if bulk == true { try spatialIndex.rebuild(); try spatialIndex.createTriggers() }
        trace.mark("R-tree")
        try updateExtent()
        return summary
    }

    static let insertSourceSQL = "INSERT OR IGNORE INTO station_sources (station_fid, dataset, source_id) VALUES (?,?,?)"

    /// Writes the `station_sources` rows of entry `fid` (`sources` sorted, as `Station.sources` is).
    @inline(__always)
    static func writeSources(_ sources: [SourceRef], fid: Int64, with insert: Statement) throws {
        for r in sources {
            insert.bind(fid, at: 1); insert.bind(r.dataset, at: 2); insert.bind(r.id, at: 3)
            try insert.runBound()
        }
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
