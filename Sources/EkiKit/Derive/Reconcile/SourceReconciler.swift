import Foundation

/// The stage between the stored source rows and the entry rule: turns every stored row into a
/// reconciled row, deciding what the sources disagree on, before `EntryRule` clusters them.
///
/// It maps rows one to one (same segments, same positions), so every row still ends up in
/// exactly one entry and `station_sources` still names the row as the source gave it; only the
/// values the entry rule reads change. A row's original values stay in `source_records`.
/// The rules, in order (one file each):
/// 0. `splitReadings` — a reading with bracketed alternatives (`さいいん(さい)`) keeps the one
///    outside the brackets for now, all of them for rule 8.
/// 1. `missingOperators` — a row without a company takes it from its line's name
///    (`ハピラインふくい線` → ハピラインふくい) or from a row of another source of the same name
///    and class on a matching line (`LineKey.matches`) within `matchDistance`.
/// 2. `operatorsByStation` — an open row of a per-line dataset (`perLineDatasets`: the company
///    is the line's, for its whole length) takes the operator of the per-station dataset's
///    rows (`perStationDatasets`: N02 names the operator of each station) of the same name,
///    class and matching line within `matchDistance`, when none of them is its own operator
///    (北陸新幹線 金沢 in station_database: JR東日本 → N02's JR西日本); of several, the one
///    found at the most stations of the row's line (新開地 on 神戸高速東西線: 阪神, not 神戸電鉄).
/// 3. `curatedSections` — an open row in a section of `OperatorSections` takes that operator
///    (what no source has right: 北陸新幹線 小松–敦賀 since 2024, the 北陸本線 transfers).
/// 4. `fillAttributes` — a row without a reading or prefecture takes it from the nearest row
///    of the same name within `attributeDistance` (any operator); a prefecture still missing
///    comes from the point (`PrefectureBoundaries`).
/// 5. `unifyClasses` — one station two sources put in two classes (ガーラ湯沢) takes one.
/// 6. `unifyNames` — renames after an older dataset's edition, then name variants of one
///    operator and class close together, take one name; the others become the rows' aliases.
///    `applySpellings` — rows listed in `StationNames` show the operator's spelling (市ケ谷 of
///    JR東日本 where station_database gives `市ケ谷(市ヶ谷)`).
/// 7. `applyKinds` — rows listed in `StationKinds` (staff-only stops, seasonal 臨時駅) take
///    their kind. `applyStatuses` — rows listed in `StationStatuses` as abolished or
///    converted to BRT are closed (スカイレール, 日田彦山線 添田–夜明, 室堂).
/// 8. `chooseReadings` — each row shows its own reading: the operator's from `StationReadings`
///    (京福 西院 さい), else the alternative paired with the name it shows (阪急 神戸三宮:
///    こうべさんのみや); the other readings become the row's aliases (searchable).
///
/// Deterministic and independent of row order: every choice among candidates takes the
/// nearest, ties broken by dataset, then source id. Cross-source look-ups go through a grid
/// keyed by folded name (`RowGrid`): O(n) look-ups after O(n log n) set-up.
public struct SourceReconciler: Sendable {
    public var operators: OperatorTable
    public var sections: OperatorSections
    /// Datasets naming the operator of each station (their operator decides where they have
    /// the station). Default: `n02`.
    public var perStationDatasets: Set<String>
    /// Datasets naming one company per line. Default: `station-database`, `ekidata`.
    public var perLineDatasets: Set<String>
    /// How far apart two rows of one station may lie for operator decisions, metres (1 km:
    /// N02's platform centroid against a hand-placed point).
    public var matchDistance: Double
    /// How far a reading or prefecture is carried between rows of one name, metres (1.5 km,
    /// the entry rule's link distance).
    public var attributeDistance: Double
    /// Prefecture polygons for rows no source gives one; nil leaves them without.
    public var boundaries: PrefectureBoundaries?
    /// How far apart two rows of one operator and class may lie and still be one station
    /// written differently, metres (300: the pairs seen lie 2–209 m apart).
    public var variantDistance: Double
    /// For a dataset, the datasets whose editions are older (a newer dataset's name for a
    /// station is a rename, not another station). Default: station_database (updated
    /// continuously) is newer than N02-23.
    public var olderDatasets: [String: Set<String>]
    /// Dataset trust order for names: the entry rule's (`EntryRule.sourcePriority` sets it).
    public var sourcePriority: SourcePriority
    /// Curated kinds of stop (`StationKinds`; default the built-in table).
    public var kinds: StationKinds
    /// Curated statuses of stops (`StationStatuses`; default the built-in table).
    public var statuses: StationStatuses
    /// Curated readings by operator (`StationReadings`; default the built-in table).
    public var readings: StationReadings
    /// Curated spellings by operator (`StationNames`; default the built-in table).
    public var names: StationNames

