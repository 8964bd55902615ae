import EkiSQLite

/// Deriving the line table from the stored rows and the entries they belong to.
///
/// 1. Each source row belongs to the entry `station_sources` links it to (of the row's class,
///    and holding the row's line when the row's id is linked to several, as a station_database
///    station on many lines is). The row's operator is that entry's `operator_id`, never the
///    row's own operator name: when entries of one source line belong to two operators (a
///    route run in sections), the source line falls into one section per operator.
/// 2. A source line section is (dataset, line name, operator id, class). Within a dataset,
///    sections with the same display name (`LineNames.display`) are one group: station_database's
///    `JR東海道本線(熱海～浜松)` and `JR東海道本線(浜松～岐阜)` are JR東海's 東海道本線.
/// 3. Datasets are taken ordered ones first (rows with `lineOrder`), then by the entry rule's
///    source priority (`SourcePriority`, the import's entry rule's). Each group joins the line of the same operator and class that shares
///    the most of its entries — at least 2, and at least a third of the smaller of the two — and
///    holds no group of the same dataset yet (so a dataset's own lines, 京浜東北線 beside
///    東北本線, stay apart), or the line whose id it would take; else it starts a line. Counting
///    shared entries goes through an entry → lines map: O(rows) after the sort.
///    A group of a line a source still lists under its former operator beside its successor's
///    own line (station_database's 近鉄八王子線, 北近畿タンゴ鉄道宮津線: `supersededGroups`) is
///    taken last and makes no line: its names go to its successor's line.
/// 4. A line's order comes from the first ordered group joined to it: each of its sections,
///    sorted by `lineOrder`, is a sequence (split where the order passes a multiple of
///    `SourceRecord.lineOrderBranchStep`: GTFS branch patterns); sequences meeting end to end (same entry) are
///    joined, the others stay separate branches. Entries only unordered sources place on the
///    line follow with no position, unless another line of the operator orders them.
///    A GTFS route without a name (宇都宮ライトレール's only route) is an unnamed section: it
///    orders the line it shares its entries with (N02's 宇都宮芳賀ライトレール線) and takes that
///    line's name; with no such line it is left out.
/// 5. A line whose single sequence of 5 or more entries ends within twice its median step of
///    where it starts is a loop (山手線).
extension LineTable {
    private struct Section {
        var dataset: String, name: String, operatorID: String, serviceClass: String
        var members: [(fid: Int64, order: Int?)] = []
        var open = false
        var color: String?
    }

    private struct Building {
        var id: String, operatorID: String, serviceClass: String, name: String
        var color: String?
        var open = false
        var isLoop = false
        var sources: [String] = []
        var aliases: [(alias: String, source: String)] = []
        var datasets: Set<String> = []
        var members: Set<Int64> = []
        /// Entries a `part` row brought: placed even where another line of the operator orders them.
        var partMembers: Set<Int64> = []
        var sequences: [[Int64]] = []
    }

    /// Rebuilds the line table from `source_records`, `station_sources` and `stations`. Call
    /// inside the import's transaction (the migration to version 4 calls it too).
    /// - Parameter priority: the order datasets are matched to lines in (after the ordered
    ///   ones): the entry rule's `sourcePriority`.
    /// - Throws: `SQLiteError`.
    func update(priority: SourcePriority = .default) throws {
        guard exists else { return }
        try db.execute("DELETE FROM line_aliases; DELETE FROM line_stations; DELETE FROM lines;")
        // Written afresh: the index on entries is built after the rows (one sort, not an
        // insert per row). A statement still reading the table keeps the index (the drop fails
        // and the rows update it as they go).
        let dropped = (try? db.execute("DROP INDEX line_stations_fid")) != nil
        let sections = try readSections()
        if !sections.isEmpty {
            var lines = group(sections, priority: priority)
            try order(&lines)
            try write(lines)
        }
        if dropped { try db.execute("CREATE INDEX line_stations_fid ON line_stations(station_fid)") }
    }

