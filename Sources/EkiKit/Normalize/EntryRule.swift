/// The 降りつぶし entry rule (降りつぶし.net): an entry is one operator × one service class
/// (Shinkansen | conventional) × one place.
///
/// Source rows with the same operator (`TextFold.operatorKey`), the same class and the same name
/// (`TextFold.nameKey`) lying within `linkDistance` metres of one another, single-link (a chain
/// of rows each within the distance of the next), form one entry carrying all their lines. So
/// 大宮's 東北新幹線 and 上越新幹線 rows are one JR東日本 Shinkansen entry, and 東京's 京葉線 rows
/// join JR東日本's other conventional lines at 東京.
///
/// The result does not depend on row order: rows are sorted by source reference before
/// anything is taken from them, and entries are returned sorted by key.
public struct EntryRule: Sendable {
    /// Single-link distance, metres (1.5 km by default, the 降りつぶし.net rule of thumb for one
    /// station whose platforms lie apart).
    public var linkDistance: Double

    public init(linkDistance: Double = 1_500) {
        self.linkDistance = linkDistance
    }

    /// The group a row belongs to before clustering by place.
    struct GroupKey: Hashable {
        var operatorKey: String
        var serviceClass: ServiceClass
        var nameKey: String
    }

    /// Clusters `records` into entries. Every record ends up in exactly one entry.
    public func entries(from records: [SourceRecord]) -> [Station] {
        var groups: [GroupKey: [SourceRecord]] = [:]
        for r in records {
            let k = GroupKey(operatorKey: r.operatorName.map(TextFold.operatorKey) ?? "",
                             serviceClass: r.serviceClass, nameKey: TextFold.nameKey(r.name))
            groups[k, default: []].append(r)
        }
        var result: [Station] = []
        result.reserveCapacity(groups.count)
        for (key, rows) in groups {
            let sorted = rows.sorted { $0.source < $1.source }
            let clusters = cluster(sorted)
            var built = clusters.map { build(from: $0) }
            let baseKey = StationKey.base(operatorKey: key.operatorKey, serviceClass: key.serviceClass,
                                          nameKey: key.nameKey)
            StationKey.assign(base: baseKey, to: &built)
            result.append(contentsOf: built)
        }
        result.sort { $0.key < $1.key }
        return result
    }

    /// Single-link clusters of rows (already sorted), each cluster in row order.
    func cluster(_ rows: [SourceRecord]) -> [[SourceRecord]] {
        if rows.count == 1 { return [rows] }
        // Union-find over all pairs: groups are small (one operator's rows of one name).
        var parent = Array(rows.indices)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for i in rows.indices {
            for j in (i + 1)..<rows.count where find(i) != find(j) {
                if Geodesic.distance(rows[i].coordinate, rows[j].coordinate) <= linkDistance {
                    parent[find(j)] = find(i)
                }
            }
        }
        var byRoot: [Int: [SourceRecord]] = [:]
        var order: [Int] = []
        for i in rows.indices {
            let r = find(i)
            if byRoot[r] == nil { order.append(r) }
            byRoot[r, default: []].append(rows[i])
        }
        return order.map { byRoot[$0]! }
    }

    /// One entry from the rows of one cluster (sorted by source reference).
    func build(from rows: [SourceRecord]) -> Station {
        let first = rows[0]
        var lines: [String] = []
        var seenLines = Set<String>()
        var sumLat = 0.0, sumLon = 0.0
        var sources: [SourceRef] = []
        var seenSources = Set<SourceRef>()
        for r in rows {
            for l in r.lines where seenLines.insert(l).inserted { lines.append(l) }
            sumLat += r.coordinate.lat
            sumLon += r.coordinate.lon
            if seenSources.insert(r.source).inserted { sources.append(r.source) }
        }
        let n = Double(rows.count)
        return Station(
            key: "",
            name: first.name,
            reading: rows.lazy.compactMap(\.reading).first,
            latinName: rows.lazy.compactMap(\.latinName).first,
            operatorName: first.operatorName,
            operatorRef: rows.lazy.compactMap(\.operatorRef).first,
            serviceClass: first.serviceClass,
            lines: lines,
            prefecture: rows.lazy.compactMap(\.prefecture).first,
            coordinate: Coordinate(lat: sumLat / n, lon: sumLon / n),
            sources: sources.sorted(),
            isOpen: rows.contains { !$0.isClosed })
    }
}
