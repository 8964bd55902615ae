/// The 降りつぶし entry rule (降りつぶし.net): an entry is one operator × one service class
/// (Shinkansen | conventional) × one place.
///
/// Source rows with the same operator (`operatorID`), the same class and the same name
/// (`TextFold.nameKey`) lying within `linkDistance` metres of one another, single-link (a chain
/// of rows each within the distance of the next), form one entry carrying all their lines. So
/// 大宮's 東北新幹線 and 上越新幹線 rows are one JR東日本 Shinkansen entry, and 東京's 京葉線 rows
/// join JR東日本's other conventional lines at 東京. Rows from different datasets join the same
/// way, so 東京 from N02 and from station_database is still four entries.
///
/// What an entry shows when its rows disagree follows `sourcePriority` (`SourcePriority`):
/// name, operator name and point come from the rows of the highest-priority dataset present;
/// reading, Latin name and prefecture from the first dataset (in priority order) that has one;
/// lines are the union.
/// The result does not depend on row order: rows are sorted before anything is taken from them.
public struct EntryRule: Sendable {
    /// Single-link distance, metres (1.5 km by default, the 降りつぶし.net rule of thumb for one
    /// station whose platforms lie apart).
    public var linkDistance: Double
    /// The datasets from most to least trusted for names and points (`SourcePriority.default`
    /// unless given). One value for both stages: it is the reconciler's (`reconciler`, which
    /// unifies names by it), so setting either sets both.
    public var sourcePriority: SourcePriority {
        get { reconciler.sourcePriority }
        set { reconciler.sourcePriority = newValue }
    }
    /// Datasets that record closures (closed stations and lines). When an entry has rows from
    /// any of them, only those rows decide whether it is open: N02-23, a 2023 snapshot, lists
    /// stations station_database knows have closed since.
    public var closureDatasets: Set<String>
    /// Maps a row to its operator's id: the operator table's id (`jr-east`) when the table
    /// knows the operator, else the folded operator name (`TextFold.operatorKey`), `-` when the
    /// row has none.
    public var operatorID: @Sendable (SourceRecord) -> String
    /// The stage that decides what the sources disagree on before rows are clustered
    /// (`SourceReconciler`); the store runs it on every re-derivation. `entries(from:)` and
    /// `clusters(from:)` take rows as given (call `reconciler.reconcile` first to get the
    /// store's entries).
    public var reconciler: SourceReconciler

    /// - Parameters:
    ///   - sourcePriority: the trust order of both stages; it replaces the given `reconciler`'s.
    ///   - operators: the operator table rows are resolved against (`operatorID`):
    ///     a row's operator reference (GTFS-JP agency_id → 法人番号) first, then its operator name;
    ///     an operator the table does not know keeps its folded name as its id.
    public init(linkDistance: Double = 1_500, sourcePriority: SourcePriority = .default,
                closureDatasets: Set<String> = ["station-database", "ekidata"],
                operators: OperatorTable = .builtIn, reconciler: SourceReconciler? = nil) {
        self.reconciler = reconciler ?? SourceReconciler(operators: operators)
        self.reconciler.sourcePriority = sourcePriority
        self.linkDistance = linkDistance
        self.closureDatasets = closureDatasets
        self.operatorID = { r in
            // Open rows of a former operator belong to its successor today (N02-23 lists 新京成電鉄,
            // merged into 京成電鉄 in 2025); closed rows keep the operator they closed under.
            let follow = !r.isClosed
            if let ref = r.operatorRef, let op = operators.resolve(ref, followSuccessors: follow) { return op.id }
            if let name = r.operatorName, let op = operators.resolve(name, followSuccessors: follow) { return op.id }
            return EntryRule.foldedOperator(r)
        }
    }

    /// The folded operator name, `-` when there is none.
    public static let foldedOperator: @Sendable (SourceRecord) -> String = { r in
        r.operatorName.map(TextFold.operatorKey).flatMap { $0.isEmpty ? nil : $0 } ?? "-"
    }

    /// An entry before it has a key: its rows and what they show.
    public struct Cluster: Sendable {
        /// `<operator id>/<c|s>/<name key>`.
        public var baseKey: String
        public var station: Station
    }

    /// Clusters `records` into entries with keys (see `StationKey`). Every record ends up in
    /// exactly one entry. Entries are sorted by key.
    public func entries(from records: [SourceRecord]) -> [Station] {
        var byBase: [String: [Station]] = [:]
        for c in clusters(from: records) { byBase[c.baseKey, default: []].append(c.station) }
        var result: [Station] = []
        for (base, var stations) in byBase {
            StationKey.assign(base: base, to: &stations)
            result.append(contentsOf: stations)
        }
        return result.sorted { $0.key < $1.key }
    }

    /// Clusters `records` into keyless entries: sorted by base key, then by first source row.
    /// Every record ends up in exactly one entry; the result does not depend on their order.
    ///
    /// Rows are grouped by sorting (operator id, class and folded name make the base key), each
    /// group's rows are put in `rowOrder` and split by place (`SingleLink`, `linkDistance`).
    public func clusters(from records: [SourceRecord]) -> [Cluster] {
        clusters(fromSegments: [records])
    }

