import EkiSQLite

/// Keeping the search index in step with `stations`.
extension SearchIndex {
    /// True when the database has the search tables (schema version 3, or a version 2 file
    /// being migrated).
    var exists: Bool {
        guard let s = try? db.cached("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_entry'") else { return false }
        defer { s.reset() }
        return (try? s.step()) ?? false
    }

    /// Brings the search index up to date with `stations`: indexes the entries it lacks (those
    /// an import has just written; the rows of deleted entries go with them, by cascade),
    /// re-indexes the entries of operators whose line brand changed, and drops terms no entry
    /// uses any more. Call inside the import's transaction.
    /// - Throws: `SQLiteError`.
    func update() throws {
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
        var builder = SearchIndexBuilder(db: db, brands: brands.all)
        var sids = try assignSortIDs(&builder)
        if sids == nil {
            // A gap between two existing entries is full: number every entry afresh.
            try db.execute("DELETE FROM search_posting; DELETE FROM search_entry;")
            sids = try assignSortIDs(&builder)
        }
        trace.mark("search: sort ids")
        // Many new entries: write postings to a scratch table, then into their B-tree in key
        // order, and build the secondary indexes afterwards (one sort each instead of a random
        // insert per row). Bigrams go straight into their FTS5 index (term ids only grow).
        let bulk = sids!.count >= 10_000
        if bulk {
            try db.execute("""
                DROP INDEX search_posting_fid; DROP INDEX search_entry_sort;
                CREATE TEMP TABLE search_posting_new (term_id INTEGER, sid INTEGER, fid INTEGER, open INTEGER);
                """)
            builder.postingTable = "temp.search_posting_new"
        }
        let select = try db.prepare("""
            SELECT s.fid, s.key, s.name, s.reading, s.latin_name, s.operator, s.class, s.lines, s.open, s.lon, s.lat, s.former_names
            FROM stations s WHERE s.fid > ? AND NOT EXISTS (SELECT 1 FROM search_entry e WHERE e.fid = s.fid)
            ORDER BY s.fid LIMIT 2000
            """)
        var last: Int64 = -1
        while true {
            try select.bind([.int(last)])
            var rows: [SearchIndexBuilder.Row] = []
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
            for r in rows { try builder.add(r, sid: sids![r.fid]!) }
            last = end
        }
        trace.mark("search: \(builder.added) entries indexed")
        if bulk {
            try db.execute("""
                INSERT OR IGNORE INTO search_posting SELECT term_id, sid, fid, open FROM temp.search_posting_new ORDER BY term_id, sid;
                DROP TABLE temp.search_posting_new;
                CREATE INDEX search_posting_fid ON search_posting(fid);
                CREATE UNIQUE INDEX search_entry_sort ON search_entry(sort_key);
                """)
            trace.mark("search: postings written in key order")
        }
        if builder.added > 0 || !brands.changed.isEmpty { try dropUnusedTerms() }
        trace.mark("search: unused terms dropped")
    }

