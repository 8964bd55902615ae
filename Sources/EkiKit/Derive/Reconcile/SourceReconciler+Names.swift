/// The name rules of `SourceReconciler`: one station written differently by the sources (name
/// variants) and a station renamed after an older source's edition become one name.
extension SourceReconciler {
    /// The loose form of a station name, for telling spellings of one station apart from other
    /// stations: `TextFold.nameKey`, then a leading brand or city prefix dropped (`神戸三宮` →
    /// `三宮`, `モノレール浜松町`, `あすなろう四日市` and `近鉄四日市` → `四日市`), a trailing `駅`
    /// or `温泉` dropped (`人吉温泉` → `人吉`), and in a name with kanji the particles `ノ`, `之`
    /// and `ケ` dropped (`鷹ノ巣` = `鷹巣`). Never empty for a non-empty name (a name that is only
    /// a prefix keeps it). Only compared between rows of one operator and class close together
    /// (`variantDistance`), or on a matching line.
    public static func looseKey(_ name: String) -> String {
        looseKey(nameKey: TextFold.nameKey(name))
    }

    /// `looseKey` of a name whose `TextFold.nameKey` is `key`.
    static func looseKey(nameKey key: String) -> String {
        // Every prefix and suffix below is not ASCII but `jr`, and no particle is: an ASCII key
        // other than jr… is its own loose form.
        if key.utf8.allSatisfy({ $0 < 0x80 }) && !key.hasPrefix("jr") { return key }
        var t = key
        for p in looseKeyPrefixes where t.hasPrefix(p) && t.count > p.count {
            t.removeFirst(p.count)
            break
        }
        for s in ["駅", "温泉"] where t.hasSuffix(s) && t.count > s.count {
            t.removeLast(s.count)
            break
        }
        if t.unicodeScalars.contains(where: { (0x4E00...0x9FFF).contains($0.value) }) {
            let u = t.filter { $0 != "ノ" && $0 != "之" && $0 != "ケ" }
            if !u.isEmpty { t = u }
        }
        return t.isEmpty ? key : t
    }

    /// Prefixes sources put before one station's name: a city (`神戸`), a mode (`モノレール`),
    /// a brand or an operator's short name (`近鉄`, `あすなろう`), `jr` (after `nameKey`).
    static let looseKeyPrefixes = ["モノレール", "あすなろう", "神戸", "近鉄", "阪急", "阪神", "京急", "京成", "京阪",
                                   "南海", "名鉄", "西鉄", "東武", "西武", "山陽", "jr"]

