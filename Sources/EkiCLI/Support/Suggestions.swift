import EkiKit

/// "Did you mean …": the names closest to a mistyped one, by edit distance.
///
/// The distance is the optimal string alignment distance (Levenshtein with the swap of two
/// neighbours as one edit: `serach` → `search` is 1) over Unicode characters, so a kanji typed
/// wrong (`JR束海` → `JR東海`) is one edit like a Latin letter. Names are compared in a folded
/// form the caller gives (`SearchFold.name` for lines, `TextFold.operatorKey` for operators).
/// A candidate is suggested when its distance is at most a third of the query's length
/// (at least 1, at most 3): closer ones first, then in the candidates' order.
enum Suggestions {
    /// One thing that may be suggested: how it is shown, and every name it is known by.
    struct Candidate {
        var label: String
        var names: [String]
    }

    /// The optimal string alignment distance between `a` and `b`.
    static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a), t = Array(b)
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        // Three rows of the dynamic-programming table: two back (for swaps), previous, current.
        var before = [Int](repeating: 0, count: t.count + 1)
        var previous = Array(0...t.count)
        var current = [Int](repeating: 0, count: t.count + 1)
        for i in 1...s.count {
            current[0] = i
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[t.count]
    }

    /// The largest distance suggested for a query of `length` characters.
    static func limit(forLength length: Int) -> Int { max(1, min(3, length / 3)) }

    /// The labels of the candidates closest to `query` (each candidate by its nearest name),
    /// at most `count`, closest first; empty when none is close enough.
    static func closest(to query: String, among candidates: [Candidate], fold: (String) -> String = { $0 },
                        count: Int = 3) -> [String] {
        let q = fold(query)
        let limit = limit(forLength: q.count)
        var scored: [(distance: Int, order: Int, label: String)] = []
        var seen = Set<String>()
        for (order, c) in candidates.enumerated() where !seen.contains(c.label) {
            // Length differences bound the distance from below: skip names that cannot be close.
            let d = c.names.map(fold).filter { abs($0.count - q.count) <= limit }.map { distance(q, $0) }.min()
            guard let d, d <= limit else { continue }
            seen.insert(c.label)
            scored.append((d, order, c.label))
        }
        return scored.sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }.prefix(count).map(\.label)
    }

    /// `; did you mean A?`, `; did you mean A or B?`, `; did you mean A, B or C?`; empty for none.
    static func didYouMean(_ labels: [String]) -> String {
        guard let last = labels.last else { return "" }
        let list = labels.count == 1 ? last : labels.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(list)?"
    }
}

/// A name that matches nothing in the database (a data error: exit 1), with the closest
/// names when some are close.
struct NotFoundError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Lines and operators by a name a person typed, with suggestions when the name matches none.
enum NameLookup {
    /// Every line as a candidate: labelled `name (operator)`, known by its name and aliases.
    static func lineCandidates(_ store: StationStore) throws -> [Suggestions.Candidate] {
        try store.lines.all(includeClosed: true).flatMap { l in
            // Each name is its own suggestion (山形新幹線 is a name of JR東日本's 奥羽線).
            ([l.name] + l.aliases.filter { $0 != l.name }).map {
                Suggestions.Candidate(label: "\($0) (\(l.operatorName))", names: [$0])
            }
        }
    }

    /// The lines `name` gives (`LineTable.named`).
    /// - Throws: `NotFoundError` naming the closest line names when none has that name;
    ///   `UsageError` when it names several lines that are not sections of one common name.
    static func lines(_ name: String, store: StationStore) throws -> [LineDetail] {
        let found = try store.lines.named(name)
        guard !found.isEmpty else {
            let close = Suggestions.closest(to: name, among: try lineCandidates(store), fold: SearchFold.name)
            throw NotFoundError(message: "no line is called '\(name)'"
                                + (close.isEmpty ? " (`eki lines` lists them)" : Suggestions.didYouMean(close)))
        }
        if found.count > 1, found.contains(where: { $0.section == nil }) {
            throw UsageError("'\(name)' names \(found.count) lines: \(found.map(\.line.id).joined(separator: ", ")); give one id")
        }
        return found
    }

    /// Checks that `name` is an operator with lines in the database (its id or any name the
    /// operator table knows).
    /// - Throws: `NotFoundError` naming the closest operators that have lines.
    static func checkOperator(_ name: String, store: StationStore) throws {
        let table = try store.info.operatorTable()
        let withLines = try store.lines.all(includeClosed: true)
        let ids = withLines.map(\.operatorID)
        if let id = table.operatorID(for: name) ?? (ids.contains(name) ? name : nil), ids.contains(id) { return }
        var candidates: [Suggestions.Candidate] = [], seen = Set<String>()
        for id in ids where seen.insert(id).inserted {
            let op = table[id: id]
            let names = [id] + (op.map { [$0.name, $0.shortName] + $0.english + $0.aliases } ?? [])
            candidates.append(Suggestions.Candidate(label: "\(op?.shortName ?? id) (\(id))", names: names))
        }
        let close = Suggestions.closest(to: name, among: candidates, fold: TextFold.operatorKey)
        let known = table.resolve(name).map { "\($0.shortName) (\($0.id)) has no lines in this database" }
        throw NotFoundError(message: (known ?? "no operator with lines is called '\(name)'")
                            + (close.isEmpty ? " (`eki lines` lists the operators)" : Suggestions.didYouMean(close)))
    }
}
