import Foundation

/// A railway operator (事業者) as the operator table knows it.
///
/// Facts come from `Datasets/operators.csv` (see `OperatorTable.builtIn`); names are as the
/// sources write them: `name` is the formal name without 株式会社 as 国土数値情報 N02 writes it
/// (東日本旅客鉄道, 東京都 for 都営), `shortName` the name people use (JR東日本, 都営).
public struct Operator: Hashable, Sendable {
    /// Stable ASCII id (`jr-east`, `tokyo-metro`, `willer-trains`); never reused for another operator.
    public var id: String
    /// Formal name as N02 writes it, without 株式会社.
    public var name: String
    /// Short or brand name (JR東日本, 東京メトロ, Osaka Metro).
    public var shortName: String
    /// Reading of `name` in hiragana.
    public var kana: String
    /// English names, most common first (`["JR East", "East Japan Railway Company"]`).
    public var english: [String]
    /// Other spellings that name this operator: station_database's names, former names, brand names.
    public var aliases: [String]
    /// Id of the operator that took this one over (merger, transfer of the railway business),
    /// or nil while it exists or when no single operator did (日本国有鉄道).
    public var successor: String?
    /// 13-digit corporate number (法人番号), only where a source here shows it; GTFS-JP
    /// agency_ids start with it.
    public var corporateNumber: String?
    /// Free text: what happened when, what it runs.
    public var note: String?

    public init(id: String, name: String, shortName: String, kana: String, english: [String] = [],
                aliases: [String] = [], successor: String? = nil, corporateNumber: String? = nil,
                note: String? = nil) {
        self.id = id
        self.name = name
        self.shortName = shortName
        self.kana = kana
        self.english = english
        self.aliases = aliases
        self.successor = successor
        self.corporateNumber = corporateNumber
        self.note = note
    }
}

/// A problem in a user alias file: the file, the 1-based line (nil when the file as a whole is
/// the problem) and what is wrong. Printed as `file:line: message`.
public struct OperatorTableError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// Maps operator names as sources write them to one operator row and its stable id.
///
/// Matching is by `TextFold.operatorKey` (NFKC, spaces incl. U+3000, 株式会社/(株) and ASCII case
/// folded) against each operator's id, name, short name, English names and aliases; so
/// `WILLER　TRAINS`, `WILLER TRAINS株式会社` and 京都丹後鉄道 name the same operator. A GTFS-JP
/// agency_id (`7140001011983_1`) or a bare corporate number resolves by corporate number.
/// `resolve` then follows `successor` to the operator that runs the railway today (新京成電鉄 →
/// 京成電鉄, 大阪市交通局 → Osaka Metro).
public struct OperatorTable: Sendable {
    /// Every operator, in the order given.
    public private(set) var operators: [Operator]
    private var indexByID: [String: Int] = [:]
    private var indexByKey: [String: Int] = [:]
    private var indexByCorporateNumber: [String: Int] = [:]

    /// The table compiled from `Datasets/operators.csv` (via `Scripts/gen-operator-table.py`):
    /// every operator of N02-23 and of station_database's company.csv, closed ones included.
    public static let builtIn = OperatorTable(operators: builtInOperators)

    /// A table of the given operators. An operator whose id repeats an earlier one is left out.
    /// When two operators share a match key, ids win over names, names over short names, short
    /// names over English names and English names over aliases; within one kind the earlier
    /// operator wins. (The built-in table has no shared keys; the generator checks it.)
    public init(operators: [Operator]) {
        self.operators = []
        for op in operators where indexByID[op.id] == nil {
            indexByID[op.id] = self.operators.count
            self.operators.append(op)
        }
        let kinds: [(Operator) -> [String]] = [{ [$0.id] }, { [$0.name] }, { [$0.shortName] },
                                                { $0.english }, { $0.aliases }]
        for names in kinds {
            for (i, op) in self.operators.enumerated() {
                for name in names(op) {
                    let key = TextFold.operatorKey(name)
                    if !key.isEmpty && indexByKey[key] == nil { indexByKey[key] = i }
                }
            }
        }
        for (i, op) in self.operators.enumerated() {
            if let n = op.corporateNumber, indexByCorporateNumber[n] == nil { indexByCorporateNumber[n] = i }
        }
    }

    /// The operator with this id (exactly), without following successors.
    public subscript(id id: String) -> Operator? {
        indexByID[id].map { operators[$0] }
    }

    /// The operator a name refers to, or nil when the table does not know it.
    ///
    /// - Parameters:
    ///   - name: an operator name in any source's spelling, an operator id, a GTFS-JP agency_id
    ///     (`7140001011983_1`; surrounding spaces ignored) or a bare 13-digit corporate number.
    ///   - followSuccessors: when true (the default), an operator that was taken over resolves to
    ///     the one that took it over, repeatedly (東京急行電鉄 → 東急電鉄).
    public func resolve(_ name: String, followSuccessors: Bool = true) -> Operator? {
        guard let i = index(of: name) else { return nil }
        return operators[followSuccessors ? current(i) : i]
    }

    /// The id of the operator `name` refers to, successors followed; nil for nil, empty or
    /// unknown names (callers keep those under their own name).
    public func operatorID(for name: String?) -> String? {
        guard let name else { return nil }
        return resolve(name)?.id
    }