    /// Step 1: every source line section, in a stable order.
    private func readSections() throws -> [Section] {
        // `station_sources` is clustered by entry: its pairs by source row for this pass (one
        // sort), then the rows in their order with their entries.
        try db.execute("""
            DROP TABLE IF EXISTS temp.line_source_entries;
            CREATE TEMP TABLE line_source_entries (dataset TEXT, source_id TEXT, station_fid INTEGER,
              PRIMARY KEY (dataset, source_id, station_fid)) WITHOUT ROWID;
            INSERT INTO temp.line_source_entries SELECT dataset, source_id, station_fid FROM main.station_sources ORDER BY 1, 2, 3;
            """)
        defer { try? db.execute("DROP TABLE IF EXISTS temp.line_source_entries") }
        let s = try db.prepare("""
            SELECT r.dataset, r.ord, r.lines, r.line_order, r.line_color, r.closed, ss.station_fid, s.operator_id, s.class, s.lines,
                   r.operator
            FROM source_records r
            CROSS JOIN temp.line_source_entries ss ON ss.dataset = r.dataset AND ss.source_id = r.source_id
            CROSS JOIN stations s ON s.fid = ss.station_fid AND s.class = r.class
            WHERE s.retired IS NULL
            ORDER BY r.dataset, r.ord, ss.station_fid
            """)
        var index: [String: Int] = [:]
        var sections: [Section] = []
        var pending: (dataset: String, ord: Int64, lines: [String], order: Int?, color: String?, open: Bool, operatorName: String?,
                      candidates: [(fid: Int64, op: String, cls: String, lines: String)])?
        func flush() {
            guard let p = pending, let first = p.candidates.first else { return }
            // A row naming no line but ordered along one (a GTFS route without a name) stands in
            // an unnamed section, which takes its name from the line it is matched to.
            let names = p.lines.contains(where: { !$0.isEmpty }) ? p.lines : (p.order != nil ? [""] : [])
            for line in names where !line.isEmpty || p.lines.allSatisfy(\.isEmpty) {
                var pick = first
                if p.candidates.count > 1 {
                    let quoted = String(JSONText.encodeStrings([line]).dropFirst().dropLast())
                    // An open entry lists no line closed there: a closed row goes to the entry
                    // of its own operator.
                    let own = { p.operatorName.flatMap { OperatorTable.builtIn.resolve($0, followSuccessors: p.open)?.id } }
                    pick = p.candidates.first { $0.lines.contains(quoted) } ?? own().flatMap { op in p.candidates.first { $0.op == op } } ?? first
                }
                let key = [p.dataset, line, pick.op, pick.cls].joined(separator: "\u{1}")
                let i: Int
                if let j = index[key] { i = j } else {
                    i = sections.count
                    index[key] = i
                    sections.append(Section(dataset: p.dataset, name: line, operatorID: pick.op, serviceClass: pick.cls))
                }
                sections[i].members.append((pick.fid, p.order))
                if p.open { sections[i].open = true }
                if sections[i].color == nil { sections[i].color = p.color }
            }
        }
        while try s.step() {
            let dataset = s.text(0), ord = s.int64(1)
            let candidate = (fid: s.int64(6), op: s.text(7), cls: s.text(8), lines: s.text(9))
            if let p = pending, p.dataset == dataset, p.ord == ord {
                pending!.candidates.append(candidate)
                continue
            }
            flush()
            pending = (dataset, ord, JSONText.decodeStrings(s.text(2)), s.isNull(3) ? nil : Int(s.int64(3)),
                       s.optionalText(4), s.int64(5) == 0, s.optionalText(10), [candidate])
        }
        flush()
        return sections
    }

