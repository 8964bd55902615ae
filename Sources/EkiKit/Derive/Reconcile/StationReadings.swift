/// Curated readings of one station name that differ by operator, which no source gives per
/// operator: `Datasets/station-readings.csv`, compiled in (`Scripts/gen-station-tables.py`).
/// station_database has one record for 西院 and reads it `さいいん(さい)`; 京福電気鉄道 reads
/// it さい, 阪急電鉄 さいいん.
///
/// A row is the operator id (`OperatorTable`), the station name as a source writes it (matched
/// by `TextFold.nameKey`), the reading (hiragana) and its source.
public typealias StationReadings = CuratedStationTable<String>

/// The compiled-in table; the generator checked its text, so a failure here is a build defect.
private let builtInStationReadings = try! StationReadings(csv: StationReadings.builtInCSV, file: "Datasets/station-readings.csv")

extension CuratedStationTable where Value == String {
    /// The table shipped with the library.
    public static var builtIn: StationReadings { builtInStationReadings }

    /// Reads the table: header `operator,station,reading,source`, one station a record.
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record
    ///   (an operator id `operators` does not know, an empty station or reading, no source).
    public init(csv: String, file: String, operators: OperatorTable = .builtIn) throws {
        try self.init(csv: csv, file: file, valueColumn: "reading", operators: operators,
                      parse: { $0.isEmpty ? nil : $0 }, invalid: { _ in "empty" })
    }

    /// The reading of the station `nameKey` (`TextFold.nameKey`) of operator `operatorID`, if listed.
    public func reading(operatorID: String, nameKey: String) -> String? {
        value(operatorID: operatorID, nameKey: nameKey)
    }
}

extension CuratedStationTable.Entry where Value == String {
    public init(operatorID: String, station: String, reading: String, source: String) {
        self.init(operatorID: operatorID, station: station, value: reading, source: source)
    }

    /// The operator's reading, hiragana.
    public var reading: String {
        get { value }
        set { value = newValue }
    }
}