    /// `clusters(from:)` over the concatenation of `segments` (batches kept as they are, not
    /// copied into one array).
    func clusters(fromSegments segments: [[SourceRecord]]) -> [Cluster] {
        var result: [Cluster] = []
        forEachBaseRun(segments) { run, _ in result.append(contentsOf: run) }
        return result
    }

    /// Where a source row is: `segments[set][index]`.
    typealias RowPosition = (set: Int32, index: Int32)

    /// The clusters of `clusters(fromSegments:)`, one base-key run at a time and in the same
    /// order, each cluster with the positions of its rows (in `rowOrder`): `body(run, rows)`,
    /// `rows[i]` the rows of `run[i]`. Only one run's clusters are held at a time.
    func forEachBaseRun(_ segments: [[SourceRecord]],
                        _ body: (_ run: [Cluster], _ rows: [[RowPosition]]) throws -> Void) rethrows {
        struct Item {
            var base: String
            var op: String
            var set: Int32
            var index: Int32
        }
        struct OperatorKey: Hashable { var name: String?; var ref: String?; var closed: Bool }
        var ids: [OperatorKey: String] = [:]     // one table look-up per distinct operator
        var items: [Item] = []
        items.reserveCapacity(segments.reduce(0) { $0 + $1.count })
        for (si, records) in segments.enumerated() {
            for (i, r) in records.enumerated() {
                let ok = OperatorKey(name: r.operatorName, ref: r.operatorRef, closed: r.isClosed)
                let op = ids[ok] ?? { let v = operatorID(r); ids[ok] = v; return v }()
                let base = StationKey.base(operatorKey: op, serviceClass: r.serviceClass, nameKey: TextFold.nameKey(r.name))
                items.append(Item(base: base, op: op, set: Int32(si), index: Int32(i)))
            }
        }
        items.sort { a, b in
            if a.base != b.base { return a.base < b.base }
            if a.op != b.op { return a.op < b.op }
            return (a.set, a.index) < (b.set, b.index)
        }
        let none = SourceRef(dataset: "", id: "")
        var run: [(cluster: Cluster, rows: [RowPosition])] = []
        var start = 0
        while start < items.count {
            var end = start + 1
            while end < items.count && items[end].base == items[start].base { end += 1 }
            run.removeAll(keepingCapacity: true)
            var g = start
            while g < end {
                var h = g + 1
                while h < end && items[h].op == items[g].op { h += 1 }
                var positions = items[g..<h].map { (set: $0.set, index: $0.index) }
                var group = positions.map { segments[Int($0.set)][Int($0.index)] }
                if group.count > 1 {
                    // `rowOrder`, ties in input order (the items are in input order).
                    var order = Array(group.indices)
                    order.sort { a, b in
                        if rowOrder(group[a], group[b]) { return true }
                        if rowOrder(group[b], group[a]) { return false }
                        return a < b
                    }
                    group = order.map { group[$0] }
                    positions = order.map { positions[$0] }
                }
                for members in SingleLink.clusters(group.map(\.coordinate), within: linkDistance) {
                    var station = build(from: members.map { group[$0] })
                    station.operatorID = items[g].op
                    run.append((Cluster(baseKey: items[start].base, station: station), members.map { positions[$0] }))
                }
                g = h
            }
            if run.count > 1 {
                run.sort { ($0.cluster.station.sources.first ?? none) < ($1.cluster.station.sources.first ?? none) }
            }
            try body(run.map(\.cluster), run.map(\.rows))
            start = end
        }
    }

    /// The rank of a dataset in `sourcePriority` (lower is more trusted).
    public func rank(_ dataset: String) -> Int { sourcePriority.rank(dataset) }

    func rowOrder(_ a: SourceRecord, _ b: SourceRecord) -> Bool {
        let ra = rank(a.source.dataset), rb = rank(b.source.dataset)
        if ra != rb { return ra < rb }
        if a.source != b.source { return a.source < b.source }
        return (a.lines.first ?? "", a.coordinate.lat, a.coordinate.lon) < (b.lines.first ?? "", b.coordinate.lat, b.coordinate.lon)
    }