    /// Steps 2 and 3: sections grouped by display name within a dataset, groups matched to lines.
    private func group(_ sections: [Section], priority: SourcePriority) -> [Building] {
        var ordered = Set<String>()
        var heads: [String: Set<String>] = [:]
        for s in sections {
            if s.members.contains(where: { $0.order != nil }) { ordered.insert(s.dataset) }
            if !s.name.isEmpty {
                heads[[s.dataset, s.operatorID, s.serviceClass].joined(separator: "\u{1}"), default: []]
                    .insert(LineNames.parts(s.name).head)
            }
        }
        let brands = heads.compactMapValues(LineNames.brand)
        // Groups: (dataset, operator, class, display name) → sections.
        var groups: [String: [Int]] = [:]
        var display: [Int: String] = [:]
        for (i, s) in sections.enumerated() {
            let brand = brands[[s.dataset, s.operatorID, s.serviceClass].joined(separator: "\u{1}")]
            let d = LineNames.display(s.name, brand: brand)
            display[i] = d
            groups[[s.dataset, s.operatorID, s.serviceClass, d].joined(separator: "\u{1}"), default: []].append(i)
        }
        var stale = Self.supersededGroups(Array(groups.values), sections)
        // A service route or former name (`LineDefinitions` `alias`) makes no line either.
        var defined: [Int: LineDefinition] = [:]
        for members in groups.values {
            let s = sections[members[0]]
            let brand = brands[[s.dataset, s.operatorID, s.serviceClass].joined(separator: "\u{1}")]
            if let d = LineDefinitions.alias(operatorID: s.operatorID, serviceClass: s.serviceClass, display: display[members[0]]!,
                                             name: s.name, brand: brand) {
                stale.insert(members.min()!)
                defined[members.min()!] = d
            }
        }
        let sortedGroups = groups.values.map { members -> (dataset: String, size: Int, key: String, members: [Int]) in
            let s = sections[members[0]]
            let size = members.reduce(0) { $0 + sections[$1].members.count }
            return (s.dataset, size, s.operatorID + "/" + s.serviceClass + "/" + display[members[0]]!, members.sorted())
        }.sorted {
            let sa = stale.contains($0.members.min()!), sb = stale.contains($1.members.min()!)
            if sa != sb { return sb }
            let oa = ordered.contains($0.dataset), ob = ordered.contains($1.dataset)
            if oa != ob { return oa }
            let ra = priority.rank($0.dataset), rb = priority.rank($1.dataset)
            if ra != rb { return ra < rb }
            if $0.dataset != $1.dataset { return $0.dataset < $1.dataset }
            if $0.size != $1.size { return $0.size > $1.size }
            return $0.key < $1.key
        }
        var lines: [Building] = []
        var byID: [String: Int] = [:]
        var linesOf: [Int64: [Int]] = [:]
        let datasets = Set(sortedGroups.map(\.dataset))
        let lastDataset = sortedGroups.last { !stale.contains($0.members.min()!) }?.dataset
        for g in sortedGroups {
            let first = sections[g.members[0]]
            // A bare 本線 (N02's tram lines: 広電, 函館, 長崎) is the operator's: 広電本線.
            let shown = display[g.members[0]]!
            let name = shown == "本線" ? (OperatorTable.builtIn[id: first.operatorID]?.shortName ?? "") + shown : shown
            let id = first.operatorID + "/" + (first.serviceClass == "shinkansen" ? "s" : "c") + "/" + SearchFold.name(name)
            var fids = Set<Int64>()
            for m in g.members { for x in sections[m].members { fids.insert(x.fid) } }
            let named = defined[g.members[0]].flatMap { d in
                d.line.isEmpty ? nil : lines.firstIndex { l in
                    l.operatorID == first.operatorID && l.serviceClass == first.serviceClass
                        && SearchFold.name(l.name) == SearchFold.name(d.line)
                }
            }
            if stale.contains(g.members[0]), let t = named ?? Self.successorLine(of: g.members.map { sections[$0].name }, fids: fids,
                                                                                     operatorID: first.operatorID, serviceClass: first.serviceClass, in: lines) {
                // A superseded line or an alias: its names only, on its successor's line; a
                // part (`LineDefinitions`) also brings its entries and order.
                if defined[g.members[0]]?.kind == .part {
                    lines[t].members.formUnion(fids)
                    lines[t].partMembers.formUnion(fids)
                    if ordered.contains(first.dataset) {
                        for q in g.members.flatMap({ Self.sequences(sections[$0]) }) { lines[t].sequences = Self.merge(lines[t].sequences, part: q) }
                    }
                }
                for m in g.members {
                    let s = sections[m]
                    if defined[g.members[0]]?.kind != .alias { lines[t].sources.append(s.dataset + ":" + s.name) }
                    for a in LineNames.aliases(s.name, brand: nil) where !lines[t].aliases.contains(where: { $0.alias == a }) {
                        lines[t].aliases.append((a, s.dataset))
                    }
                    if let d = defined[g.members[0]], !lines[t].aliases.contains(where: { $0.alias == d.name }) {
                        lines[t].aliases.append((d.name, s.dataset))
                    }
                }
                continue
            }
            var target = name.isEmpty ? nil : byID[id].flatMap { lines[$0].datasets.contains(first.dataset) ? nil : $0 }
            if target == nil {
                var shared: [Int: Int] = [:]
                for f in fids { for l in linesOf[f] ?? [] { shared[l, default: 0] += 1 } }
                target = shared.filter { l, n in
                    lines[l].operatorID == first.operatorID && lines[l].serviceClass == first.serviceClass
                        && !lines[l].datasets.contains(first.dataset) && n >= 2 && 3 * n >= min(fids.count, lines[l].members.count)
                }.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key
            }
            let t: Int
            if let target { t = target } else {
                guard byID[id] == nil else { continue }   // same id, same dataset: cannot happen (one group)
                t = lines.count
                byID[id] = t
                lines.append(Building(id: id, operatorID: first.operatorID, serviceClass: first.serviceClass, name: name))
            }
            if lines[t].name.isEmpty, !name.isEmpty, byID[id] == nil {
                byID[id] = t
                lines[t].id = id
                lines[t].name = name
            }
            lines[t].datasets.insert(first.dataset)
            for m in g.members {
                let s = sections[m]
                let brand = brands[[s.dataset, s.operatorID, s.serviceClass].joined(separator: "\u{1}")]
                lines[t].sources.append(s.dataset + ":" + (s.name.isEmpty ? "(unnamed route)" : s.name))
                for a in LineNames.aliases(s.name, brand: brand) where !lines[t].aliases.contains(where: { $0.alias == a }) {
                    lines[t].aliases.append((a, s.dataset))
                }
                if s.open { lines[t].open = true }
                if lines[t].color == nil { lines[t].color = s.color }
            }
            if lines[t].sequences.isEmpty, ordered.contains(first.dataset) {
                for m in g.members { lines[t].sequences += Self.sequences(sections[m]) }
                lines[t].sequences = Self.join(lines[t].sequences)
            }
            // The entry → lines map serves later datasets' matching only.
            let matchLater = datasets.count > 1 && first.dataset != lastDataset
            for f in fids where lines[t].members.insert(f).inserted && matchLater { linesOf[f, default: []].append(t) }
        }
        // An unnamed section no named line joined is no line: its entries keep their other lines.
        return lines.filter { !$0.name.isEmpty }
    }

