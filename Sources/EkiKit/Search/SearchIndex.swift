import EkiSQLite

/// The search index inside the station database (since schema version 3; an upgrade of an
/// older file writes it afresh, `SchemaUpgrade.rebuildStale`), and its upkeep (`update()`, in
/// `SearchIndex+Update.swift`), run in each import's transaction. A value holding the store's
/// connection.
///
/// - `search_entry`: one row per entry (`fid` of `stations`; deleted with it, and by the
///   trigger `search_entry_stale` when a searched column of the entry changes, to be written
///   again): the sort id `sid`, an integer in the order of the entries' sort keys (folded
///   reading, else folded name; then folded name and key, joined by U+0001; computed from
///   `stations`, not stored since schema version 7), `sidSpacing` apart after a full build, so
///   that later imports fit new entries between (a small integer keeps postings short); open
///   flag, point, and for each field the folded forms (names: the name, then its former names)
///   joined and framed by U+0001 (`\u{1}form\u{1}form\u{1}`), so that one `instr` tests exact
///   (`\u{1}q\u{1}`), prefix (`\u{1}q`) or partial (`q`) matches of any form. Entries in result
///   order come from the `sid` index.
/// - `search_term`: each distinct (field, folded form). Prefix search is a range scan of its
///   (field, form) index.
/// - `search_posting`: term → entries, each with its sort id and open flag, clustered by
///   (term, sid): the first matches in result order of any set of terms come from one covering
///   index, however many entries match. An entry's postings are deleted with its row by the
///   trigger `search_entry_gone`, through its stored forms and their term ids (since schema
///   version 7; before, an index on `fid` served the deletion).
/// - `search_fts`: contentless FTS5 trigram index over the terms, rowid = term id, the form in
///   column `f<field code>` (partial search, queries of 3 or more characters, filtered by
///   column; the term is checked with `instr` afterwards, so no positions are stored, and no
///   column sizes since schema version 7: nothing ranks by them).
/// - `search_bigram`: contentless FTS5 index (rowids only, `detail=none`) of every 2-character
///   substring of every term, and its last character followed by U+0001, each written as one
///   ASCII token (`bigramToken`: field code, then the two characters' code points in hex), rowid
///   = term id (partial search, queries of 1 or 2 characters, which trigrams cannot match:
///   2 characters look up their token, 1 character the tokens starting with it). Since schema
///   version 6; version 5 kept one B-tree row per (field, gram, term) in `search_gram`, about
///   7 times larger.
/// - `search_brand`: per operator × class, the brand its line names share (see `SearchField.line`).
///
/// Size at 1M generic points (one unique name, one line, one operator each: 1M terms, 3M
/// postings): 187 MB of search tables in version 7, 348 MB in version 6 (the `fid` index on
/// postings 63 MB, the unique sort-key index 39 MB, stored sort keys 30 MB, FTS5 column sizes
/// 14 MB; 8-byte sort ids). Postings (58 MB) and entries (58 MB) are the largest tables now.
public struct SearchIndex {
    /// The station database's connection.
    let db: Database
    /// Where hits are loaded from.
    let entries: EntryCatalog
    /// The viewport and nearest queries of the `bbox` and `near` plans.
    let spatial: SpatialIndex

    /// The distance between the sort ids of neighbouring entries after a full build: up to
    /// `sidSpacing - 1` entries imported later fit between two (more renumber every entry). At
    /// 1M entries the largest sid, 8,000,000, still takes 3 bytes in a record.
    static let sidSpacing: Int64 = 8

    static let schema = """
    CREATE TABLE search_entry (
      fid INTEGER PRIMARY KEY REFERENCES stations(fid) ON DELETE CASCADE,
      sid INTEGER NOT NULL,
      open INTEGER NOT NULL,
      lon REAL NOT NULL,
      lat REAL NOT NULL,
      name_h TEXT NOT NULL,
      reading_h TEXT NOT NULL,
      romaji_h TEXT NOT NULL,
      line_h TEXT NOT NULL,
      operator_h TEXT NOT NULL);
    CREATE UNIQUE INDEX search_entry_sid ON search_entry(sid);
    CREATE TABLE search_term (id INTEGER PRIMARY KEY, field INTEGER NOT NULL, form TEXT NOT NULL);
    CREATE UNIQUE INDEX search_term_form ON search_term(field, form);
    CREATE TABLE search_posting (
      term_id INTEGER NOT NULL,
      sid INTEGER NOT NULL,
      fid INTEGER NOT NULL,
      open INTEGER NOT NULL,
      PRIMARY KEY (term_id, sid)) WITHOUT ROWID;
    \(bigramSchema)
    CREATE VIRTUAL TABLE search_fts USING fts5(f0, f1, f2, f3, f4, content='',
      tokenize='trigram case_sensitive 1', detail=column, columnsize=0);
    CREATE TABLE search_brand (operator TEXT PRIMARY KEY, brand TEXT NOT NULL) WITHOUT ROWID;
    """ + staleTrigger + goneTrigger

