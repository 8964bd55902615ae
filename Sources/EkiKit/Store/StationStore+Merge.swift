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
            // Columns shift by two: read the station through a view of the remaining columns.
            let st = Station(key: s.text(2), name: s.text(3), reading: s.optionalText(4), latinName: s.optionalText(5),
                             operatorName: s.optionalText(6), operatorRef: s.optionalText(7),
                             serviceClass: ServiceClass(rawValue: s.text(8)) ?? .conventional,
                             lines: JSONText.decodeStrings(s.text(9)), prefecture: s.optionalText(10),
                             coordinate: Coordinate(lat: s.double(13), lon: s.double(12)), sources: [],
                             isOpen: s.int64(11) != 0, formerNames: JSONText.decodeStrings(s.text(15)),
                             retired: s.optionalText(16))
            out.append(Existing(fid: s.int64(0), key: st.key, baseKey: s.text(1), station: st))
        }
        let refs = try db.prepare("SELECT station_fid, dataset, source_id FROM station_sources")
        var byFid: [Int64: [SourceRef]] = [:]
        while try refs.step() { byFid[refs.int64(0), default: []].append(SourceRef(dataset: refs.text(1), id: refs.text(2))) }
        for i in out.indices { out[i].station.sources = (byFid[out[i].fid] ?? []).sorted() }
        return out
    }

    func rederive(rule: EntryRule, today: String) throws -> MergeSummary {
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
        var newByBase: [String: [Int]] = [:]
        for ci in clusters.indices where entryOf[ci] == nil { newByBase[clusters[ci].baseKey, default: []].append(ci) }
        var newKey: [Int: String] = [:]
        for (base, members) in newByBase {
            var stations = members.map { clusters[$0].station }
            if stations.count == 1 && !taken.contains(base) {
                stations[0].key = base
            } else {
                StationKey.assign(base: base, to: &stations, forcePlace: true, avoiding: taken)
            }
            for (ci, s) in zip(members, stations) { newKey[ci] = s.key; taken.insert(s.key) }
        }

        // Write.
        let insert = try db.prepare("""
            INSERT INTO stations (geom, key, base_key, name, reading, latin_name, operator, operator_ref, class,
                                  lines, prefecture, open, lon, lat, sources, former_names, retired)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        let update = try db.prepare("""
            UPDATE stations SET geom = ?, key = ?, base_key = ?, name = ?, reading = ?, latin_name = ?, operator = ?,
              operator_ref = ?, class = ?, lines = ?, prefecture = ?, open = ?, lon = ?, lat = ?, sources = ?,
              former_names = ?, retired = ? WHERE fid = ?
            """)
        func values(_ s: Station, base: String) -> [SQLValue] {
            [.blob(GeoPackage.pointBlob(lon: s.coordinate.lon, lat: s.coordinate.lat)), .text(s.key), .text(base),
             .text(s.name), s.reading.map(SQLValue.text) ?? .null, s.latinName.map(SQLValue.text) ?? .null,
             s.operatorName.map(SQLValue.text) ?? .null, s.operatorRef.map(SQLValue.text) ?? .null,
             .text(s.serviceClass.rawValue), .text(JSONText.encodeStrings(s.lines)), s.prefecture.map(SQLValue.text) ?? .null,
             .int(s.isOpen ? 1 : 0), .double(s.coordinate.lon), .double(s.coordinate.lat),
             .text(JSONText.encodeStrings(s.sources.map(\.description))), .text(JSONText.encodeStrings(s.formerNames)),
             s.retired.map(SQLValue.text) ?? .null]
        }
        var fidOfCluster = [Int64](repeating: 0, count: clusters.count)
        for (ci, c) in clusters.enumerated() {
            var s = c.station
            if let ei = entryOf[ci] {
                let old = existing[ei]
                s.key = old.key
                s.formerNames = old.station.formerNames
                if old.station.name != s.name && !s.formerNames.contains(old.station.name) { s.formerNames.append(old.station.name) }
                s.formerNames.removeAll { $0 == s.name }
                if s == old.station && c.baseKey == old.baseKey {
                    summary.unchanged += 1
                } else {
                    try update.run(values(s, base: c.baseKey) + [.int(old.fid)])
                    summary.updated += 1
                }
                fidOfCluster[ci] = old.fid
            } else {
                s.key = newKey[ci]!
                try insert.run(values(s, base: c.baseKey))
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
        let insertSource = try db.prepare("INSERT OR IGNORE INTO station_sources (station_fid, dataset, source_id) VALUES (?,?,?)")
        for (ci, c) in clusters.enumerated() {
            for ref in c.station.sources { try insertSource.run([.int(fidOfCluster[ci]), .text(ref.dataset), .text(ref.id)]) }
        }
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