    /// A section's ordered entries as sequences, split where the order passes a multiple of
    /// `SourceRecord.lineOrderBranchStep` (GTFS branch patterns).
    private static func sequences(_ section: Section) -> [[Int64]] {
        var out: [[Int64]] = []
        var seq: [Int64] = []
        var block = 0
        for x in section.members.filter({ $0.order != nil }).sorted(by: { ($0.order!, $0.fid) < ($1.order!, $1.fid) }) {
            let b = x.order! / SourceRecord.lineOrderBranchStep
            if b != block, !seq.isEmpty { out.append(seq); seq = [] }
            block = b
            if seq.last != x.fid { seq.append(x.fid) }
        }
        if !seq.isEmpty { out.append(seq) }
        return out
    }

    /// The groups (by their first section) of a line a source still lists under its former
    /// operator beside its successor's own line: station_database's 近鉄内部線 and 近鉄八王子線
    /// beside 四日市あすなろう鉄道's, the 北近畿タンゴ鉄道 lines beside 京都丹後鉄道's. A group is
    /// one when its line is a whole-line transfer of `OperatorSections` to the operator its
    /// entries now have, and the same dataset has another line of that operator and class over
    /// at least two of its entries. Such a group makes no line of its own (`successorLine`).
    private static func supersededGroups(_ groups: [[Int]], _ sections: [Section]) -> Set<Int> {
        var transfers: [String: String] = [:]
        for s in OperatorSections.builtIn.sections where s.from == nil { transfers[s.lineKey] = s.operatorID }
        guard !transfers.isEmpty else { return [] }
        func fids(_ g: [Int]) -> Set<Int64> { Set(g.flatMap { sections[$0].members.map(\.fid) }) }
        var out = Set<Int>()
        for g in groups {
            let s = sections[g[0]]
            guard g.allSatisfy({ transfers[LineKey.fold(sections[$0].name)] == sections[$0].operatorID }) else { continue }
            let mine = fids(g)
            let others = groups.filter { o in
                let t = sections[o[0]]
                return o[0] != g[0] && t.dataset == s.dataset && t.operatorID == s.operatorID && t.serviceClass == s.serviceClass
                    && !o.allSatisfy { transfers[LineKey.fold(sections[$0].name)] != nil }
            }
            if others.contains(where: { fids($0).intersection(mine).count >= 2 }) { out.insert(g.min()!) }
        }
        return out
    }