    /// The 1- and 2-character gram index (schema version 6).
    static let bigramSchema = "CREATE VIRTUAL TABLE search_bigram USING fts5(grams, content='', tokenize='ascii', detail=none, columnsize=0);"

    /// Drops an entry's index row when a searched column of it changes (since schema version 5
    /// also its former names), so that `update()` writes it again.
    static let staleTrigger = """
    CREATE TRIGGER search_entry_stale AFTER UPDATE OF key, name, reading, latin_name, operator, class, lines, open, lon, lat,
      former_names ON stations BEGIN DELETE FROM search_entry WHERE fid = OLD.fid; END;

    """

    /// Deletes a deleted entry's postings (schema version 7): the terms of each field are its
    /// framed forms, split by turning them into a JSON array (forms hold no control characters:
    /// every fold drops them; backslash and `"` are escaped), found by the (field, form) index; each
    /// posting by its key (term, sid).
    static let goneTrigger: String = {
        func forms(_ column: String) -> String {
            "json_each('[\"' || replace(replace(replace(substr(OLD.\(column), 2, length(OLD.\(column)) - 2), '\\', '\\\\'), '\"', '\\\"'), char(1), '\",\"') || '\"]')"
        }
        let terms = SearchField.allCases.map { f in
            "SELECT t.id FROM \(forms(column(f))) j CROSS JOIN search_term t ON t.field = \(code(f)) AND t.form = j.value"
        }.joined(separator: " UNION ALL ")
        return """
        CREATE TRIGGER search_entry_gone AFTER DELETE ON search_entry BEGIN
          DELETE FROM search_posting WHERE sid = OLD.sid AND term_id IN (\(terms));
        END;

        """
    }()

    /// Column of `search_entry` holding a field's forms.
    static func column(_ f: SearchField) -> String {
        switch f {
        case .name: return "name_h"
        case .reading: return "reading_h"
        case .romaji: return "romaji_h"
        case .line: return "line_h"
        case .operator: return "operator_h"
        }
    }

    /// The stored code of a field in `search_term.field`.
    static func code(_ f: SearchField) -> Int {
        switch f {
        case .name: return 0
        case .reading: return 1
        case .romaji: return 2
        case .line: return 3
        case .operator: return 4
        }
    }

    /// `\u{1}a\u{1}b\u{1}` for forms [a, b]; empty for none.
    static func frame(_ forms: [String]) -> String {
        forms.isEmpty ? "" : "\u{1}" + forms.joined(separator: "\u{1}") + "\u{1}"
    }

