/// Station names as the operator writes them today, where the sources write them otherwise:
/// `Datasets/station-names.csv`, compiled in (`Scripts/gen-station-tables.py`). Most spellings
/// come from the newer source (`SourceReconciler.spellingOnly`); the table lists the stations
/// where the newer source has another spelling than the operator (station_database writes
/// 各務ヶ原, JR東海 各務ケ原) or gives two (`市ケ谷(市ヶ谷)`: JR東日本 and 東京メトロ write 市ケ谷,
/// 都営 市ヶ谷).
///
/// A row is the operator id (`OperatorTable`), the station name as a source writes it (matched
/// by `TextFold.nameKey`), the name as the operator writes it (the same `nameKey`, so the
/// entry's key does not change) and its source.
public typealias StationNames = CuratedStationTable<StationSpelling>

/// A station's name as its operator writes it (`StationNames`).
public struct StationSpelling: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public init(_ name: String) { self.name = name }
    public var description: String { name }
}

/// The compiled-in table; the generator checked its text, so a failure here is a build defect.
private let builtInStationNames = try! StationNames(csv: StationNames.builtInCSV, file: "Datasets/station-names.csv")

extension CuratedStationTable where Value == StationSpelling {
    /// The table shipped with the library.
    public static var builtIn: StationNames { builtInStationNames }

    /// Reads the table: header `operator,station,name,source`, one station a record.
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record
    ///   (an operator id `operators` does not know, an empty station, a name whose
    ///   `TextFold.nameKey` is not the station's, no source).
    public init(csv: String, file: String, operators: OperatorTable = .builtIn) throws {
        try self.init(csv: csv, file: file, valueColumn: "name", operators: operators,
                      parse: { $0.isEmpty ? nil : StationSpelling($0) }, invalid: { _ in "empty" },
                      check: { station, spelling in
                          TextFold.nameKey(station) == TextFold.nameKey(spelling.name) ? nil
                              : "\(spelling.name) is not a spelling of \(station) (the two fold apart)"
                      })
    }

    /// The operator's spelling of the station `nameKey` (`TextFold.nameKey`) of `operatorID`, if listed.
    public func name(operatorID: String, nameKey: String) -> String? {
        value(operatorID: operatorID, nameKey: nameKey)?.name
    }
}