    /// The line a superseded group's names go to: of the lines of its operator and class that
    /// share an entry with it, the one whose name is the same without operator names in front
    /// (近鉄八王子線 → 四日市あすなろう鉄道八王子線), else the one sharing the most entries.
    private static func successorLine(of names: [String], fids: Set<Int64>, operatorID: String, serviceClass: String,
                                      in lines: [Building]) -> Int? {
        func tail(_ name: String) -> String {
            let k = LineKey.fold(name)
            let p = LineKey.operatorPrefixes.filter { k.hasPrefix($0) && k.count > $0.count }.max { $0.count < $1.count }
            return p.map { String(k.dropFirst($0.count)) } ?? k
        }
        let tails = Set(names.map(tail))
        var best: (index: Int, sameName: Bool, shared: Int)? = nil
        for (i, l) in lines.enumerated() where l.operatorID == operatorID && l.serviceClass == serviceClass {
            let shared = l.members.intersection(fids).count
            guard shared > 0 else { continue }
            let same = l.sources.contains { tails.contains(tail(String($0.drop { $0 != ":" }.dropFirst()))) }
            if let b = best, (same ? 1 : 0, shared) <= (b.sameName ? 1 : 0, b.shared) { continue }
            best = (i, same, shared)
        }
        return best?.index
    }

    /// Step 5: the loop flag.
    private func order(_ lines: inout [Building]) throws {
        let point = try db.prepare("SELECT lon, lat FROM stations WHERE fid = ?")
        func coordinate(_ f: Int64) -> Coordinate? {
            defer { point.reset() }
            guard (try? point.bind([.int(f)])) != nil, (try? point.step()) == true else { return nil }
            return Coordinate(lat: point.double(1), lon: point.double(0))
        }
        try trimToDefinedEnds(&lines, point: coordinate)
        var sequenced: [String: Set<Int64>] = [:]   // operator × class → entries some line orders
        for l in lines { for q in l.sequences { sequenced[l.operatorID + "/" + l.serviceClass, default: []].formUnion(q) } }
        for i in lines.indices where !lines[i].sequences.isEmpty {
            let others = sequenced[lines[i].operatorID + "/" + lines[i].serviceClass] ?? []
            let unordered = lines[i].members.filter { !others.contains($0) }
            if !unordered.isEmpty { Self.extendEnds(&lines[i].sequences, unordered: Array(unordered), point: coordinate) }
        }
        for i in lines.indices where lines[i].sequences.count == 1 && lines[i].sequences[0].count >= 5 {
            var seq = lines[i].sequences[0]
            if seq.first == seq.last { seq.removeLast(); lines[i].sequences[0] = seq; lines[i].isLoop = true; continue }
            var pts: [Coordinate] = []
            for f in seq {
                try point.bind([.int(f)])
                if try point.step() { pts.append(Coordinate(lat: point.double(1), lon: point.double(0))) }
                point.reset()
            }
            guard pts.count == seq.count else { continue }
            let steps = zip(pts, pts.dropFirst()).map { Geodesic.distance(valid: $0, $1) }.sorted()
            let median = steps[steps.count / 2]
            if Geodesic.distance(valid: pts[0], pts[pts.count - 1]) <= 2 * median { lines[i].isLoop = true }
        }
    }