    /// Rule 5: rows of one operator and class within `variantDistance` whose names are one
    /// station written differently — the same `looseKey`, or the same reading (a kana name
    /// counts as its own reading: `なんば` = `難波` read なんば) — take one name: the most
    /// trusted dataset's (`sourcePriority`; N02 first), or a newer dataset's where it only spells
    /// that name otherwise (`spellingOnly`); the other names kept as the rows' aliases.
    /// Before that, a station renamed after an older dataset's edition: a row of an older
    /// dataset (`olderDatasets`) whose name no newer row has nearby, beside a newer row of the
    /// same operator, class and line within `variantDistance` whose name the older dataset has
    /// nowhere nearby, takes the newer name (西鉄 試験場前 → 聖マリア病院前; lines of unrelated
    /// names, as 長崎電気軌道's 本線 and 長崎電軌1系統, count when the rows lie within 100 m).
    func unifyNames(_ ctx: inout Context, _ report: inout Report) {
        let n = ctx.rows.count
        // Each row's operator and class, as an index into `opClassNames` (ids and class, e.g.
        // `jr-east/conventional`): one small number per row instead of one string.
        var opClass: [Int32] = []
        opClass.reserveCapacity(n)
        var opClassNames: [String] = []
        var opClassIndex: [String: Int32] = [:]
        struct RowOperator: Hashable { var ref: String?; var name: String?; var isClosed: Bool; var serviceClass: ServiceClass }
        var ids: [RowOperator: Int32] = [:]
        for r in ctx.rows {
            let k = RowOperator(ref: r.operatorRef, name: r.operatorName, isClosed: r.isClosed, serviceClass: r.serviceClass)
            if let v = ids[k] { opClass.append(v); continue }
            let name = (operatorID(r) ?? "-") + "/" + r.serviceClass.rawValue
            let v = opClassIndex[name] ?? { let v = Int32(opClassNames.count); opClassNames.append(name); opClassIndex[name] = v; return v }()
            ids[k] = v
            opClass.append(v)
        }
        // Renames first (older row → newer name).
        var renames: [(Int, Int)] = []
        // A rename needs rows of two datasets (one older than the other).
        let datasets = Set(ctx.rows.lazy.map(\.source.dataset))
        if !olderDatasets.isEmpty, datasets.count > 1 {
            var byPlace = RowGrid<Int32>(cellDegrees: 0.01)
            for i in 0..<n where !ctx.rows[i].isClosed { byPlace.insert(i, name: opClass[i], at: ctx.rows[i].coordinate) }
            func close(_ i: Int, _ j: Int) -> Bool {
                RowDistance.metres(ctx.rows[i].coordinate, ctx.rows[j].coordinate) <= variantDistance
            }
            func newer(_ i: Int, than j: Int) -> Bool {
                olderDatasets[ctx.rows[i].source.dataset]?.contains(ctx.rows[j].source.dataset) ?? false
            }
            for i in 0..<n where !ctx.rows[i].isClosed {
                let here = byPlace.near(opClass[i], ctx.rows[i].coordinate).filter { close(i, $0) }
                let newerRows = here.filter { newer($0, than: i) }
                guard !newerRows.isEmpty, !newerRows.contains(where: { ctx.originalLooseKey($0) == ctx.originalLooseKey(i) }) else { continue }
                let readingI = Self.readingKey(ctx.rows[i])
                let candidates = newerRows.filter { j in
                    // The same reading is a spelling, not a rename: the variant step below keeps
                    // the most trusted name (難波, not なんば).
                    (readingI == nil || Self.readingKey(ctx.rows[j]) != readingI) &&
                    (ctx.sameLine(i, j) || RowDistance.metres(ctx.rows[i].coordinate, ctx.rows[j].coordinate) <= 100)
                        && !here.contains { k in newer(j, than: k) && ctx.originalLooseKey(k) == ctx.originalLooseKey(j) }
                }
                if let j = candidates.min(by: { RowDistance.metres(ctx.rows[i].coordinate, ctx.rows[$0].coordinate) < RowDistance.metres(ctx.rows[i].coordinate, ctx.rows[$1].coordinate) }) {
                    renames.append((i, j))
                }
            }
        }
        for (i, j) in renames {
            let old = ctx.rows[i].name
            ctx.rows[i].name = ctx.rows[j].name
            ctx.renamed.insert(i)
            ctx.rows[i].aliases.append(old)
            if ctx.rows[i].reading != ctx.rows[j].reading, let r = ctx.rows[j].reading { ctx.rows[i].reading = r }
            report.add(Decision(kind: .renamed, row: ctx.rows[i].source, name: old, line: ctx.rows[i].lines.first ?? "",
                                before: old, after: ctx.rows[j].name))
        }
        // Variants: union-find over pairs found through two grids (loose name, reading).
        var parent = Array(0..<n)
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        // Keys (operator, class and loose name or reading) only one row has join nothing: they
        // stay out of the grid, so a large source of distinct names costs a count, not a grid.
        // Counted in a first pass, the keys built again in the second, so no array of a million
        // keys is held.
        struct VariantKey: Hashable {
            var opClass: Int32
            /// True for a reading, false for a loose name.
            var reading: Bool
            var text: String
        }
        func keys(_ i: Int) -> [VariantKey] {
            var out = [VariantKey(opClass: opClass[i], reading: false, text: ctx.looseKey(i))]
            if let reading = Self.readingKey(ctx.rows[i], nameKey: ctx.nameKey(i)) {
                out.append(VariantKey(opClass: opClass[i], reading: true, text: reading))
            }
            return out
        }
        var repeated = RepeatedKeys()
        for i in 0..<n { for k in keys(i) { repeated.add(k) } }
        repeated.finish()
        var grid = RowGrid<VariantKey>(cellDegrees: 0.01)
        for i in 0..<n { for k in keys(i) where repeated.isRepeated(k) { grid.insert(i, name: k, at: ctx.rows[i].coordinate) } }
        repeated = RepeatedKeys()
        // Two names one dataset gives side by side are two stations in its eyes (伊予鉄 松山市 and
        // the tram stop 松山市駅): such a pair is never joined, directly or through another source.
        var named: [String: [Int]] = [:]
        for i in 0..<n where !grid.cells.isEmpty { named[ctx.rows[i].source.dataset + "\u{1}" + opClassNames[Int(opClass[i])] + "\u{1}" + ctx.nameKeys[i], default: []].append(i) }
        func has(_ dataset: String, _ i: Int, nameOf j: Int) -> Bool {
            (named[dataset + "\u{1}" + opClassNames[Int(opClass[i])] + "\u{1}" + ctx.nameKeys[j]] ?? []).contains {
                RowDistance.metres(ctx.rows[$0].coordinate, ctx.rows[i].coordinate) <= variantDistance
            }
        }
        func twoStations(_ i: Int, _ j: Int) -> Bool {
            ctx.nameKeys[i] != ctx.nameKeys[j]
                && (has(ctx.rows[i].source.dataset, i, nameOf: j) || has(ctx.rows[j].source.dataset, j, nameOf: i))
        }
        // Union-find gives the same groups in any order of the pairs.
        for (cell, members) in grid.cells {
            for i in members {
                for j in grid.near(cell.name, ctx.rows[i].coordinate) where j > i {
                    guard ctx.rows[i].isClosed == ctx.rows[j].isClosed, !twoStations(i, j),
                          RowDistance.metres(ctx.rows[i].coordinate, ctx.rows[j].coordinate) <= variantDistance else { continue }
                    let a = find(i), b = find(j)
                    if a != b { parent[max(a, b)] = min(a, b) }
                }
            }
        }
        var groups: [Int: [Int]] = [:]
        for i in 0..<n { let root = find(i); if root != i || groups[root] != nil { groups[root, default: [root]].append(i) } }
        for root in groups.keys.sorted() {
            let members = Array(Set(groups[root]!)).sorted()
            guard Set(members.map { ctx.rows[$0].name }).count > 1 else { continue }
            var best = members.min { a, b in
                let ra = sourcePriority.rank(ctx.rows[a].source.dataset), rb = sourcePriority.rank(ctx.rows[b].source.dataset)
                if ra != rb { return ra < rb }
                return (ctx.rows[a].source, a) < (ctx.rows[b].source, b)
            }!
            // The newer source's spelling of the same name (保土ケ谷, 下祇園, なんば) is shown.
            let reading = Self.readingKey(ctx.rows[best])
            let spelled = members.first { j in
                (olderDatasets[ctx.rows[j].source.dataset]?.contains(ctx.rows[best].source.dataset) ?? false)
                    && Self.spellingOnly(ctx.rows[j].name, of: ctx.rows[best].name, reading: reading)
            }
            if let spelled { best = spelled }
            let shown = ctx.rows[best].name
            if spelled != nil {
                for i in members where ctx.rows[i].name != shown && TextFold.nameKey(ctx.rows[i].name) == TextFold.nameKey(shown) {
                    let old = ctx.rows[i].name
                    ctx.rows[i].name = shown
                    report.add(Decision(kind: .spelling, row: ctx.rows[i].source, name: old,
                                        line: ctx.rows[i].lines.first ?? "", before: old, after: shown))
                }
            }
            for i in members where TextFold.nameKey(ctx.rows[i].name) != TextFold.nameKey(shown) {
                let old = ctx.rows[i].name
                ctx.rows[i].name = shown
                ctx.renamed.insert(i)
                ctx.rows[i].aliases.append(old)
                if ctx.rows[i].reading == nil { ctx.rows[i].reading = ctx.rows[best].reading }
                report.add(Decision(kind: .nameVariant, row: ctx.rows[i].source, name: old,
                                    line: ctx.rows[i].lines.first ?? "", before: old, after: shown))
            }
        }
    }

    /// The reading a row is known by (hiragana): its reading, else its name when that is all
    /// kana; nil otherwise.
    static func readingKey(_ r: SourceRecord) -> String? {
        readingKey(r, nameKey: TextFold.nameKey(r.name))
    }

    /// `readingKey(_:)` of a row whose name's `TextFold.nameKey` is `nameKey`.
    static func readingKey(_ r: SourceRecord, nameKey k: @autoclosure () -> String) -> String? {
        if let reading = r.reading, !reading.isEmpty {
            return TextFold.hiragana(TextFold.nameKey(reading))
        }
        let k = k()
        return TextFold.isKana(k) ? TextFold.hiragana(k) : nil
    }
}
