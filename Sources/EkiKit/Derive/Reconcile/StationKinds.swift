/// Curated kinds of stop that no source gives (`StationKind`): `Datasets/station-kinds.csv`,
/// compiled in (`Scripts/gen-station-tables.py`). station_database's `station.csv` has no such
/// column (its `attr` is the game's attribute) and N02 lists every stop alike, so the
/// staff-only stops of 黒部峡谷鉄道 and the seasonal 臨時駅 are listed here, each row citing the
/// operator's page or timetable.
///
/// A row is the operator id (`OperatorTable`), the station name as a source writes it (matched
/// by `TextFold.nameKey`), the kind and its source. Stations not listed are `regular`.
public typealias StationKinds = CuratedStationTable<StationKind>

/// The compiled-in table; the generator checked its text, so a failure here is a build defect.
private let builtInStationKinds = try! StationKinds(csv: StationKinds.builtInCSV, file: "Datasets/station-kinds.csv")

extension CuratedStationTable where Value == StationKind {
    /// The table shipped with the library.
    public static var builtIn: StationKinds { builtInStationKinds }

    /// Reads the table: header `operator,station,kind,source`, one station a record.
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record
    ///   (an operator id `operators` does not know, an empty station, a kind other than
    ///   `regular`, `seasonal`, `staff-only`, no source).
    public init(csv: String, file: String, operators: OperatorTable = .builtIn) throws {
        try self.init(csv: csv, file: file, valueColumn: "kind", operators: operators,
                      parse: { StationKind(rawValue: $0) },
                      invalid: { "\($0) is not regular, seasonal or staff-only" })
    }

    /// The kind of the station `nameKey` (`TextFold.nameKey`) of operator `operatorID`, if listed.
    public func kind(operatorID: String, nameKey: String) -> StationKind? {
        value(operatorID: operatorID, nameKey: nameKey)
    }
}

extension CuratedStationTable.Entry where Value == StationKind {
    public init(operatorID: String, station: String, kind: StationKind, source: String) {
        self.init(operatorID: operatorID, station: station, value: kind, source: source)
    }

    public var kind: StationKind {
        get { value }
        set { value = newValue }
    }
}