    public init(operators: OperatorTable = .builtIn, sections: OperatorSections = .builtIn,
                kinds: StationKinds = .builtIn, statuses: StationStatuses = .builtIn, readings: StationReadings = .builtIn,
                names: StationNames = .builtIn,
                perStationDatasets: Set<String> = ["n02"],
                perLineDatasets: Set<String> = ["station-database", "ekidata"],
                matchDistance: Double = 1_000, attributeDistance: Double = 1_500,
                boundaries: PrefectureBoundaries? = .builtIn, variantDistance: Double = 300,
                olderDatasets: [String: Set<String>] = ["station-database": ["n02"]],
                sourcePriority: SourcePriority = .default) {
        self.variantDistance = variantDistance
        self.kinds = kinds
        self.statuses = statuses
        self.readings = readings
        self.names = names
        self.olderDatasets = olderDatasets
        self.sourcePriority = sourcePriority
        self.operators = operators
        self.sections = sections
        self.perStationDatasets = perStationDatasets
        self.perLineDatasets = perLineDatasets
        self.matchDistance = matchDistance
        self.attributeDistance = attributeDistance
        self.boundaries = boundaries
    }

    /// What kind of disagreement a decision settled.
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        case missingOperator = "missing operator"
        case operatorByStation = "operator by station"
        case curatedSection = "operator by curated section"
        case reading = "reading from a row nearby"
        case readingShown = "reading by operator or name"
        case prefecture = "prefecture from a row nearby"
        case prefectureFromPoint = "prefecture from the point"
        case serviceClass = "one station in two classes"
        case renamed = "renamed after an older edition"
        case nameVariant = "name variant"
        case spelling = "spelling as written today"
        case unresolvedOperator = "no operator known"
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// One decision about one row.
    public struct Decision: Sendable, Hashable {
        public var kind: Kind
        public var row: SourceRef
        public var name: String
        public var line: String
        /// The value before and after (operator name, reading, prefecture); `-` for none.
        public var before: String
        public var after: String
    }

    /// The decisions of one run: counts per kind, and the operator decisions themselves (the
    /// attribute fills are only counted: on a large import they are one per row).
    public struct Report: Sendable {
        /// Decisions per kind.
        public var counts: [Kind: Int] = [:]
        /// The operator decisions (missing, by station, by curated section, unresolved), in rule
        /// then row order.
        public var decisions: [Decision] = []
        /// What could not be decided (rows still without an operator).
        public var unresolved: [Decision] { decisions.filter { $0.kind == .unresolvedOperator } }

        mutating func add(_ d: Decision) {
            counts[d.kind, default: 0] += 1
            decisions.append(d)
        }
    }