    /// Sort ids for the entries not yet indexed: integers in the order of their sort keys,
    /// placed between the ids of the indexed entries around them, evenly spread over each gap
    /// (ids run from 0 to 2^62, so a fresh database leaves gaps of about 2^62 / N). nil when
    /// some gap is too small for the entries that fall into it.
    private func assignSortIDs(_ builder: inout SearchIndexBuilder) throws -> [Int64: Int64]? {
        var new: [(key: String, fid: Int64)] = []
        let s = try db.prepare("""
            SELECT s.fid, s.key, s.name, s.reading FROM stations s
            WHERE NOT EXISTS (SELECT 1 FROM search_entry e WHERE e.fid = s.fid)
            """)
        while try s.step() {
            new.append((builder.sortKey(key: s.text(1), name: s.text(2), reading: s.optionalText(3)), s.int64(0)))
        }
        new.sort { SearchRun.before($0.key, $1.key) }
        var sids: [Int64: Int64] = [:]
        sids.reserveCapacity(new.count)
        if try db.scalarInt("SELECT EXISTS (SELECT 1 FROM search_entry)") == 0 {
            let step = (Int64(1) << 62) / Int64(new.count + 1)
            for (k, e) in new.enumerated() { sids[e.fid] = step * Int64(k + 1) }
            return sids
        }
        let before = try db.prepare("SELECT sid FROM search_entry WHERE sort_key < ? ORDER BY sort_key DESC LIMIT 1")
        let after = try db.prepare("SELECT sid FROM search_entry WHERE sort_key > ? ORDER BY sort_key LIMIT 1")
        func neighbour(_ st: Statement, _ key: String, _ none: Int64) throws -> Int64 {
            try st.bind([.text(key)])
            defer { st.reset() }
            return try st.step() ? st.int64(0) : none
        }
        var i = 0
        while i < new.count {
            let low = try neighbour(before, new[i].key, 0)
            let high = try neighbour(after, new[i].key, 1 << 62)
            var j = i + 1
            while j < new.count, try neighbour(after, new[j].key, 1 << 62) == high { j += 1 }
            let step = (high - low) / Int64(j - i + 1)
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

/// Writes the search rows of entries, reusing terms and caching folds of repeated strings.
struct SearchIndexBuilder {
    struct Row {
        var fid: Int64, key: String, name: String, reading: String?, latinName: String?
        var operatorName: String?, serviceClass: String, lines: [String], open: Bool, lon: Double, lat: Double
        /// Former names and other names of the entry (`Station.formerNames`), searched as names.
        var formerNames: [String] = []
    }

    let db: Database
    let brands: [String: String]
    /// Where postings are written (a scratch table during a bulk build).
    var postingTable = "search_posting"
    private(set) var added = 0
    private var terms: [TermKey: Int64]? = nil
    private var nameCache: [String: String] = [:]
    private var readingCache: [String: (reading: String, romaji: String)] = [:]
    private var operatorCache: [String: String] = [:]
    private var lineCache: [String: [String]] = [:]

    init(db: Database, brands: [String: String]) {
        self.db = db
        self.brands = brands
    }

    /// The sort key of an entry: folded reading (folded name when it has none), folded name, key,
    /// separated by U+0001.
    mutating func sortKey(key: String, name: String, reading: String?) -> String {
        let n = Self.cached(&nameCache, name) { SearchFold.name($0) }
        let r = reading.flatMap { $0.isEmpty ? nil : readingForms($0).reading } ?? ""
        return (r.isEmpty ? n : r) + "\u{1}" + n + "\u{1}" + key
    }

    private mutating func readingForms(_ reading: String) -> (reading: String, romaji: String) {
        if let f = readingCache[reading] { return f }
        let f = (SearchFold.reading(reading), SearchFold.romaji(Hepburn.romanize(reading)))
        readingCache[reading] = f
        return f
    }

    /// Indexes one entry under sort id `sid`.
    mutating func add(_ r: Row, sid: Int64) throws {
        if terms == nil { try loadTerms() }
        let name = Self.cached(&nameCache, r.name) { SearchFold.name($0) }
        var readingForm = "", romajiForms: [String] = []
        if let reading = r.reading, !reading.isEmpty {
            let f = readingForms(reading)
            readingForm = f.reading
            if !f.romaji.isEmpty { romajiForms.append(f.romaji) }
        }
        if let latin = r.latinName {
            let f = SearchFold.romaji(latin)
            if !f.isEmpty, !romajiForms.contains(f) { romajiForms.append(f) }
        }
        var op: String? = nil
        if let o = r.operatorName { op = Self.cached(&operatorCache, o) { SearchFold.operatorName($0) } }
        var lineForms: [String] = []
        for line in r.lines {
            let group = SearchIndex.brandGroup(op ?? "", r.serviceClass)
            let cacheKey = group + "\u{1}" + line
            let forms = lineCache[cacheKey] ?? SearchIndex.lineForms(line, brand: brands[group])
            lineCache[cacheKey] = forms
            for f in forms where !lineForms.contains(f) { lineForms.append(f) }
        }
        // The name, then the former and other names (試験場前 finds 聖マリア病院前).
        var nameForms = name.isEmpty ? [] : [name]
        for f in r.formerNames {
            let form = Self.cached(&nameCache, f) { SearchFold.name($0) }
            if !form.isEmpty, !nameForms.contains(form) { nameForms.append(form) }
        }
        // Other names written in kana are other readings too (西院's さいいん beside 京福's さい,
        // kept when the reconciler chose the operator's reading): `--by reading` finds them.
        var readingList = readingForm.isEmpty ? [] : [readingForm]
        for f in r.formerNames where TextFold.isKana(f) {
            let g = readingForms(f)
            if !g.reading.isEmpty, !readingList.contains(g.reading) { readingList.append(g.reading) }
            if !g.romaji.isEmpty, !romajiForms.contains(g.romaji) { romajiForms.append(g.romaji) }
        }
        let fields: [(SearchField, [String])] = [
            (.name, nameForms), (.reading, readingList),
            (.romaji, romajiForms), (.line, lineForms), (.operator, op.map { $0.isEmpty ? [] : [$0] } ?? []),
        ]
        let sortKey = sortKey(key: r.key, name: r.name, reading: r.reading)
        try db.cached("""
            INSERT INTO search_entry (fid, sid, sort_key, open, lon, lat, name_h, reading_h, romaji_h, line_h, operator_h)
            VALUES (?,?,?,?,?,?,?,?,?,?,?)
            """).run([.int(r.fid), .int(sid), .text(sortKey), .int(r.open ? 1 : 0), .double(r.lon), .double(r.lat)]
                     + fields.map { .text(SearchIndex.frame($0.1)) })
        let posting = try db.cached("INSERT OR IGNORE INTO \(postingTable) (term_id, sid, fid, open) VALUES (?, ?, ?, ?)")
        for (field, forms) in fields {
            for form in forms { try posting.run([.int(try termID(field, form)), .int(sid), .int(r.fid), .int(r.open ? 1 : 0)]) }
        }
        added += 1
    }

    private static func cached(_ cache: inout [String: String], _ s: String, _ fold: (String) -> String) -> String {
        if let v = cache[s] { return v }
        let v = fold(s)
        // Names repeat (one per operator and line) but 1M distinct ones would cost ~100 MB:
        // start over rather than hold them all.
        if cache.count >= 50_000 { cache.removeAll(keepingCapacity: true) }
        cache[s] = v
        return v
    }

    /// A term as a dictionary key: field code and form, hashed and compared as UTF-8 bytes
    /// (String's own hashing normalizes, which is slow for kana and kanji, and forms are NFC).
    struct TermKey: Hashable {
        var code: Int
        var form: String
        func hash(into h: inout Hasher) {
            h.combine(code)
            var f = form
            f.withUTF8 { h.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
        static func == (a: TermKey, b: TermKey) -> Bool { a.code == b.code && a.form.utf8.elementsEqual(b.form.utf8) }
    }

    private mutating func loadTerms() throws {
        var t: [TermKey: Int64] = [:]
        let s = try db.prepare("SELECT id, field, form FROM search_term")
        while try s.step() { t[TermKey(code: Int(s.int64(1)), form: s.text(2))] = s.int64(0) }
        terms = t
    }

    /// The id of a term, inserting it (with its trigram and bigram FTS rows) when new.
    private mutating func termID(_ field: SearchField, _ form: String) throws -> Int64 {
        let code = SearchIndex.code(field)
        let key = TermKey(code: code, form: form)
        if let id = terms?[key] { return id }
        try db.cached("INSERT INTO search_term (field, form) VALUES (?, ?)").run([.int(Int64(code)), .text(form)])
        let id = db.lastInsertRowID
        try db.cached("INSERT INTO search_fts (rowid, f\(code)) VALUES (?, ?)").run([.int(id), .text(form)])
        try db.cached("INSERT INTO search_bigram (rowid, grams) VALUES (?, ?)").run([.int(id), .text(SearchIndex.bigramDocument(code: code, form))])
        terms?[key] = id
        return id
    }
}