    /// A line with an `ends` row (`LineDefinitions`): the sequence holding both end stations is
    /// cut to the stretch between them, and the stations cut off leave the line (through-service
    /// stops of another line: 奈良線's 平城山 and 奈良, the 関西本線's). A closed section (a
    /// `closed` row with ends) is cut out of the sequence holding both its ends, keeping an end
    /// where the line goes on beyond it; its other stations leave the line.
    private func trimToDefinedEnds(_ lines: inout [Building], point: (Int64) -> Coordinate?) throws {
        let nameOf = try db.prepare("SELECT name FROM stations WHERE fid = ?")
        func name(_ f: Int64) throws -> String {
            defer { nameOf.reset() }
            try nameOf.bind([.int(f)])
            return try nameOf.step() ? SearchFold.name(nameOf.text(0)) : ""
        }
        for i in lines.indices where !lines[i].sequences.isEmpty {
            let l = lines[i]
            let defs = LineDefinitions.sections(operatorID: l.operatorID, serviceClass: l.serviceClass,
                                                names: [l.name] + l.aliases.map(\.alias))
            for d in defs {
                let from = SearchFold.name(d.from), to = SearchFold.name(d.to)
                var out: [[Int64]] = []
                var cut = Set<Int64>()
                for q in lines[i].sequences {
                    let names = try q.map(name)
                    guard let a0 = names.firstIndex(of: from), let z0 = names.firstIndex(of: to) else { out.append(q); continue }
                    if d.kind == .branch {
                        out += Self.splitBranch(q, junction: a0, end: z0, point: point)
                        continue
                    }
                    let a = min(a0, z0), z = max(a0, z0)
                    if d.kind == .ends {
                        out.append(Array(q[a...z]))
                        cut.formUnion(q[..<a]); cut.formUnion(q[(z + 1)...])
                    } else {
                        let before = a > 0 ? Array(q[...a]) : [], after = z < q.count - 1 ? Array(q[z...]) : []
                        if before.count > 1 { out.append(before) }
                        if after.count > 1 { out.append(after) }
                        cut.formUnion(q[a...z])
                    }
                }
                lines[i].sequences = out
                lines[i].members.subtract(cut.subtracting(out.joined()))
            }
        }
    }

