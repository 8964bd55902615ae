/// The operator rules of `SourceReconciler`: missing companies, the per-station source's
/// operator over a per-line company, and the curated sections.
extension SourceReconciler {
    /// Rule 1: a row without an operator takes the one its line's name names, else the one of
    /// the nearest row of another source at the same station on a matching line.
    func missingOperators(_ ctx: inout Context, _ report: inout Report) {
        let missing = ctx.rows.indices.filter { !Self.hasOperator(ctx.rows[$0]) }
        guard !missing.isEmpty else { return }
        let prefixes = operatorPrefixes()
        var decided: [(Int, String?, String?)] = []      // row, name, ref
        for i in missing {
            let r = ctx.rows[i]
            if let op = r.lines.lazy.compactMap({ self.operatorNamed(byLine: $0, prefixes) }).first {
                decided.append((i, op.name, nil))
                continue
            }
            let near = ctx.neighbours(of: i, within: matchDistance) { j in
                let o = ctx.rows[j]
                return Self.hasOperator(o) && o.serviceClass == r.serviceClass && o.source.dataset != r.source.dataset
                    && ctx.sameLine(i, j)
            }
            if let j = near.first {
                decided.append((i, ctx.rows[j].operatorName, ctx.rows[j].operatorRef))
            } else {
                decided.append((i, nil, nil))
            }
        }
        // Applied after all look-ups, so a decision never feeds another (order independence).
        for (i, name, ref) in decided {
            let r = ctx.rows[i]
            if name == nil && ref == nil {
                report.add(Decision(kind: .unresolvedOperator, row: r.source, name: r.name,
                                                 line: r.lines.first ?? "", before: "-", after: "-"))
                continue
            }
            ctx.rows[i].operatorName = name
            ctx.rows[i].operatorRef = ref
            report.add(Decision(kind: .missingOperator, row: r.source, name: r.name,
                                             line: r.lines.first ?? "", before: "-", after: name ?? ref ?? "-"))
        }
    }

    /// Every operator spelling (formal, short, aliases; NFKC) of 3 characters or more with its
    /// operator, longest first.
    func operatorPrefixes() -> [(String, Operator)] {
        var out: [(String, Operator)] = []
        for op in operators.operators where op.successor == nil {
            for s in [op.name, op.shortName] + op.aliases {
                let t = TextFold.nfkc(s)
                if t.count >= 3 { out.append((t, op)) }
            }
        }
        return out.sorted { ($0.0.count, $0.0) > ($1.0.count, $1.0) }
    }

    /// The operator a line's own name names: the whole name, the name without a trailing 線,
    /// else the longest operator spelling the name starts with.
    func operatorNamed(byLine line: String, _ prefixes: [(String, Operator)]) -> Operator? {
        let t = TextFold.nfkc(line)
        if let op = operators.resolve(t) { return op }
        if t.hasSuffix("線"), let op = operators.resolve(String(t.dropLast())) { return op }
        return prefixes.first { t.hasPrefix($0.0) }?.1
    }