    /// The forms of one line name: the whole name and the name before any bracket, each also
    /// without the operator's brand and without a leading route number (`4号線`), plus the text
    /// of each bracket that is not a section (`～`). Folded with `SearchFold.name`.
    static func lineForms(_ line: String, brand: String?) -> [String] {
        let full = SearchFold.name(line)
        var forms: [String] = []
        func add(_ s: Substring) { if !s.isEmpty, !forms.contains(String(s)) { forms.append(String(s)) } }
        let head = full.firstIndex(of: "(").map { full[..<$0] } ?? full[...]
        for base in [full[...], head] {
            add(base)
            var rest = base
            if let brand, !brand.isEmpty, rest.hasPrefix(brand), rest.count >= brand.count + 2 {
                rest = rest.dropFirst(brand.count)
                add(rest)
            }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).hasPrefix("号線"), rest.count >= digits.count + 4 {
                add(rest.dropFirst(digits.count + 2))
            }
        }
        var depth = 0
        var inner = ""
        for ch in full {
            if ch == "(" { depth += 1; if depth == 1 { inner = "" }; continue }
            if ch == ")" {
                depth = max(0, depth - 1)
                if depth == 0, !inner.contains("~"), !inner.contains("〜") { add(inner[...]) }
                continue
            }
            if depth > 0 { inner.append(ch) }
        }
        return forms
    }

    /// The key of an operator (folded) × service class (`stations.class`) in `search_brand`.
    static func brandGroup(_ operatorForm: String, _ serviceClass: String) -> String {
        operatorForm + "\u{1}" + serviceClass
    }

    /// The brand of each operator × class (`brandGroup`): the longest common prefix of its
    /// folded line names when it has two or more and that prefix is at least 2 characters
    /// (JR東日本's conventional lines all start with JR, 東京メトロ's with 東京メトロ, 近畿日本鉄道's
    /// with 近鉄; its Shinkansen lines, 東北新幹線 and 上越新幹線, share no brand).
    static func brands(linesByOperator: [String: Set<String>]) -> [String: String] {
        var out: [String: String] = [:]
        for (op, lines) in linesByOperator where lines.count >= 2 {
            var prefix = Array(lines.first!)
            for l in lines.dropFirst() {
                let a = Array(l)
                var n = 0
                while n < prefix.count, n < a.count, prefix[n] == a[n] { n += 1 }
                prefix.removeLast(prefix.count - n)
                if prefix.count < 2 { break }
            }
            // A prefix running past the operator's own name (京都丹後鉄道 + 宮 of 宮豊線, 宮福線,
            // 宮舞線) stops at the name.
            let name = Array(op.split(separator: "\u{1}").first ?? "")
            if prefix.count > name.count, Array(prefix.prefix(name.count)) == name { prefix = name }
            if prefix.count >= 2 { out[op] = String(prefix) }
        }
        return out
    }

    /// The FTS5 token of a 2-character gram of a field: `<code>x<hex>x<hex>` (lowercase hex of
    /// the two Unicode scalars), e.g. 0xe3x1 for "ã\u{1}" in names. Tokens of grams starting with
    /// one character share the prefix `<code>x<hex>x` and no other token has it.
    static func bigramToken(code: Int, _ a: Unicode.Scalar, _ b: Unicode.Scalar) -> String {
        String(code) + "x" + String(a.value, radix: 16) + "x" + String(b.value, radix: 16)
    }

    /// The `search_bigram` text of a term of field `code`: the token of each of its `grams`,
    /// separated by spaces.
    static func bigramDocument(code: Int, _ form: String) -> String {
        // Written as bytes (one per term of a 1M-entry build: no String per gram or token).
        let u = Array(form.unicodeScalars)
        var pairs: [UInt64] = []
        pairs.reserveCapacity(u.count)
        var out: [UInt8] = []
        out.reserveCapacity(u.count * 12)
        let digits = Array("0123456789abcdef".utf8)
        func hex(_ v: UInt32) {
            var shift = 28
            while shift > 0, (v >> UInt32(shift)) & 0xF == 0 { shift -= 4 }
            while shift >= 0 { out.append(digits[Int((v >> UInt32(shift)) & 0xF)]); shift -= 4 }
        }
        for i in u.indices {
            let a = u[i].value, b = i + 1 < u.count ? u[i + 1].value : 1
            let pair = UInt64(a) << 32 | UInt64(b)
            if pairs.contains(pair) { continue }
            pairs.append(pair)
            if !out.isEmpty { out.append(0x20) }
            out.append(contentsOf: String(code).utf8)
            out.append(UInt8(ascii: "x"))
            hex(a)
            out.append(UInt8(ascii: "x"))
            hex(b)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The FTS5 query (`search_bigram MATCH`) for the terms of field `code` containing `query`
    /// (1 or 2 Unicode scalars): the 2-character token, or a prefix query for 1 character.
    static func bigramMatch(code: Int, _ query: String) -> String {
        let u = Array(query.unicodeScalars)
        if u.count >= 2 { return "\"" + bigramToken(code: code, u[0], u[1]) + "\"" }
        return "\"" + String(code) + "x" + String(u[0].value, radix: 16) + "x\" *"
    }

    /// Every 2-character substring of `form` (Unicode scalars), and its last character followed
    /// by U+0001, without duplicates: a term contains a 2-character query when it has that
    /// gram, and a 1-character query when it has a gram starting with it.
    static func grams(_ form: String) -> [String] {
        let u = Array(form.unicodeScalars)
        var pairs: [UInt64] = []
        pairs.reserveCapacity(u.count)
        for i in u.indices { pairs.append(UInt64(u[i].value) << 32 | UInt64(i + 1 < u.count ? u[i + 1].value : 1)) }
        var seen = Set<UInt64>()
        return pairs.filter { seen.insert($0).inserted }.map {
            String(String.UnicodeScalarView([Unicode.Scalar(UInt32($0 >> 32))!, Unicode.Scalar(UInt32($0 & 0xFFFF_FFFF))!]))
        }
    }
}
