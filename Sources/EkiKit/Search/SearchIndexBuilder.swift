import EkiSQLite

/// Writes the search rows of entries, reusing terms and caching folds of repeated strings.
///
/// Row by row (entries added to an existing index), or in bulk (`bulk`, an index without
/// entries): then postings are kept in memory, 16 bytes each, and written at `finish()` in key
/// order (full B-tree pages, no page splits), and the FTS rows of the new terms are written
/// there too, in term id order, by one statement for the trigram index.
struct SearchIndexBuilder {
    struct Row {
        var fid: Int64, key: String, name: String, reading: String?, latinName: String?
        var operatorName: String?, serviceClass: String, lines: [String], open: Bool, lon: Double, lat: Double
        /// Former names and other names of the entry (`Station.formerNames`), searched as names.
        var formerNames: [String] = []
    }

    let db: Database
    let brands: [String: String]
    /// Postings and FTS rows are written by `finish()`.
    var bulk = false
    private(set) var added = 0
    /// Term ids known so far: every stored term in bulk (loaded once: the term index may be
    /// dropped meanwhile), else the terms met so far (looked up one by one through the
    /// `search_term_form` index: a few new entries need not read a million terms).
    private var terms: [TermKey: Int64] = [:]
    private var termsLoaded = false
    /// Bulk: the first term id whose FTS rows `finish()` writes.
    private var firstNewTerm: Int64? = nil
    /// Bulk: (term id << 32 | sid, fid << 1 | open) of each posting.
    private var postings: [(key: UInt64, fidOpen: Int64)] = []
    /// Bulk: the folded names of the entries to index, in the order `add` sees them (from the
    /// sort-key pass, so that each name is folded once).
    var folded: [(fid: Int64, name: String)] = []
    private var foldedAt = 0
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
        sortKey(key: key, nameForm: Self.cached(&nameCache, name) { SearchFold.name($0) }, reading: reading)
    }

    /// `SearchFold.name` of a name (cached: names repeat).
    mutating func nameForm(_ name: String) -> String {
        Self.cached(&nameCache, name) { SearchFold.name($0) }
    }

    /// `sortKey` of an entry whose name is folded already.
    mutating func sortKey(key: String, nameForm n: String, reading: String?) -> String {
        let r = reading.flatMap { $0.isEmpty ? nil : readingForms($0).reading } ?? ""
        var out = r.isEmpty ? n : r
        out.reserveCapacity(out.utf8.count + n.utf8.count + key.utf8.count + 2)
        out += "\u{1}"
        out += n
        out += "\u{1}"
        out += key
        return out
    }

    private mutating func readingForms(_ reading: String) -> (reading: String, romaji: String) {
        Self.cached(&readingCache, reading) { (SearchFold.reading($0), SearchFold.romaji(Hepburn.romanize($0))) }
    }

    /// Indexes one entry under sort id `sid`.
    mutating func add(_ r: Row, sid: Int64) throws {
        if bulk, !termsLoaded { try loadTerms() }
        let name: String
        if foldedAt < folded.count, folded[foldedAt].fid == r.fid {
            name = folded[foldedAt].name
            foldedAt += 1
        } else {
            name = Self.cached(&nameCache, r.name) { SearchFold.name($0) }
        }
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
        if !r.lines.isEmpty {
            let group = SearchIndex.brandGroup(op ?? "", r.serviceClass)
            for line in r.lines {
                let cacheKey = group + "\u{1}" + line
                let forms: [String]
                if let f = lineCache[cacheKey] { forms = f } else {
                    forms = SearchIndex.lineForms(line, brand: brands[group])
                    lineCache[cacheKey] = forms
                }
                for f in forms where !lineForms.contains(f) { lineForms.append(f) }
            }
        }
        // The name, each part of a name with brackets (本諫早（諫早市役所前）: 本諫早, 諫早市役所前),
        // then the former and other names (試験場前 finds 聖マリア病院前).
        var nameForms = name.isEmpty ? [] : [name]
        let parts = SourceReconciler.bracketParts(r.name)
        if parts.count > 1 {
            for p in parts {
                let form = SearchFold.name(p)
                if !form.isEmpty, !nameForms.contains(form) { nameForms.append(form) }
            }
        }
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
        let entry = try db.cached("""
            INSERT INTO search_entry (fid, sid, open, lon, lat, name_h, reading_h, romaji_h, line_h, operator_h)
            VALUES (?,?,?,?,?,?,?,?,?,?)
            """)
        entry.bind(r.fid, at: 1)
        entry.bind(sid, at: 2)
        entry.bind(Int64(r.open ? 1 : 0), at: 3)
        entry.bind(r.lon, at: 4)
        entry.bind(r.lat, at: 5)
        for (i, f) in fields.enumerated() { entry.bind(SearchIndex.frame(f.1), at: Int32(6 + i)) }
        try entry.runBound()
        if bulk {
            for (field, forms) in fields {
                for form in forms {
                    let id = try termID(field, form)
                    postings.append((UInt64(id) << 32 | UInt64(sid), r.fid << 1 | (r.open ? 1 : 0)))
                }
            }
        } else {
            let posting = try db.cached("INSERT OR IGNORE INTO search_posting (term_id, sid, fid, open) VALUES (?, ?, ?, ?)")
            for (field, forms) in fields {
                for form in forms {
                    posting.bind(try termID(field, form), at: 1)
                    posting.bind(sid, at: 2)
                    posting.bind(r.fid, at: 3)
                    posting.bind(Int64(r.open ? 1 : 0), at: 4)
                    try posting.runBound()
                }
            }
        }
        added += 1
    }

    /// Bulk: room for `count` postings before `add` is called.
    mutating func reservePostings(_ count: Int) {
        postings.reserveCapacity(count)
    }

    /// Bulk: writes the postings in key order and the FTS rows of the new terms.
    mutating func finish() throws {
        guard bulk else { return }
        postings.sort { $0.key < $1.key }
        let posting = try db.prepare("INSERT OR IGNORE INTO search_posting (term_id, sid, fid, open) VALUES (?, ?, ?, ?)")
        for p in postings {
            posting.bind(Int64(p.key >> 32), at: 1)
            posting.bind(Int64(p.key & 0xFFFF_FFFF), at: 2)
            posting.bind(p.fidOpen >> 1, at: 3)
            posting.bind(p.fidOpen & 1, at: 4)
            try posting.runBound()
        }
        postings = []
        folded = []
        guard let first = firstNewTerm else { return }
        let columns = SearchField.allCases.map { "f\(SearchIndex.code($0))" }.joined(separator: ", ")
        let values = SearchField.allCases.map { "CASE field WHEN \(SearchIndex.code($0)) THEN form END" }.joined(separator: ", ")
        try db.prepare("INSERT INTO search_fts (rowid, \(columns)) SELECT id, \(values) FROM search_term WHERE id >= ? ORDER BY id")
            .run([.int(first)])
        let terms = try db.prepare("SELECT id, field, form FROM search_term WHERE id >= ? ORDER BY id")
        let bigram = try db.prepare("INSERT INTO search_bigram (rowid, grams) VALUES (?, ?)")
        try terms.bind([.int(first)])
        while try terms.step() {
            bigram.bind(terms.int64(0), at: 1)
            bigram.bind(SearchIndex.bigramDocument(code: Int(terms.int64(1)), terms.text(2)), at: 2)
            try bigram.runBound()
        }
        terms.reset()
        firstNewTerm = nil
    }

    private static func cached<Value>(_ cache: inout [String: Value], _ s: String, _ fold: (String) -> Value) -> Value {
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
        termsLoaded = true
    }

    /// The id of a term, inserting it (with its trigram and bigram FTS rows, or in bulk leaving
    /// those to `finish()`) when new.
    private mutating func termID(_ field: SearchField, _ form: String) throws -> Int64 {
        let code = SearchIndex.code(field)
        let key = TermKey(code: code, form: form)
        if let id = terms[key] { return id }
        if !termsLoaded {
            let find = try db.cached("SELECT id FROM search_term WHERE field = ? AND form = ?")
            find.bind(Int64(code), at: 1)
            find.bind(form, at: 2)
            let found = try find.step() ? find.int64(0) : nil
            find.reset()
            if let found {
                terms[key] = found
                return found
            }
        }
        let insert = try db.cached("INSERT INTO search_term (field, form) VALUES (?, ?)")
        insert.bind(Int64(code), at: 1)
        insert.bind(form, at: 2)
        try insert.runBound()
        let id = db.lastInsertRowID
        if bulk {
            if firstNewTerm == nil { firstNewTerm = id }
        } else {
            try db.cached("INSERT INTO search_fts (rowid, f\(code)) VALUES (?, ?)").run([.int(id), .text(form)])
            try db.cached("INSERT INTO search_bigram (rowid, grams) VALUES (?, ?)").run([.int(id), .text(SearchIndex.bigramDocument(code: code, form))])
        }
        terms[key] = id
        return id
    }
}