    /// Rule 2: an open row of a per-line dataset takes the per-station dataset's operator at
    /// the same station and line, when that source has the station on the line but not under
    /// the row's operator; of several such operators, the one found at the most stations of the
    /// row's line.
    func operatorsByStation(_ ctx: inout Context, _ report: inout Report) {
        guard !perStationDatasets.isEmpty, !perLineDatasets.isEmpty else { return }
        var ids: [String: String?] = [:]
        func id(_ i: Int) -> String? {
            let r = ctx.rows[i]
            let k = (r.operatorRef ?? "") + "\u{1}" + (r.operatorName ?? "") + (r.isClosed ? "\u{1}c" : "")
            if let v = ids[k] { return v }
            let v = operatorID(r)
            ids[k] = v
            return v
        }
        // A line whose name begins with JR is a JR company's: such a row keeps its operator
        // against another operator's line of the same folded name nearby (N02's 近鉄 奈良線 at
        // 近鉄奈良 beside station_database's JR奈良線 at 奈良).
        // A line whose name begins with its own operator's name (`熊本電鉄上熊本線`) is that
        // operator's when the per-station source has the operator at the station (N02-23 has
        // 熊本電鉄 at 上熊本 on 菊池線, and 熊本市電's 上熊本線 there): the name says whose it is.
        // 神戸高速東西線 still goes by N02-23, which has no 神戸高速鉄道 rows (it owns the track
        // only; 阪急, 阪神 and 神戸電鉄 run on it).
        let prefixes = operatorPrefixes()
        var named: [String: String?] = [:]
        func namedOperator(_ line: String) -> String? {
            if let v = named[line] { return v }
            let v = operatorNamed(byLine: line, prefixes)?.id
            named[line] = v
            return v
        }
        var found: [(Int, [Int])] = []
        for i in ctx.rows.indices where perLineDatasets.contains(ctx.rows[i].source.dataset) && !ctx.rows[i].isClosed {
            let r = ctx.rows[i]
            let own = id(i)
            if let own, r.lines.contains(where: { namedOperator($0) == own }),
               !ctx.neighbours(of: i, within: matchDistance, loose: true, where: { j in
                   perStationDatasets.contains(ctx.rows[j].source.dataset) && id(j) == own
               }).isEmpty { continue }
            let jrOnly = r.lines.contains { TextFold.nfkc($0).hasPrefix("JR") }
            let candidates = ctx.neighbours(of: i, within: matchDistance, loose: true) { j in
                let o = ctx.rows[j]
                return perStationDatasets.contains(o.source.dataset) && !o.isClosed && o.serviceClass == r.serviceClass
                    && Self.hasOperator(o) && ctx.sameLine(i, j) && (!jrOnly || (id(j)?.hasPrefix("jr-") ?? false))
            }
            guard !candidates.isEmpty else { continue }
            if candidates.contains(where: { id($0) == own }) { continue }
            found.append((i, candidates))
        }
        // Several operators at one station on matching lines (新開地: 阪急, 阪神 and 神戸電鉄 on
        // N02-23's 神戸高速線): the row takes the one the per-station source has at the most
        // stations of the row's own line (神戸高速東西線 → 阪神, 神戸高速南北線 → 神戸電鉄), the
        // nearest among equals. Counted over all rows of the line whose operator was in question.
        var support: [String: [String: Int]] = [:]
        func lineKeys(_ i: Int) -> [String] { ctx.rows[i].lines.map { ctx.rows[i].source.dataset + "\u{1}" + $0 } }
        for (i, candidates) in found {
            let ops = Set(candidates.compactMap { id($0) })
            for k in lineKeys(i) { for op in ops { support[k, default: [:]][op, default: 0] += 1 } }
        }
        var changes: [(Int, Int)] = []
        for (i, candidates) in found {
            let keys = lineKeys(i)
            func score(_ j: Int) -> Int {
                guard let op = id(j) else { return 0 }
                return keys.reduce(0) { $0 + (support[$1]?[op] ?? 0) }
            }
            var best = candidates[0]
            var bestScore = score(best)
            for j in candidates.dropFirst() {
                let s = score(j)
                if s > bestScore { best = j; bestScore = s }
            }
            changes.append((i, best))
        }
        for (i, j) in changes {
            let r = ctx.rows[i]
            ctx.rows[i].operatorName = ctx.rows[j].operatorName
            ctx.rows[i].operatorRef = ctx.rows[j].operatorRef
            report.add(Decision(kind: .operatorByStation, row: r.source, name: r.name, line: r.lines.first ?? "",
                                             before: r.operatorName ?? "-", after: ctx.rows[j].operatorName ?? "-"))
        }
    }

    /// Rule 3: an open row in a curated section takes the section's operator.
    func curatedSections(_ ctx: inout Context, _ report: inout Report) {
        let cover = sections.cover(rows: ctx.rows, lineKeys: { ctx.lineKeys($0) }, nameKeys: ctx.nameKeys)
        for i in cover.keys.sorted() where !ctx.rows[i].isClosed {
            let s = sections.sections[cover[i]!]
            guard let op = operators[id: s.operatorID], operatorID(ctx.rows[i]) != op.id else { continue }
            let r = ctx.rows[i]
            ctx.rows[i].operatorName = op.name
            ctx.rows[i].operatorRef = nil
            report.add(Decision(kind: .curatedSection, row: r.source, name: r.name, line: r.lines.first ?? "",
                                             before: r.operatorName ?? "-", after: op.name))
        }
    }
}