    /// Adds the aliases of a user file (`--operators`): CSV (RFC 4180, UTF-8) with the header
    /// `alias,operator`, then one `alias,operator` record per line, where operator is an id
    /// (`jr-east`) or any name the table already resolves (東日本旅客鉄道). Blank lines are
    /// skipped. A user alias replaces a built-in match of the same key. Nothing is added unless
    /// the whole file is valid.
    ///
    /// - Throws: `OperatorTableError` naming the file and line when the file cannot be read, is
    ///   not UTF-8, lacks the header, has a record without exactly two fields, an empty alias or
    ///   an operator the table does not know.
    public mutating func addAliases(fromFile path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw OperatorTableError(file: path, line: nil, message: "cannot read the alias file (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw OperatorTableError(file: path, line: nil, message: "not UTF-8")
        }
        try addAliases(csv: text, file: path)
    }

    /// Adds the aliases of an alias file's text (see `addAliases(fromFile:)`); `file` names it
    /// in errors.
    public mutating func addAliases(csv: String, file path: String) throws {
        let records = try AliasCSV.records(csv, file: path)   // a leading BOM is skipped
        guard let header = records.first(where: { !$0.isBlank }) else {
            throw OperatorTableError(file: path, line: 1, message: "empty file; expected the header alias,operator")
        }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard names == ["alias", "operator"] else {
            throw OperatorTableError(file: path, line: header.line,
                                     message: "expected the header alias,operator, found \(header.fields.joined(separator: ","))")
        }
        var additions: [(key: String, alias: String, index: Int)] = []
        for record in records where record.line > header.line && !record.isBlank {
            guard record.fields.count == 2 else {
                throw OperatorTableError(file: path, line: record.line,
                                         message: "expected 2 fields (alias,operator), found \(record.fields.count)")
            }
            let alias = record.fields[0].trimmingCharacters(in: .whitespaces)
            let target = record.fields[1].trimmingCharacters(in: .whitespaces)
            let key = TextFold.operatorKey(alias)
            guard !key.isEmpty else {
                throw OperatorTableError(file: path, line: record.line, message: "empty alias")
            }
            guard !target.isEmpty else {
                throw OperatorTableError(file: path, line: record.line, message: "empty operator for alias \(alias)")
            }
            guard let i = indexByID[target] ?? index(of: target) else {
                throw OperatorTableError(file: path, line: record.line,
                                         message: "unknown operator \(target) (neither an id nor a name in the operator table)")
            }
            additions.append((key, alias, i))
        }
        for a in additions {
            operators[a.index].aliases.append(a.alias)
            indexByKey[a.key] = a.index
        }
    }

    /// The row a name matches, without following successors.
    private func index(of name: String) -> Int? {
        let trimmed = TextFold.nfkc(name).trimmingCharacters(in: .whitespacesAndNewlines)
        if let number = Self.corporateNumber(inAgencyID: trimmed), let i = indexByCorporateNumber[number] {
            return i
        }
        let key = TextFold.operatorKey(trimmed)
        return key.isEmpty ? nil : indexByKey[key]
    }

    /// The end of the successor chain from row `i`; a loop (possible only in a hand-made table)
    /// stops at the last operator before it repeats.
    private func current(_ i: Int) -> Int {
        var i = i
        var seen: Set<Int> = [i]
        while let next = operators[i].successor, let j = indexByID[next], seen.insert(j).inserted {
            i = j
        }
        return i
    }

    /// The corporate number of a GTFS-JP agency_id (`7140001011983_1`) or of a bare 13-digit
    /// number; nil for anything else.
    static func corporateNumber(inAgencyID s: String) -> String? {
        func isDigit(_ u: Unicode.Scalar) -> Bool { ("0"..."9").contains(u) }
        func isWordChar(_ u: Unicode.Scalar) -> Bool {
            isDigit(u) || ("a"..."z").contains(u) || ("A"..."Z").contains(u) || u == "_" || u == "-"
        }
        let u = Array(s.unicodeScalars)
        guard u.count >= 13, u[..<13].allSatisfy(isDigit) else { return nil }
        guard u.count == 13 || (u.count > 14 && u[13] == "_" && u[14...].allSatisfy(isWordChar)) else { return nil }
        return String(s.prefix(13))
    }
}

/// Alias file records, read with `CSVReader` (strict about quotes).
private enum AliasCSV {
    struct Record {
        var line: Int
        var fields: [String]
        var isBlank: Bool { fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
    }

    static func records(_ text: String, file: String) throws -> [Record] {
        var reader = CSVReader(bytes: Array(text.utf8), file: file, strictQuotes: true)
        var records: [Record] = []
        do {
            while let fields = try reader.nextRecord() { records.append(Record(line: reader.line, fields: fields)) }
        } catch {
            throw OperatorTableError(file: file, line: error.line, message: error.message)
        }
        return records
    }
}

extension Station {
    /// The operator as people say it: the operator table's short name (JR東海, 東京メトロ) when
    /// the table knows the operator, else the name as published; nil when unknown.
    public var operatorLabel: String? {
        OperatorTable.builtIn[id: operatorID]?.shortName ?? operatorName
    }
}
