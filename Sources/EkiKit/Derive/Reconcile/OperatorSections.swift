import Foundation

/// Curated facts of which operator runs which section of a line, for what no source gets right
/// (a line a source files under one company for its whole length, a transfer after a source's
/// edition): `Datasets/operator-sections.csv`, compiled in (`Scripts/gen-operator-sections.py`).
///
/// A section is a line (matched by `LineKey.fold`, so `北陸本線` covers N02-23's `北陸線` and
/// station_database's `JR北陸本線(金沢～敦賀)`), two stations on it (both included; empty for
/// the whole line), the operator id (`OperatorTable`) and the date it took over. Which stations
/// lie between `from` and `to` is read from the rows themselves: the stations of the line (from
/// every source) are joined by a minimum spanning tree of their points, and the section is the
/// tree path between the two (a line's stations form such a path; branches off it stay out).
public struct OperatorSections: Sendable {
    public struct Section: Sendable, Equatable {
        /// The line as written in the table, and its folded key.
        public var line: String
        public var lineKey: String
        /// First and last station of the section (included), or nil for the whole line.
        public var from: String?
        public var to: String?
        /// Operator id (`OperatorTable`).
        public var operatorID: String
        /// Date (YYYY-MM-DD) the operator took the section over.
        public var since: String
        /// Where the fact comes from.
        public var source: String
    }

    public var sections: [Section]

    /// The table shipped with the library.
    public static let builtIn: OperatorSections = {
        // The generator checked the compiled-in text; a failure here is a build defect.
        try! OperatorSections(csv: builtInCSV, file: "Datasets/operator-sections.csv")
    }()

    /// No sections.
    public static let none = OperatorSections(sections: [])

    public init(sections: [Section]) { self.sections = sections }

    /// Reads the table: header `line,from,to,operator,since,source`, one section a record.
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record
    ///   (a missing line, only one of from/to, an operator id `operators` does not know, a
    ///   `since` that is not YYYY-MM-DD, no source).
    public init(csv: String, file: String, operators: OperatorTable = .builtIn) throws {
        var reader = CSVReader(bytes: Array(csv.utf8), file: file)
        var out: [Section] = []
        var header = true
        do {
            while let r = try reader.nextRecord() {
                if r == [""] { continue }
                if header {
                    guard r == ["line", "from", "to", "operator", "since", "source"] else {
                        throw OperatorTableError(file: file, line: reader.line,
                                                 message: "header must be line,from,to,operator,since,source")
                    }
                    header = false
                    continue
                }
                func fail(_ field: String, _ why: String) -> OperatorTableError {
                    OperatorTableError(file: file, line: reader.line, message: "field \(field): \(why)")
                }
                guard r.count == 6 else { throw fail("*", "\(r.count) fields, expected 6") }
                guard !r[0].isEmpty else { throw fail("line", "empty") }
                guard r[1].isEmpty == r[2].isEmpty else { throw fail("from/to", "give both or neither") }
                guard operators[id: r[3]] != nil else { throw fail("operator", "\(r[3]) is not an operator id") }
                guard r[4].count == 10, r[4].split(separator: "-").count == 3 else { throw fail("since", "\(r[4]) is not YYYY-MM-DD") }
                guard !r[5].trimmingCharacters(in: .whitespaces).isEmpty else { throw fail("source", "every row cites its source") }
                out.append(Section(line: r[0], lineKey: LineKey.fold(r[0]), from: r[1].isEmpty ? nil : r[1],
                                   to: r[2].isEmpty ? nil : r[2], operatorID: r[3], since: r[4], source: r[5]))
            }
        } catch let e as CSVError {
            throw OperatorTableError(file: file, line: e.line, message: e.message)
        }
        sections = out
    }
}

extension OperatorSections {
    /// For each row index of `rows`, the first section (in table order) that covers it, if any.
    /// `lineKeys(i)` are the folded lines of row i; `nameKeys[i]` its folded name.
    func cover(rows: [SourceRecord], lineKeys: (Int) -> [String], nameKeys: [String]) -> [Int: Int] {
        guard !sections.isEmpty else { return [:] }
        let wanted = Set(sections.map(\.lineKey))
        var byLine: [String: [Int]] = [:]
        for i in rows.indices {
            for k in lineKeys(i) where wanted.contains(k) { byLine[k, default: []].append(i) }
        }
        var result: [Int: Int] = [:]
        for (si, s) in sections.enumerated() {
            guard let members = byLine[s.lineKey] else { continue }
            var inSection: Set<String>? = nil            // nil: the whole line
            if let from = s.from, let to = s.to {
                inSection = Self.path(from: TextFold.nameKey(from), to: TextFold.nameKey(to),
                                      stations: members.map { (nameKeys[$0], rows[$0].coordinate) })
            }
            for i in members where result[i] == nil && (inSection?.contains(nameKeys[i]) ?? true) {
                result[i] = si
            }
        }
        return result
    }

    /// The station names on the minimum-spanning-tree path from `from` to `to` (both included),
    /// one point per name (the first given); empty when either is missing.
    static func path(from: String, to: String, stations: [(String, Coordinate)]) -> Set<String> {
        var names: [String] = []
        var points: [Coordinate] = []
        var seen = Set<String>()
        for (n, c) in stations.sorted(by: { ($0.0, $0.1.lat, $0.1.lon) < ($1.0, $1.1.lat, $1.1.lon) })
        where seen.insert(n).inserted {
            names.append(n)
            points.append(c)
        }
        guard let a = names.firstIndex(of: from), let b = names.firstIndex(of: to) else { return [] }
        // Prim's algorithm, O(n²) over one line's stations (tens to a few hundred).
        let n = names.count
        var parent = [Int](repeating: -1, count: n)
        var best = [Double](repeating: .infinity, count: n)
        var done = [Bool](repeating: false, count: n)
        best[a] = 0
        for _ in 0..<n {
            var u = -1
            for v in 0..<n where !done[v] && (u < 0 || best[v] < best[u]) { u = v }
            done[u] = true
            for v in 0..<n where !done[v] {
                let d = RowDistance.metres(points[u], points[v])
                if d < best[v] { best[v] = d; parent[v] = u }
            }
        }
        // The tree is rooted at `from`: walk up from `to`.
        var out: Set<String> = []
        var v = b
        while v >= 0 { out.insert(names[v]); v = parent[v] }
        return out
    }
}