    /// Reconciles `segments` (the stored rows, in any order): the same shape back, each row
    /// with its reconciled values, and the decisions taken.
    /// One segment whose rows the caller no longer holds (`consume`) is reconciled in place.
    public func reconcile(_ segments: consuming [[SourceRecord]]) -> (segments: [[SourceRecord]], report: Report) {
        let sizes = segments.map(\.count)
        var rows: [SourceRecord] = []
        if segments.count == 1 {
            rows = segments[0]
        } else {
            rows.reserveCapacity(sizes.reduce(0, +))
            for s in segments { rows.append(contentsOf: s) }
        }
        segments = []
        var report = Report()
        // The context owns the only copy of the rows (the local array is emptied first, so the
        // rules' writes do not copy all of them once more), and its look-up tables are freed
        // before the rows are handed back.
        let reconciled: [SourceRecord] = {
            var ctx = Context(rows: rows)
            rows = []
            splitReadings(&ctx)
            missingOperators(&ctx, &report)
            operatorsByStation(&ctx, &report)
            curatedSections(&ctx, &report)
            fillAttributes(&ctx, &report)
            unifyClasses(&ctx, &report)
            unifyNames(&ctx, &report)
            applySpellings(&ctx, &report)
            applyKinds(&ctx)
            applyStatuses(&ctx)
            chooseReadings(&ctx, &report)
            return ctx.rows
        }()
        if sizes.count == 1 { return ([reconciled], report) }
        var out: [[SourceRecord]] = []
        var at = 0
        for n in sizes {
            out.append(Array(reconciled[at..<(at + n)]))
            at += n
        }
        return (out, report)
    }

    /// Rows with what the rules look up, computed once.
    struct Context {
        var rows: [SourceRecord]
        /// `TextFold.nameKey` of each row's name as it came in (see `nameKey(_:)` for the
        /// current one).
        let nameKeys: [String]
        /// `looseKey` of each row's name as it came in, where it differs from `nameKeys` (most
        /// names are their own loose form: no array of them all is kept).
        private let looseOverrides: [Int: String]
        /// The folded line keys of each row: an index into `lineKeySets` (rows on the same
        /// lines share one set).
        private let lineKeyIndex: [Int32]
        private let lineKeySets: [[String]]
        /// Rows by `nameKey`, and by `looseKey`.
        let grid: RowGrid<String>
        let looseGrid: RowGrid<String>
        /// For rows whose reading had bracketed alternatives (rule 0): every reading, with the
        /// folded part of the name it goes with when the name has as many parts.
        var readingParts: [Int: [(name: String?, reading: String)]] = [:]
        /// Rows whose name a rule changed (`nameKeys` holds the key of the name before).
        var renamed: Set<Int> = []

        init(rows: [SourceRecord]) {
            self.rows = rows
            var names: [String] = []
            var overrides: [Int: String] = [:]
            var lineIndex: [Int32] = []
            var lineSets: [[String]] = []
            var lg = RowGrid<String>()
            names.reserveCapacity(rows.count)
            lineIndex.reserveCapacity(rows.count)
            var folded: [String: [String]] = [:]
            var setIndex: [[String]: Int32] = [:]
            var g = RowGrid<String>()
            for (i, r) in rows.enumerated() {
                let k = TextFold.nameKey(r.name)
                names.append(k)
                let lk = SourceReconciler.looseKey(nameKey: k)
                if lk != k { overrides[i] = lk }
                if let at = setIndex[r.lines] {
                    lineIndex.append(at)
                } else {
                    let keys = r.lines.flatMap { l in folded[l] ?? { let v = LineKey.keys(l); folded[l] = v; return v }() }
                    let at = Int32(lineSets.count)
                    lineSets.append(keys)
                    setIndex[r.lines] = at
                    lineIndex.append(at)
                }
            }
            // A name no other row has has no neighbours: such rows (most rows of a large single
            // source) stay out of the grids, which then hold only names seen twice or more. One
            // count of keys at a time (each a table as long as the rows).
            do {
                var repeated = RepeatedKeys()
                for k in names { repeated.add(k) }
                repeated.finish()
                for (i, r) in rows.enumerated() where repeated.isRepeated(names[i]) { g.insert(i, name: names[i], at: r.coordinate) }
            }
            do {
                func loose(_ i: Int) -> String { overrides.isEmpty ? names[i] : overrides[i] ?? names[i] }
                var repeated = RepeatedKeys()
                for i in names.indices { repeated.add(loose(i)) }
                repeated.finish()
                for (i, r) in rows.enumerated() where repeated.isRepeated(loose(i)) { lg.insert(i, name: loose(i), at: r.coordinate) }
            }
            nameKeys = names
            looseOverrides = overrides
            looseGrid = lg
            lineKeyIndex = lineIndex
            lineKeySets = lineSets
            grid = g
        }

