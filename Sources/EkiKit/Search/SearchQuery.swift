import EkiSQLite
import Foundation

/// A query folded once per field, with the ways each field may match it (exact, prefix,
/// partial) as SQL over the search index. The query only ever reaches SQLite as bound values.
struct SearchQuery {
    /// The query in one field's fold.
    struct FieldQuery {
        var field: SearchField
        /// What prefix and partial matches start from: the fold without a trailing 駅 / えき / eki.
        var base: String
        /// The whole fold (equal to `base` when there was no trailing 駅); an exact match of
        /// either counts as exact, so 富山駅 finds both 富山 and the tram stop 富山駅.
        var full: String
    }

    /// How well a field matches, best first.
    enum Tier: Int, Comparable {
        case exact, prefix, partial
        static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
    }

    let fields: [FieldQuery]

    /// Folds `text` for every field of `scope`. Kana and kanji queries are not compared with
    /// romanized names; Latin-script ones are (and with names, lines and operators, which may
    /// contain Latin letters: JR, YRP野比).
    init(_ text: String, scope: SearchOptions.Scope) {
        var out: [FieldQuery] = []
        for field in scope.fields {
            let full: String, base: String
            switch field {
            case .name:
                full = SearchFold.name(text)
                base = full.count > 1 && full.hasSuffix("駅") ? String(full.dropLast()) : full
            case .reading:
                full = SearchFold.reading(text)
                base = full.count > 3 && full.hasSuffix("えき") ? String(full.dropLast(2)) : full
            case .romaji:
                full = TextFold.isJapanese(text) ? "" : SearchFold.romaji(text)
                base = full.count > 5 && full.hasSuffix("eki") ? String(full.dropLast(3)) : full
            case .line:
                full = SearchFold.name(text); base = full
            case .operator:
                // Any name the operator table knows (JR東海, JR Central, jr-central) also matches
                // the formal name entries show (東海旅客鉄道) exactly.
                base = SearchFold.operatorName(text)
                full = (OperatorTable.builtIn[id: text] ?? OperatorTable.builtIn.resolve(text))
                    .map { SearchFold.operatorName($0.name) } ?? base
            }
            if !base.isEmpty { out.append(FieldQuery(field: field, base: base, full: full)) }
        }
        fields = out
    }

    /// A `SELECT` of the ids of the terms of `q.field` that match at `tier` and no better
    /// (every value bound).
    static func termSelect(_ tier: Tier, _ q: FieldQuery) -> SQL {
        let code = SearchIndex.code(q.field)
        switch tier {
        case .exact:
            return "SELECT id FROM search_term WHERE field = \(code) AND form IN (\(q.base), \(q.full))"
        case .prefix:
            return "SELECT id FROM search_term WHERE field = \(code) AND form > \(q.base) AND form < \(q.base + "\u{10FFFF}") AND form <> \(q.full)"
        case .partial:
            let notPrefix: SQL = "NOT (t.form >= \(q.base) AND t.form < \(q.base + "\u{10FFFF}"))"
            if q.base.unicodeScalars.count <= 2 {
                return """
                    SELECT t.id FROM search_bigram CROSS JOIN search_term t ON t.id = search_bigram.rowid
                    WHERE search_bigram MATCH \(SearchIndex.bigramMatch(code: code, q.base)) AND \(sql: notPrefix)
                    """
            }
            return """
                SELECT t.id FROM search_fts CROSS JOIN search_term t ON t.id = search_fts.rowid
                WHERE search_fts MATCH \("f\(code) : (" + ftsPhrase(q.base) + ")") AND instr(t.form, \(q.base)) > 0 AND \(sql: notPrefix)
                """
        }
    }

    /// An SQL condition true when an entry row `e` of `search_entry` matches `q` at `tier` or
    /// better (every value bound).
    static func entryTest(_ tier: Tier, _ q: FieldQuery) -> SQL {
        let column = "e." + SearchIndex.column(q.field)
        switch tier {
        case .exact:
            let tests = Set([q.base, q.full]).sorted().map { form -> SQL in "instr(\(raw: column), \("\u{1}" + form + "\u{1}")) > 0" }
            return "(\(sql: SQL.joined(tests, separator: " OR ")))"
        case .prefix: return "instr(\(raw: column), \("\u{1}" + q.base)) > 0"
        case .partial: return "instr(\(raw: column), \(q.base)) > 0"
        }
    }

    /// The same test in Swift, on the framed forms of one field.
    static func matches(_ tier: Tier, _ q: FieldQuery, framed: String) -> Bool {
        guard !framed.isEmpty else { return false }
        switch tier {
        case .exact: return framed.contains("\u{1}" + q.base + "\u{1}") || framed.contains("\u{1}" + q.full + "\u{1}")
        case .prefix: return framed.contains("\u{1}" + q.base)
        case .partial: return framed.contains(q.base)
        }
    }

    /// An FTS5 query that is only data: every trigram of `s` as a quoted string (inner quotes
    /// doubled), all required. Matches terms containing every trigram; `instr` then checks the
    /// whole query. (`termSelect` limits it to one field's column.)
    static func ftsPhrase(_ s: String) -> String {
        let u = Array(s.unicodeScalars)
        var grams: [String] = []
        for i in 0...(u.count - 3) {
            let g = String(String.UnicodeScalarView(u[i..<(i + 3)]))
            if !grams.contains(g) { grams.append(g) }
        }
        return grams.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " ")
    }
}
