import EkiSQLite

/// Keeping the search index in step with `stations`.
extension SearchIndex {
    /// True when the database has the search tables (since schema version 3).
    public var exists: Bool {
        guard let s = try? db.cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_entry'") else { return false }
        defer { s.reset() }
        return (try? s.step()) ?? false
    }

    /// True when the index has the version 7 shape (entries ordered by the `sid` index, postings
    /// deleted by trigger). An older file's index is written afresh when the file is upgraded
    /// (`SchemaUpgrade.rebuildStale`); `update()` leaves an index of another shape alone.
    var isCurrent: Bool {
        guard let s = try? db.cached("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'search_entry_gone'") else { return false }
        defer { s.reset() }
        return (try? s.step()) ?? false
    }

    /// Deletes every entry's row and postings (terms stay; `update()` drops those unused), at
    /// the cost of two table scans rather than a trigger run per entry.
    func clear() throws {
        try db.execute("""
            DROP TRIGGER search_entry_gone; DELETE FROM search_posting; DELETE FROM search_entry;
            """ + SearchIndex.goneTrigger)
    }

    /// Brings the search index up to date with `stations`: indexes the entries it lacks (those
    /// an import has just written; the rows of deleted entries go with them, by cascade, their
    /// postings by trigger), re-indexes the entries of operators whose line brand changed, and
    /// drops terms no entry uses any more. Call inside the import's transaction.
    /// - Throws: `SQLiteError`.
    func update() throws {
        guard isCurrent else { return }
        var trace = PhaseTrace()
        let brands = try refreshBrands()
        if !brands.changed.isEmpty {
            let stale = try db.prepare("""
                SELECT e.fid FROM search_entry e JOIN stations s ON s.fid = e.fid WHERE e.operator_h = ? AND s.class = ?
                """)
            let delete = try db.prepare("DELETE FROM search_entry WHERE fid = ?")
            for group in brands.changed {
                let parts = group.split(separator: "\u{1}", omittingEmptySubsequences: false)
                try stale.bind([.text(SearchIndex.frame([String(parts[0])])), .text(String(parts.last!))])
                var fids: [Int64] = []
                while try stale.step() { fids.append(stale.int64(0)) }
                stale.reset()
                for fid in fids { try delete.run([.int(fid)]) }
            }
        }
        trace.mark("search: line brands")
        let freshTerms = try db.scalarInt("SELECT EXISTS (SELECT 1 FROM search_term)") == 0
        var builder = SearchIndexBuilder(db: db, brands: brands.all)
        var (new, folded) = try newSortKeys(&builder)
        var sids = try placeBetween(new, &builder)
        if sids == nil {
            // No entries yet, many new ones, or a full gap: number every entry afresh.
            if try db.scalarInt("SELECT EXISTS (SELECT 1 FROM search_entry)") == 1 {
                try clear()
                (new, folded) = try newSortKeys(&builder)
            }
            builder.folded = folded
            sids = SortIDs(numbering: new)
            // Names, lines and operators: at least 3 postings per entry, held until `finish()`
            // (reserved at once: an array doubling its storage holds both for a moment).
            builder.reservePostings(new.count * 3)
            builder.bulk = true
        }
        new = []
        folded = []
        trace.mark("search: sort ids")
        // The sid index is built after the rows when it can be dropped (not while a statement
        // of the caller's is still reading: SQLite refuses DDL then, and rows go in with it).
        if builder.bulk { try? db.execute("DROP INDEX search_entry_sid") }
        // So is the term index, when every term is new (terms are looked up in memory meanwhile).
        if builder.bulk, freshTerms { try? db.execute("DROP INDEX search_term_form") }
        let select = try db.prepare("""
            SELECT s.fid, s.key, s.name, s.reading, s.latin_name, s.operator, s.class, s.lines, s.open, s.lon, s.lat, s.former_names
            FROM stations s WHERE s.fid > ? AND NOT EXISTS (SELECT 1 FROM search_entry e WHERE e.fid = s.fid)
            ORDER BY s.fid LIMIT 2000
            """)
        var last: Int64 = -1
        var rows: [SearchIndexBuilder.Row] = []
        while true {
            try select.bind([.int(last)])
            rows.removeAll(keepingCapacity: true)
            while try select.step() {
                rows.append(.init(fid: select.int64(0), key: select.text(1), name: select.text(2),
                                  reading: select.optionalText(3), latinName: select.optionalText(4),
                                  operatorName: select.optionalText(5), serviceClass: select.text(6),
                                  lines: JSONText.decodeStrings(select.text(7)),
                                  open: select.int64(8) != 0, lon: select.double(9), lat: select.double(10),
                                  formerNames: JSONText.decodeStrings(select.text(11))))
            }
            select.reset()
            guard let end = rows.last?.fid else { break }
            for r in rows {
                let sid = sids![r.fid]
                precondition(sid > 0, "search index: entry \(r.fid) has no sort id")
                try builder.add(r, sid: sid)
            }
            last = end
        }
        trace.mark("search: \(builder.added) entries indexed")
        if builder.bulk {
            try builder.finish()
            trace.mark("search: postings and FTS rows written in key order")
            try db.execute("""
                CREATE UNIQUE INDEX IF NOT EXISTS search_entry_sid ON search_entry(sid);
                CREATE UNIQUE INDEX IF NOT EXISTS search_term_form ON search_term(field, form);
                """)
            trace.mark("search: sid and term indexes")
        }
        if !freshTerms, builder.added > 0 || !brands.changed.isEmpty { try dropUnusedTerms() }
        trace.mark("search: unused terms dropped")
    }

