/// Curated readings of one station name that differ by operator, which no source gives per
/// operator: `Datasets/station-readings.csv`, compiled in (`Scripts/gen-station-readings.py`).
/// station_database has one record for 西院 and reads it `さいいん(さい)`; 京福電気鉄道 reads
/// it さい, 阪急電鉄 さいいん.
///
/// A row is the operator id (`OperatorTable`), the station name as a source writes it (matched
/// by `TextFold.nameKey`), the reading (hiragana) and its source.
public struct StationReadings: Sendable {
    public struct Entry: Sendable, Equatable {
        /// Operator id (`OperatorTable`).
        public var operatorID: String
        /// Station name as written in the table.
        public var station: String
        /// The operator's reading, hiragana.
        public var reading: String
        /// Where the fact comes from.
        public var source: String
    }

    public var entries: [Entry]
    /// Reading by operator id and folded name.
    let byKey: [String: String]

    /// The table shipped with the library.
    public static let builtIn: StationReadings = {
        // The generator checked the compiled-in text; a failure here is a build defect.
        try! StationReadings(csv: builtInCSV, file: "Datasets/station-readings.csv")
    }()

    /// No curated readings.
    public static let none = StationReadings(entries: [])

    public init(entries: [Entry]) {
        self.entries = entries
        var m: [String: String] = [:]
        for e in entries { m[StationKinds.key(e.operatorID, TextFold.nameKey(e.station))] = e.reading }
        byKey = m
    }

    /// Reads the table: header `operator,station,reading,source`, one station a record.
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record
    ///   (an operator id `operators` does not know, an empty station or reading, no source).
    public init(csv: String, file: String, operators: OperatorTable = .builtIn) throws {
        var reader = CSVReader(bytes: Array(csv.utf8), file: file)
        var out: [Entry] = []
        var header = true
        do {
            while let r = try reader.nextRecord() {
                if r == [""] { continue }
                if header {
                    guard r == ["operator", "station", "reading", "source"] else {
                        throw OperatorTableError(file: file, line: reader.line, message: "header must be operator,station,reading,source")
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
                guard !r[2].isEmpty else { throw fail("reading", "empty") }
                guard !r[3].allSatisfy({ $0 == " " }) else { throw fail("source", "every row cites its source") }
                out.append(Entry(operatorID: r[0], station: r[1], reading: r[2], source: r[3]))
            }
        } catch let e as CSVError {
            throw OperatorTableError(file: file, line: e.line, message: e.message)
        }
        self.init(entries: out)
    }

    /// The reading of the station `nameKey` (`TextFold.nameKey`) of operator `operatorID`, if listed.
    public func reading(operatorID: String, nameKey: String) -> String? {
        byKey[StationKinds.key(operatorID, nameKey)]
    }
}
