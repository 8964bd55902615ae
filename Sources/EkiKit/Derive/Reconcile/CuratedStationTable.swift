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
        var out: [Entry] = []
        try CuratedCSV.records(csv, file: file, valueColumns: [valueColumn], operators: operators) { r, fail in
            guard let value = parse(r[2]) else { throw fail(valueColumn, invalid(r[2])) }
            if let why = check(r[1], value) { throw fail(valueColumn, why) }
            out.append(Entry(operatorID: r[0], station: r[1], value: value, source: r[3]))
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

/// The records of a curated per-station CSV (`operator,station,<value columns…>,source`), checked
/// for what every such table needs: the header, the field count, a known operator id, a station
/// name, a cited source. Blank lines are skipped.
enum CuratedCSV {
    /// Calls `each` with the fields of every record, in order, and a maker of errors naming
    /// `file`, the record's line and a field.
    /// - Throws: `OperatorTableError` for the first bad record, or what `each` throws.
    static func records(_ csv: String, file: String, valueColumns: [String], operators: OperatorTable,
                        _ each: (_ fields: [String], _ fail: (String, String) -> OperatorTableError) throws -> Void) throws {
        var reader = CSVReader(bytes: Array(csv.utf8), file: file)
        var header = true
        let columns = ["operator", "station"] + valueColumns + ["source"]
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
                let line = reader.line
                let fail = { (field: String, why: String) in OperatorTableError(file: file, line: line, message: "field \(field): \(why)") }
                guard r.count == columns.count else { throw fail("*", "\(r.count) fields, expected \(columns.count)") }
                guard operators[id: r[0]] != nil else { throw fail("operator", "\(r[0]) is not an operator id") }
                guard !r[1].isEmpty else { throw fail("station", "empty") }
                guard !r[columns.count - 1].allSatisfy({ $0 == " " }) else { throw fail("source", "every row cites its source") }
                try each(r, fail)
            }
        } catch let e as CSVError {
            throw OperatorTableError(file: file, line: e.line, message: e.message)
        }
    }
}