    /// The sort keys of the entries not yet indexed, in order, and their folded names in `fid`
    /// order.
    private func newSortKeys(_ builder: inout SearchIndexBuilder) throws -> ([(key: String, fid: Int64)], [(fid: Int64, name: String)]) {
        var new: [(key: String, fid: Int64)] = []
        var folded: [(fid: Int64, name: String)] = []
        let s = try db.prepare("""
            SELECT s.fid, s.key, s.name, s.reading FROM stations s
            WHERE NOT EXISTS (SELECT 1 FROM search_entry e WHERE e.fid = s.fid) ORDER BY s.fid
            """)
        while try s.step() {
            let name = builder.nameForm(s.text(2))
            new.append((builder.sortKey(key: s.text(1), nameForm: name, reading: s.optionalText(3)), s.int64(0)))
            folded.append((s.int64(0), name))
        }
        new.sort { SearchRun.before($0.key, $1.key) }
        return (new, folded)
    }

    /// Sort ids for `new` entries (in sort-key order) between the ids of the indexed entries
    /// around them, evenly spread over each gap; after the last, `SearchIndex.sidSpacing`
    /// apart. The neighbours are found by binary search over the `sid` index (sort keys
    /// follow sort ids), about 23 probes per new entry at 1M entries. nil when the index has no entries, when the new entries are many
    /// (10,000 or more and over a quarter of the indexed ones: numbering all afresh in bulk is
    /// faster), or when some gap is too small for the entries that fall into it.
    private func placeBetween(_ new: [(key: String, fid: Int64)], _ builder: inout SearchIndexBuilder) throws -> SortIDs? {
        let indexed = try db.scalarInt("SELECT count(*) FROM search_entry") ?? 0
        if indexed == 0 || (new.count >= 10_000 && new.count * 4 > indexed) { return nil }
        var sids = SortIDs()
        if new.isEmpty { return sids }
        let maxSid = try db.scalarInt("SELECT max(sid) FROM search_entry") ?? 0
        let atOrAfter = try db.prepare("""
            SELECT e.sid, s.key, s.name, s.reading FROM search_entry e CROSS JOIN stations s ON s.fid = e.fid
            WHERE e.sid >= ? ORDER BY e.sid LIMIT 1
            """)
        let before = try db.prepare("SELECT sid FROM search_entry WHERE sid < ? ORDER BY sid DESC LIMIT 1")
        // The sid of the first indexed entry sorting after `key`, or nil when none does (its
        // sort key computed from its `stations` row, as `newSortKeys` does).
        func firstAfter(_ key: String) throws -> Int64? {
            var lo: Int64 = 0, hi = maxSid + 1
            while lo < hi {
                let mid = lo + (hi - lo) / 2
                try atOrAfter.bind([.int(mid)])
                let after = try atOrAfter.step()
                    ? SearchRun.before(key, builder.sortKey(key: atOrAfter.text(1), name: atOrAfter.text(2), reading: atOrAfter.optionalText(3)))
                    : true
                atOrAfter.reset()
                if after { hi = mid } else { lo = mid + 1 }
            }
            guard lo <= maxSid else { return nil }
            try atOrAfter.bind([.int(lo)])
            defer { atOrAfter.reset() }
            return try atOrAfter.step() ? atOrAfter.int64(0) : nil
        }
        var i = 0
        while i < new.count {
            let high = try firstAfter(new[i].key)
            var j = i + 1
            while j < new.count, try firstAfter(new[j].key) == high { j += 1 }
            try before.bind([.int(high ?? maxSid + 1)])
            let low = try before.step() ? before.int64(0) : 0
            before.reset()
            let step = high.map { ($0 - low) / Int64(j - i + 1) } ?? SearchIndex.sidSpacing
            if step < 1 { return nil }
            for k in i..<j { sids[new[k].fid] = low + step * Int64(k - i + 1) }
            i = j
        }
        return sids
    }