    /// One entry from the rows of one cluster (sorted by `rowOrder`).
    func build(from rows: [SourceRecord]) -> Station {
        let first = rows[0]
        let topRank = rank(first.source.dataset)
        var lines: [String] = []
        var seenLines = Set<String>()
        var sumLat = 0.0, sumLon = 0.0, n = 0.0
        var sources = Set<SourceRef>()
        for r in rows {
            for l in r.lines where seenLines.insert(l).inserted { lines.append(l) }
            if rank(r.source.dataset) == topRank {
                sumLat += r.coordinate.lat
                sumLon += r.coordinate.lon
                n += 1
            }
            sources.insert(r.source)
        }
        let isOpen = Self.isOpen(rows, closureDatasets: closureDatasets)
        if isOpen { lines = Self.openLines(rows, closureDatasets: closureDatasets) ?? lines }
        var point = Coordinate(lat: sumLat / n, lon: sumLon / n)
        if let moved = Self.movedPoint(rows, from: point, closureDatasets: closureDatasets) { point = moved }
        var aliases: [String] = []
        for r in rows { for a in r.aliases where a != first.name && !aliases.contains(a) { aliases.append(a) } }
        return Station(
            key: "",
            name: first.name,
            reading: rows.lazy.compactMap(\.reading).first,
            latinName: rows.lazy.compactMap(\.latinName).first,
            operatorName: first.operatorName ?? rows.lazy.compactMap(\.operatorName).first,
            operatorRef: rows.lazy.compactMap(\.operatorRef).first,
            serviceClass: first.serviceClass,
            lines: lines,
            prefecture: rows.lazy.compactMap(\.prefecture).first,
            coordinate: point,
            sources: sources.sorted(),
            isOpen: isOpen,
            formerNames: aliases.sorted(),
            kind: rows.lazy.map(\.kind).max() ?? .regular)
    }

    /// The lines an open entry lists: those of its open rows, less a line a row of a dataset
    /// that records closures gives as closed here (青い森鉄道 八戸's JR東北本線(八戸～青森),
    /// 三陸鉄道's 北/南リアス線) and no open row of such a dataset keeps; nil when that leaves none.
    static func openLines(_ rows: [SourceRecord], closureDatasets: Set<String>) -> [String]? {
        let closure = rows.filter { closureDatasets.contains($0.source.dataset) }
        let openKeys = closure.filter { !$0.isClosed }.flatMap { $0.lines.map(LineKey.fold) }
        let closedKeys = closure.filter(\.isClosed).flatMap { $0.lines.map(LineKey.fold) }
            .filter { k in !openKeys.contains { LineKey.matches(k, $0) } }
        var out: [String] = []
        for r in rows where !r.isClosed {
            for l in r.lines where !out.contains(l) {
                let k = LineKey.fold(l)
                if !closureDatasets.contains(r.source.dataset), closedKeys.contains(where: { LineKey.matches(k, $0) }) { continue }
                out.append(l)
            }
        }
        return out.isEmpty ? nil : out
    }

    /// How far the open rows of a dataset that records closures may place an entry from the
    /// most trusted rows' point before the entry takes theirs: a station moved or rebuilt since
    /// the older snapshot (名鉄 三河知立: station_database places it 949 m east of N02-23's
    /// point). Otherwise the widest gap between N02-23's and station_database's point of one
    /// entry is 427 m (大手町: a long platform's middle against the station's point).
    public static let movedStationDistance: Double = 700

    /// The point of the open rows of the closure datasets (`closureDatasets`: kept up to date)
    /// when they lie more than `movedStationDistance` metres from `point` and agree among
    /// themselves, else nil.
    static func movedPoint(_ rows: [SourceRecord], from point: Coordinate, closureDatasets: Set<String>) -> Coordinate? {
        let newer = rows.filter { closureDatasets.contains($0.source.dataset) && !$0.isClosed }
        guard !newer.isEmpty, newer.count < rows.count else { return nil }
        let lat = newer.reduce(0) { $0 + $1.coordinate.lat } / Double(newer.count)
        let lon = newer.reduce(0) { $0 + $1.coordinate.lon } / Double(newer.count)
        let mean = Coordinate(lat: lat, lon: lon)
        guard Geodesic.distance(valid: point, mean) > movedStationDistance,
              newer.allSatisfy({ Geodesic.distance(valid: $0.coordinate, mean) <= movedStationDistance / 2 }) else { return nil }
        return mean
    }

    /// Open/closed decided per row, then per entry: the entry is open when one of its rows is.
    /// A row of a dataset that records closures (`closureDatasets`) is as it says. Another
    /// row (N02-23, a 2023 snapshot) is closed when the closure datasets have this place on
    /// the same line (`LineKey.matches`) and all those rows are closed; a closed row of another
    /// line at the same place does not close it (富山's 高山線 row stays open beside
    /// station_database's closed JR北陸本線 row).
    static func isOpen(_ rows: [SourceRecord], closureDatasets: Set<String>) -> Bool {
        let closureRows = rows.filter { closureDatasets.contains($0.source.dataset) }
        if closureRows.isEmpty { return rows.contains { !$0.isClosed } }
        if closureRows.contains(where: { !$0.isClosed }) { return true }
        let closedKeys = closureRows.flatMap { $0.lines.map(LineKey.fold) }
        return rows.contains { r in
            guard !r.isClosed, !closureDatasets.contains(r.source.dataset) else { return false }
            return !r.lines.contains { l in
                let k = LineKey.fold(l)
                return closedKeys.contains { LineKey.matches(k, $0) }
            }
        }
    }
}
