import Foundation

/// Re-deriving the entries from every stored source row while keeping keys (see
/// `StationStore.importBatches`).
extension StationStore {
    struct Existing {
        var fid: Int64
        var key: String
        var baseKey: String
        var station: Station
    }

    func loadExisting() throws -> [Existing] {
        let s = try db.prepare("SELECT s.fid, s.base_key, \(Self.columns) FROM stations s ORDER BY s.fid")
        var out: [Existing] = []
        while try s.step() {
            let st = Self.station(from: s, offset: 2)
            out.append(Existing(fid: s.int64(0), key: st.key, baseKey: s.text(1), station: st))
        }
        let refs = try db.prepare("SELECT station_fid, dataset, source_id FROM station_sources")
        var byFid: [Int64: [SourceRef]] = [:]
        while try refs.step() { byFid[refs.int64(0), default: []].append(SourceRef(dataset: refs.text(1), id: refs.text(2))) }
        for i in out.indices { out[i].station.sources = (byFid[out[i].fid] ?? []).sorted() }
        return out
    }

    func rederive(rule: EntryRule, today: String,
                  batches: [(dataset: String, records: [SourceRecord])] = []) throws -> MergeSummary {
        if let summary = try deriveIntoEmptyStore(rule: rule, batches: batches) { return summary }
        let clusters = rule.clusters(from: try sourceRecords())
        let existing = try loadExisting()
        var summary = MergeSummary()

        // 1. Shared source rows: the pairs sharing most rows first, then the oldest entry.
        var fidsByRef: [SourceRef: [Int]] = [:]
        for (i, e) in existing.enumerated() { for r in e.station.sources { fidsByRef[r, default: []].append(i) } }
        var pairs: [(cluster: Int, entry: Int, shared: Int)] = []
        var overlaps: [Int: Set<Int>] = [:]
        for (ci, c) in clusters.enumerated() {
            var counts: [Int: Int] = [:]
            for r in c.station.sources { for ei in fidsByRef[r] ?? [] { counts[ei, default: 0] += 1 } }
            for (ei, n) in counts { pairs.append((ci, ei, n)) }
            overlaps[ci] = Set(counts.keys)
        }
        pairs.sort { ($1.shared, $0.entry, $0.cluster) < ($0.shared, $1.entry, $1.cluster) }
        var entryOf = [Int?](repeating: nil, count: clusters.count)
        var claimed = Set<Int>()
        for p in pairs where entryOf[p.cluster] == nil && !claimed.contains(p.entry) {
            entryOf[p.cluster] = p.entry
            claimed.insert(p.entry)
        }
        // 2. Same operator, class and name nearby (a source whose ids changed, a revived entry).
        var unclaimedByBase: [String: [Int]] = [:]
        for (i, e) in existing.enumerated() where !claimed.contains(i) { unclaimedByBase[e.baseKey, default: []].append(i) }
        for (ci, c) in clusters.enumerated() where entryOf[ci] == nil {
            let near = (unclaimedByBase[c.baseKey] ?? []).filter { !claimed.contains($0) }
                .map { ($0, Geodesic.distance(existing[$0].station.coordinate, c.station.coordinate)) }
                .filter { $0.1 <= rule.linkDistance }
                .min { $0.1 < $1.1 }
            if let (ei, _) = near {
                entryOf[ci] = ei
                claimed.insert(ei)
            }
        }
        // 3. New keys, distinct from every key and alias there is.
        var taken = Set(existing.map(\.key))
        let aliases = try db.prepare("SELECT old_key FROM station_aliases")
        while try aliases.step() { taken.insert(aliases.text(0)) }
        // A base (operator/class/name) that more than one entry now shares is qualified by
        // place in every key: new entries get `@geohash`, and an old entry holding the plain
        // base is renamed to its `@geohash` key with the plain key kept as an alias. So the
        // keys come out the same whatever order the sources were imported in.
        var clustersPerBase: [String: Int] = [:]
        for c in clusters { clustersPerBase[c.baseKey, default: 0] += 1 }
        var newByBase: [String: [Int]] = [:]
        for ci in clusters.indices where entryOf[ci] == nil { newByBase[clusters[ci].baseKey, default: []].append(ci) }
        var newKey: [Int: String] = [:]
        for (base, members) in newByBase {
            var stations = members.map { clusters[$0].station }
            if clustersPerBase[base] == 1 && !taken.contains(base) {
                stations[0].key = base
            } else {
                StationKey.assign(base: base, to: &stations, forcePlace: true, avoiding: taken)
            }
            for (ci, s) in zip(members, stations) { newKey[ci] = s.key; taken.insert(s.key) }
        }
        var renamed: [Int: String] = [:]      // cluster → new key of its old entry
        for (ci, c) in clusters.enumerated() where clustersPerBase[c.baseKey, default: 0] > 1 {
            guard let ei = entryOf[ci], existing[ei].key == c.baseKey else { continue }
            var one = [c.station]
            StationKey.assign(base: c.baseKey, to: &one, forcePlace: true, avoiding: taken)
            renamed[ci] = one[0].key
            taken.insert(one[0].key)
        }

        // Write. Many changed points: drop the R-tree triggers and pack the tree afresh at the end.
        func resolved(_ ci: Int) -> (station: Station, changed: Bool) {
            var s = clusters[ci].station
            guard let ei = entryOf[ci] else { s.key = newKey[ci]!; return (s, true) }
            let old = existing[ei]
            s.key = renamed[ci] ?? old.key
            s.formerNames = old.station.formerNames
            if old.station.name != s.name && !s.formerNames.contains(old.station.name) { s.formerNames.append(old.station.name) }
            s.formerNames.removeAll { $0 == s.name }
            return (s, !(s == old.station && clusters[ci].baseKey == old.baseKey))
        }
        var writes = existing.count - claimed.count
        for ci in clusters.indices where resolved(ci).changed { writes += 1 }
        let bulk = spatialIndexBuild.packs(changedRows: writes, totalRows: clusters.count + existing.count - claimed.count)
        if bulk { try dropSpatialIndexTriggers() }
        let insert = try db.prepare(Self.insertStationSQL)
        let update = try db.prepare(Self.updateStationSQL)
        var fidOfCluster = [Int64](repeating: 0, count: clusters.count)
        for ci in clusters.indices {
            let (s, changed) = resolved(ci)
            if let ei = entryOf[ci] {
                let old = existing[ei]
                if let k = renamed[ci] {
                    try db.prepare("INSERT OR REPLACE INTO station_aliases (old_key, new_key, reason) VALUES (?,?,'qualified by place')")
                        .run([.text(old.key), .text(k)])
                }
                if changed {
                    Self.bind(s, base: clusters[ci].baseKey, to: update)
                    update.bind(old.fid, at: 19)
                    try update.runBound()
                    summary.updated += 1
                } else {
                    summary.unchanged += 1
                }
                fidOfCluster[ci] = old.fid
            } else {
                Self.bind(s, base: clusters[ci].baseKey, to: insert)
                try insert.runBound()
                fidOfCluster[ci] = db.lastInsertRowID
                summary.added += 1
            }
        }
        // Old entries no cluster took: merged into the entry that took their rows, or retired.
        let alias = try db.prepare("INSERT OR REPLACE INTO station_aliases (old_key, new_key, reason) VALUES (?,?,?)")
        let delete = try db.prepare("DELETE FROM stations WHERE fid = ?")
        let retire = try db.prepare("UPDATE stations SET retired = ?, open = 0 WHERE fid = ?")
        var mergedInto: [Int: Int] = [:]
        for (ci, set) in overlaps { for ei in set where !claimed.contains(ei) { mergedInto[ei] = min(mergedInto[ei] ?? ci, ci) } }
        for (ei, e) in existing.enumerated() where !claimed.contains(ei) {
            if let ci = mergedInto[ei] {
                let target = entryOf[ci].map { existing[$0].key } ?? newKey[ci]!
                try alias.run([.text(e.key), .text(target), .text("merged")])
                try db.prepare("UPDATE station_aliases SET new_key = ? WHERE new_key = ?").run([.text(target), .text(e.key)])
                try delete.run([.int(e.fid)])
                summary.merged += 1
            } else if e.station.retired == nil {
                try retire.run([.text(today), .int(e.fid)])
                summary.retired += 1
            }
        }
        // Which rows make each entry.
        try db.execute("DELETE FROM station_sources")
        var sourceRows: [(fid: Int64, ref: SourceRef)] = []
        for (ci, c) in clusters.enumerated() { for ref in c.station.sources { sourceRows.append((fidOfCluster[ci], ref)) } }
        sourceRows.sort { a, b in
            if a.ref.dataset != b.ref.dataset { return utf8Less(a.ref.dataset, b.ref.dataset) }
            if a.ref.id != b.ref.id { return utf8Less(a.ref.id, b.ref.id) }
            return a.fid < b.fid
        }
        try writeStationSources(count: sourceRows.count) { sourceRows[$0] }
        if bulk { try rebuildSpatialIndex(); try createSpatialIndexTriggers() }
        try updateExtent()
        return summary
    }