        /// The folded line keys of row i (`LineKey.keys` of each of its lines).
        func lineKeys(_ i: Int) -> [String] { lineKeySets[Int(lineKeyIndex[i])] }

        /// `TextFold.nameKey` of row i's current name.
        func nameKey(_ i: Int) -> String {
            renamed.isEmpty || !renamed.contains(i) ? nameKeys[i] : TextFold.nameKey(rows[i].name)
        }

        /// `looseKey` of row i's current name.
        func looseKey(_ i: Int) -> String {
            renamed.isEmpty || !renamed.contains(i) ? originalLooseKey(i) : SourceReconciler.looseKey(rows[i].name)
        }

        /// `looseKey` of row i's name as it came in.
        func originalLooseKey(_ i: Int) -> String {
            looseOverrides.isEmpty ? nameKeys[i] : looseOverrides[i] ?? nameKeys[i]
        }

        /// Rows of row i's name within `distance` (not i), nearest first, ties by dataset and id.
        /// With `loose`, rows of the same `looseKey` instead.
        func neighbours(of i: Int, within distance: Double, loose: Bool = false, where keep: (Int) -> Bool) -> [Int] {
            let c = rows[i].coordinate
            var found: [(d: Double, j: Int)] = []
            let near = loose ? looseGrid.near(originalLooseKey(i), c) : grid.near(nameKeys[i], c)
            for j in near where j != i && keep(j) {
                let d = RowDistance.metres(c, rows[j].coordinate)
                if d <= distance { found.append((d, j)) }
            }
            found.sort { a, b in
                if a.d != b.d { return a.d < b.d }
                if rows[a.j].source != rows[b.j].source { return rows[a.j].source < rows[b.j].source }
                return a.j < b.j
            }
            return found.map(\.j)
        }

        /// False when no other row has row i's name (as it came in), so `neighbours(of:)`
        /// without `loose` finds none: a check that costs no copy of the context.
        func mayHaveNeighbours(_ i: Int) -> Bool { grid.has(nameKeys[i]) }

        /// True when rows i and j share a line as far as names tell.
        func sameLine(_ i: Int, _ j: Int) -> Bool {
            let b = lineKeys(j)
            return lineKeys(i).contains { a in b.contains { LineKey.matches(a, $0) } }
        }
    }

    /// The operator id of a row (successors followed for open rows), nil when unknown.
    func operatorID(_ r: SourceRecord) -> String? {
        if let ref = r.operatorRef, let op = operators.resolve(ref, followSuccessors: !r.isClosed) { return op.id }
        if let name = r.operatorName, let op = operators.resolve(name, followSuccessors: !r.isClosed) { return op.id }
        if let name = r.operatorName, !TextFold.operatorKey(name).isEmpty { return TextFold.operatorKey(name) }
        return nil
    }

    static func hasOperator(_ r: SourceRecord) -> Bool {
        if r.operatorRef != nil { return true }
        guard let name = r.operatorName, let first = name.utf8.first else { return false }
        // A name that starts with a printable ASCII character is not blank (the usual case).
        if first > 0x20 && first < 0x80 { return true }
        return !name.trimmingCharacters(in: .whitespaces).isEmpty
    }
}