    /// Recomputes the brand of every operator × class from the stored line names and writes
    /// them; returns all brands and the groups (`SearchIndex.brandGroup`) whose brand changed.
    private func refreshBrands() throws -> (all: [String: String], changed: Set<String>) {
        var lines: [String: Set<String>] = [:]
        let s = try db.prepare("""
            SELECT DISTINCT s.operator, s.class, j.value FROM stations s, json_each(s.lines) j WHERE s.operator IS NOT NULL
            """)
        var folded: [String: String] = [:]
        while try s.step() {
            let op = s.text(0)
            let form = folded[op] ?? SearchFold.operatorName(op)
            folded[op] = form
            lines[SearchIndex.brandGroup(form, s.text(1)), default: []].insert(SearchFold.name(s.text(2)))
        }
        let now = SearchIndex.brands(linesByOperator: lines)
        var before: [String: String] = [:]
        let old = try db.prepare("SELECT operator, brand FROM search_brand")
        while try old.step() { before[old.text(0)] = old.text(1) }
        let changed = Set(now.keys).union(before.keys).filter { now[$0] != before[$0] }
        if !changed.isEmpty {
            let del = try db.prepare("DELETE FROM search_brand WHERE operator = ?")
            let ins = try db.prepare("INSERT INTO search_brand (operator, brand) VALUES (?, ?)")
            for op in changed {
                try del.run([.text(op)])
                if let b = now[op] { try ins.run([.text(op), .text(b)]) }
            }
        }
        return (now, changed)
    }

    /// Deletes terms without postings, with their trigram and bigram FTS rows.
    private func dropUnusedTerms() throws {
        let s = try db.prepare("""
            SELECT id, field, form FROM search_term t WHERE NOT EXISTS (SELECT 1 FROM search_posting p WHERE p.term_id = t.id)
            """)
        var unused: [(id: Int64, field: Int64, form: String)] = []
        while try s.step() { unused.append((s.int64(0), s.int64(1), s.text(2))) }
        let bigram = try db.prepare("INSERT INTO search_bigram (search_bigram, rowid, grams) VALUES ('delete', ?, ?)")
        let term = try db.prepare("DELETE FROM search_term WHERE id = ?")
        for t in unused {
            try db.cached("INSERT INTO search_fts (search_fts, rowid, f\(t.field)) VALUES ('delete', ?, ?)").run([.int(t.id), .text(t.form)])
            try bigram.run([.int(t.id), .text(SearchIndex.bigramDocument(code: Int(t.field), t.form))])
            try term.run([.int(t.id)])
        }
    }
}