    /// Writes `count` rows of `station_sources` (emptied before), `row(i)` in the primary key's
    /// order so that its B-tree grows at its right edge; for many rows the index on
    /// `station_fid` is dropped and built again afterwards (one sort instead of a random insert
    /// per row).
    func writeStationSources(count: Int, _ row: (Int) -> (fid: Int64, ref: SourceRef)) throws {
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

    static let insertStationSQL = """
        INSERT INTO stations (geom, key, base_key, name, reading, latin_name, operator, operator_ref, class,
                              lines, prefecture, open, lon, lat, sources, former_names, retired, operator_id)
        VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
        """
    static let updateStationSQL = """
        UPDATE stations SET geom = ?, key = ?, base_key = ?, name = ?, reading = ?, latin_name = ?, operator = ?,
          operator_ref = ?, class = ?, lines = ?, prefecture = ?, open = ?, lon = ?, lat = ?, sources = ?,
          former_names = ?, retired = ?, operator_id = ? WHERE fid = ?
        """

    /// Binds parameters 1…18 of `insertStationSQL` / `updateStationSQL`.
    static func bind(_ s: Station, base: String, to st: Statement) {
        GeoPackage.pointBlob(lon: s.coordinate.lon, lat: s.coordinate.lat).withUnsafeBytes { st.bind(blob: $0, at: 1) }
        st.bind(s.key, at: 2); st.bind(base, at: 3); st.bind(s.name, at: 4); st.bind(s.reading, at: 5)
        st.bind(s.latinName, at: 6); st.bind(s.operatorName, at: 7); st.bind(s.operatorRef, at: 8)
        st.bind(s.serviceClass.rawValue, at: 9); st.bind(JSONText.encodeStrings(s.lines), at: 10)
        st.bind(s.prefecture, at: 11); st.bind(Int64(s.isOpen ? 1 : 0), at: 12)
        st.bind(s.coordinate.lon, at: 13); st.bind(s.coordinate.lat, at: 14)
        st.bind(JSONText.encodeStrings(s.sources.map(\.description)), at: 15)
        st.bind(JSONText.encodeStrings(s.formerNames), at: 16); st.bind(s.retired, at: 17)
        st.bind(s.operatorID, at: 18)
    }

    /// The derivation when the store holds no entries, no aliases and no rows but those of
    /// `batches` (a first import): the same entries, keys and row ids as the general path gives
    /// (rows are grouped and ordered the same way, clusters are written in the same order), but
    /// from the rows in memory instead of read back, one group at a time, with the R-tree
    /// packed at the end. nil when the store is not in that state.
    func deriveIntoEmptyStore(rule: EntryRule, batches: [(dataset: String, records: [SourceRecord])]) throws -> MergeSummary? {
        guard derivesEmptyStoreFromMemory, !batches.isEmpty, Set(batches.map(\.dataset)).count == batches.count else { return nil }
        let total = batches.reduce(0) { $0 + $1.records.count }
        guard try db.scalarInt("SELECT EXISTS (SELECT 1 FROM stations)") == 0,
              try db.scalarInt("SELECT EXISTS (SELECT 1 FROM station_aliases)") == 0,
              try db.scalarInt("SELECT count(*) FROM source_records") == Int64(total) else { return nil }
        // The rows in `ORDER BY dataset, ord` order, as `sourceRecords()` reads them.
        let sets = batches.map(\.records).enumerated().sorted {
            batches[$0.offset].dataset.utf8.lexicographicallyPrecedes(batches[$1.offset].dataset.utf8)
        }.map(\.element)
        struct Item {
            var base: String
            var op: String
            var set: Int32
            var index: Int32
        }
        var trace = PhaseTrace()
        var items: [Item] = []
        items.reserveCapacity(total)
        struct OperatorKey: Hashable { var name: String?; var ref: String?; var closed: Bool }
        var ids: [OperatorKey: String] = [:]     // one operator look-up per distinct operator
        for (si, records) in sets.enumerated() {
            for (i, r) in records.enumerated() {
                let ok = OperatorKey(name: r.operatorName, ref: r.operatorRef, closed: r.isClosed)
                let op = ids[ok] ?? { let v = rule.operatorID(r); ids[ok] = v; return v }()
                let base = StationKey.base(operatorKey: op, serviceClass: r.serviceClass, nameKey: TextFold.nameKey(r.name))
                items.append(Item(base: base, op: op, set: Int32(si), index: Int32(i)))
            }
        }
        // Group order: by base key (as `clusters(from:)` sorts its output), then operator id;
        // inside a group the rule's row order, ties in input order (a stable sort's result).
        trace.mark("group keys")
        items.sort { a, b in
            if a.base != b.base { return a.base < b.base }
            if a.op != b.op { return a.op < b.op }
            return (a.set, a.index) < (b.set, b.index)
        }
        trace.mark("sort")
        let bulk = spatialIndexBuild.packs(changedRows: total, totalRows: total)
        if bulk { try dropSpatialIndexTriggers() }
        let insert = try db.prepare(Self.insertStationSQL)
        // Keys containing `@` (the place suffix, or a base that has one) are the only ones two
        // groups can both claim; `taken` holds those, which is what the general path's set of
        // every key amounts to here.
        var taken = Set<String>()
        var fidOf = sets.map { [Int64](repeating: 0, count: $0.count) }
        var summary = MergeSummary()
        var start = 0
        while start < items.count {
            var end = start + 1
            while end < items.count && items[end].base == items[start].base { end += 1 }
            let base = items[start].base
            var clusters: [(station: Station, rows: [(set: Int32, index: Int32)])] = []
            var g = start
            while g < end {
                var h = g + 1
                while h < end && items[h].op == items[g].op { h += 1 }
                var rows = items[g..<h].map { (set: $0.set, index: $0.index) }
                if rows.count > 1 {
                    rows.sort { a, b in
                        let ra = sets[Int(a.set)][Int(a.index)], rb = sets[Int(b.set)][Int(b.index)]
                        if rule.rowOrder(ra, rb) { return true }
                        if rule.rowOrder(rb, ra) { return false }
                        return (a.set, a.index) < (b.set, b.index)
                    }
                }
                let records = rows.map { sets[Int($0.set)][Int($0.index)] }
                for members in rule.clusterIndices(records) {
                    var station = rule.build(from: members.map { records[$0] })
                    station.operatorID = items[g].op
                    clusters.append((station, members.map { rows[$0] }))
                }
                g = h
            }
            let none = SourceRef(dataset: "", id: "")
            if clusters.count > 1 { clusters.sort { ($0.station.sources.first ?? none) < ($1.station.sources.first ?? none) } }
            var stations = clusters.map(\.station)
            if stations.count == 1 && !taken.contains(base) {
                stations[0].key = base
            } else {
                StationKey.assign(base: base, to: &stations, forcePlace: true, avoiding: taken)
            }
            for (s, c) in zip(stations, clusters) {
                if s.key.utf8.contains(UInt8(ascii: "@")) { taken.insert(s.key) }
                Self.bind(s, base: base, to: insert)
                try insert.runBound()
                let fid = db.lastInsertRowID
                for r in c.rows { fidOf[Int(r.set)][Int(r.index)] = fid }
                summary.added += 1
            }
            start = end
        }
        items = []
        trace.mark("cluster and write entries")
        // Which rows make each entry, in the primary key's order.
        var order: [(set: Int32, index: Int32)] = []
        order.reserveCapacity(total)
        for (si, records) in sets.enumerated() { for i in records.indices { order.append((Int32(si), Int32(i))) } }
        order.sort { a, b in
            let x = sets[Int(a.set)][Int(a.index)].source, y = sets[Int(b.set)][Int(b.index)].source
            if x.dataset != y.dataset { return utf8Less(x.dataset, y.dataset) }
            if x.id != y.id { return utf8Less(x.id, y.id) }
            return fidOf[Int(a.set)][Int(a.index)] < fidOf[Int(b.set)][Int(b.index)]
        }
        try writeStationSources(count: order.count) { i in
            let o = order[i]
            return (fidOf[Int(o.set)][Int(o.index)], sets[Int(o.set)][Int(o.index)].source)
        }
        trace.mark("write station_sources")
        if bulk { try rebuildSpatialIndex(); try createSpatialIndexTriggers() }
        trace.mark("pack R-tree")
        try updateExtent()
        return summary
    }

    /// Writes the extent of all entries into gpkg_contents (informative in GeoPackage).
    func updateExtent() throws {
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