    /// Writes the lines, their entries (step 4's unordered ones after the ordered) and aliases,
    /// with the curated common names (`LineCommonNames`) placed on their lines.
    private func write(_ lines: [Building]) throws {
        var sequenced: [String: Set<Int64>] = [:]   // operator × class → entries some line orders
        for l in lines { for q in l.sequences { sequenced[l.operatorID + "/" + l.serviceClass, default: []].formUnion(q) } }
        let insertLine = try db.prepare("INSERT INTO lines (id, operator_id, class, name, color, loop, open, sources) VALUES (?,?,?,?,?,?,?,?)")
        let insertStation = try db.prepare("INSERT OR IGNORE INTO line_stations (line_num, station_fid, branch, seq) VALUES (?,?,?,?)")
        func place(_ line: Int64, _ fid: Int64, _ branch: Int, _ seq: Int?) throws {
            insertStation.bind(line, at: 1); insertStation.bind(fid, at: 2); insertStation.bind(Int64(branch), at: 3)
            if let seq { insertStation.bind(Int64(seq), at: 4) } else { insertStation.bind(nil as String?, at: 4) }
            try insertStation.runBound()
        }
        var nums: [String: Int64] = [:]
        let insertAlias = try db.prepare("INSERT OR IGNORE INTO line_aliases (form, line_id, alias, from_fid, to_fid, source) VALUES (?,?,?,?,?,?)")
        // A line is open when a source row of it is open and one of its stations is: a row still
        // open on a line whose every entry is closed (N02-23's 海峡線 at 中小国 and 木古内, closed
        // to passengers since 2016 in station_database) does not make the line one to ride.
        var openEntries = Set<Int64>()
        let openQuery = try db.prepare("SELECT fid FROM stations WHERE open = 1")
        while try openQuery.step() { openEntries.insert(openQuery.int64(0)) }
        for l in lines {
            // A line closed as a whole (`LineDefinitions` `closed`) is not open.
            let open = l.open && (l.members.contains(where: openEntries.contains)
                                  || l.sequences.contains { $0.contains(where: openEntries.contains) })
                && !LineDefinitions.isClosed(operatorID: l.operatorID, serviceClass: l.serviceClass,
                                             names: [l.name] + l.aliases.map(\.alias))
            try insertLine.run([.text(l.id), .text(l.operatorID), .text(l.serviceClass), .text(l.name),
                                l.color.map(SQLValue.text) ?? .null, .int(l.isLoop ? 1 : 0), .int(open ? 1 : 0),
                                .text(JSONText.encodeStrings(l.sources))])
            let num = db.lastInsertRowID
            nums[l.id] = num
            var placed = Set<Int64>()
            for (b, q) in l.sequences.enumerated() {
                for (i, f) in q.enumerated() {
                    placed.insert(f)
                    try place(num, f, b, i)
                }
            }
            // Unordered entries: no position (readers list them after the ordered ones, by key).
            // A `whole` line (`LineDefinitions`) keeps them all.
            let others = LineDefinitions.isWhole(operatorID: l.operatorID, serviceClass: l.serviceClass,
                                                 names: [l.name] + l.aliases.map(\.alias))
                ? [] : sequenced[l.operatorID + "/" + l.serviceClass] ?? []
            for f in l.members.sorted() where !placed.contains(f) && (l.sequences.isEmpty || !others.contains(f) || l.partMembers.contains(f)) {
                try place(num, f, l.sequences.count, nil)
            }
            for a in l.aliases {
                try insertAlias.run([.text(SearchFold.name(a.alias)), .text(l.id), .text(a.alias), .null, .null, .text(a.source)])
            }
        }
        // Curated common names: a section between two named stations of one sequence.
        let ends = try db.prepare("""
            SELECT ls.station_fid, ls.branch, ls.seq, s.name FROM line_stations ls JOIN stations s ON s.fid = ls.station_fid
            WHERE ls.line_num = ? AND ls.seq IS NOT NULL
            """)
        for c in LineCommonNames.all {
            let cls = c.serviceClass.rawValue
            let form = SearchFold.name(c.line)
            guard let line = lines.first(where: { l in
                l.operatorID == c.operatorID && l.serviceClass == cls
                    && (SearchFold.name(l.name) == form || l.aliases.contains { SearchFold.name($0.alias) == form })
            }) else { continue }
            try ends.bind([.int(nums[line.id]!)])
            var from: (fid: Int64, branch: Int64)?, to: (fid: Int64, branch: Int64)?
            while try ends.step() {
                let n = SearchFold.name(ends.text(3))
                if n == SearchFold.name(c.from), from == nil { from = (ends.int64(0), ends.int64(1)) }
                if n == SearchFold.name(c.to), to == nil { to = (ends.int64(0), ends.int64(1)) }
            }
            ends.reset()
            guard let from, let to, from.branch == to.branch else { continue }
            try insertAlias.run([.text(SearchFold.name(c.name)), .text(line.id), .text(c.name), .int(from.fid), .int(to.fid),
                                 .text("curated: " + c.source)])
        }
    }
}
