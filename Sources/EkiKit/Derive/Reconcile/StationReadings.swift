/// Curated readings of one station name that differ by operator, which no source gives per
/// operator: `Datasets/station-readings.csv`, compiled in (`Scripts/gen-station-tables.py`).
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
        for e in entries { m[CuratedStationRows.key(e.operatorID, TextFold.nameKey(e.station))] = e.reading }
        byKey = m
    }

    /// Reads the table: header `operator,station,reading,source`, one station a record.
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record
    ///   (an operator id `operators` does not know, an empty station or reading, no source).
    public init(csv: String, file: String, operators: OperatorTable = .builtIn) throws {
        let rows = try CuratedStationRows.read(csv: csv, file: file, valueColumn: "reading", operators: operators,
                                               parse: { $0.isEmpty ? nil : $0 }, invalid: { _ in "empty" })
        self.init(entries: rows.map { Entry(operatorID: $0.operatorID, station: $0.station, reading: $0.value, source: $0.source) })
    }

    /// The reading of the station `nameKey` (`TextFold.nameKey`) of operator `operatorID`, if listed.
    public func reading(operatorID: String, nameKey: String) -> String? {
        byKey[CuratedStationRows.key(operatorID, nameKey)]
    }
}
