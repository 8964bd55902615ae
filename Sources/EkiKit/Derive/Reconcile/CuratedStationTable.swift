/// A curated per-station table (`StationKinds`, `StationReadings`): a CSV with header
/// `operator,station,<value>,source`, one station a record, every record citing its source,
/// looked up by operator id and folded name (`TextFold.nameKey`).
public struct CuratedStationTable<Value: Sendable & Equatable>: Sendable {
    public struct Entry: Sendable, Equatable {
        /// Operator id (`OperatorTable`).
        public var operatorID: String
        /// Station name as written in the table.
        public var station: String
        /// The third column (a `StationKind`, a reading).
        public var value: Value
        /// Where the fact comes from.
        public var source: String
    }

    public var entries: [Entry]
    /// Value by `key(operatorID, nameKey)`.
    let byKey: [String: Value]

    public init(entries: [Entry]) {
        self.entries = entries
        var m: [String: Value] = [:]
        for e in entries { m[Self.key(e.operatorID, TextFold.nameKey(e.station))] = e.value }
        byKey = m
    }

    /// No curated rows: every station is `regular` (`StationKinds`), no reading is curated.
    public static var none: Self { Self(entries: []) }

    /// Reads `csv` (the table's text; `file` names it in errors).
    /// - Parameters:
    ///   - valueColumn: the third column's name (`kind`, `reading`).
    ///   - parse: the value of a third field, nil when it is not one (`invalid` says why).
    ///   - check: why a station and its value do not go together (nil when they do).
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record:
    ///   a wrong header, a record without four fields, an operator id `operators` does not know,
    ///   an empty station, a value `parse` or `check` refuses, an empty source.
    init(csv: String, file: String, valueColumn: String, operators: OperatorTable,
         parse: (String) -> Value?, invalid: (String) -> String,
         check: (_ station: String, _ value: Value) -> String? = { _, _ in nil }) throws {
        var reader = CSVReader(bytes: Array(csv.utf8), file: file)
        var out: [Entry] = []
        var header = true
        let columns = ["operator", "station", valueColumn, "source"]
        do {
            while let r = try reader.nextRecord() {
                if r == [""] { continue }
                if header {
                    guard r == columns else {
                        throw OperatorTableError(file: file, line: reader.line, message: "header must be " + columns.joined(separator: ","))
                    }
                    header = false
                    continue
                }
                func fail(_ field: String, _ why: String) -> OperatorTableError {
                    OperatorTableError(file: file, line: reader.line, message: "field \(field): \(why)")
                }
                guard r.count == 4 else { throw fail("*", "\(r.count) fields, expected 4") }
                guard operators[id: r[0]] != nil else { throw fail("operator", "\(r[0]) is not an operator id") }
                guard !r[1].isEmpty else { throw fail("station", "empty") }
                guard let value = parse(r[2]) else { throw fail(valueColumn, invalid(r[2])) }
                if let why = check(r[1], value) { throw fail(valueColumn, why) }
                guard !r[3].allSatisfy({ $0 == " " }) else { throw fail("source", "every row cites its source") }
                out.append(Entry(operatorID: r[0], station: r[1], value: value, source: r[3]))
            }
        } catch let e as CSVError {
            throw OperatorTableError(file: file, line: e.line, message: e.message)
        }
        self.init(entries: out)
    }

    /// The value of the station `nameKey` (`TextFold.nameKey`) of operator `operatorID`, if listed.
    public func value(operatorID: String, nameKey: String) -> Value? {
        byKey[Self.key(operatorID, nameKey)]
    }

    /// The look-up key of a station of an operator: operator id and `TextFold.nameKey`.
    static func key(_ operatorID: String, _ nameKey: String) -> String { operatorID + "\u{1F}" + nameKey }
}
