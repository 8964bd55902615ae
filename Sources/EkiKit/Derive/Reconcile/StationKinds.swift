/// Curated kinds of stop that no source gives (`StationKind`): `Datasets/station-kinds.csv`,
/// compiled in (`Scripts/gen-station-tables.py`). station_database's `station.csv` has no such
/// column (its `attr` is the game's attribute) and N02 lists every stop alike, so the
/// staff-only stops of 黒部峡谷鉄道 and the seasonal 臨時駅 are listed here, each row citing the
/// operator's page or timetable.
///
/// A row is the operator id (`OperatorTable`), the station name as a source writes it (matched
/// by `TextFold.nameKey`), the kind and its source. Stations not listed are `regular`.
public struct StationKinds: Sendable {
    public struct Entry: Sendable, Equatable {
        /// Operator id (`OperatorTable`).
        public var operatorID: String
        /// Station name as written in the table.
        public var station: String
        public var kind: StationKind
        /// Where the fact comes from.
        public var source: String
    }

    public var entries: [Entry]
    /// Kind by operator id and folded name.
    let byKey: [String: StationKind]

    /// The table shipped with the library.
    public static let builtIn: StationKinds = {
        // The generator checked the compiled-in text; a failure here is a build defect.
        try! StationKinds(csv: builtInCSV, file: "Datasets/station-kinds.csv")
    }()

    /// No curated kinds: every station is `regular`.
    public static let none = StationKinds(entries: [])

    public init(entries: [Entry]) {
        self.entries = entries
        var m: [String: StationKind] = [:]
        for e in entries { m[CuratedStationRows.key(e.operatorID, TextFold.nameKey(e.station))] = e.kind }
        byKey = m
    }

    /// Reads the table: header `operator,station,kind,source`, one station a record.
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record
    ///   (an operator id `operators` does not know, an empty station, a kind other than
    ///   `regular`, `seasonal`, `staff-only`, no source).
    public init(csv: String, file: String, operators: OperatorTable = .builtIn) throws {
        let rows = try CuratedStationRows.read(csv: csv, file: file, valueColumn: "kind", operators: operators,
                                               parse: { StationKind(rawValue: $0) },
                                               invalid: { "\($0) is not regular, seasonal or staff-only" })
        self.init(entries: rows.map { Entry(operatorID: $0.operatorID, station: $0.station, kind: $0.value, source: $0.source) })
    }

    /// The kind of the station `nameKey` (`TextFold.nameKey`) of operator `operatorID`, if listed.
    public func kind(operatorID: String, nameKey: String) -> StationKind? {
        byKey[CuratedStationRows.key(operatorID, nameKey)]
    }
}
