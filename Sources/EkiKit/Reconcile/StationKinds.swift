/// Curated kinds of stop that no source gives (`StationKind`): `Datasets/station-kinds.csv`,
/// compiled in (`Scripts/gen-station-kinds.py`). station_database's `station.csv` has no such
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
        for e in entries { m[Self.key(e.operatorID, TextFold.nameKey(e.station))] = e.kind }
        byKey = m
    }

    /// Reads the table: header `operator,station,kind,source`, one station a record.
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record
    ///   (an operator id `operators` does not know, an empty station, a kind other than
    ///   `regular`, `seasonal`, `staff-only`, no source).
    public init(csv: String, file: String, operators: OperatorTable = .builtIn) throws {
        var reader = CSVReader(bytes: Array(csv.utf8), file: file)
        var out: [Entry] = []
        var header = true
        do {
            while let r = try reader.nextRecord() {
                if r == [""] { continue }
                if header {
                    guard r == ["operator", "station", "kind", "source"] else {
                        throw OperatorTableError(file: file, line: reader.line, message: "header must be operator,station,kind,source")
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
                guard let kind = StationKind(rawValue: r[2]) else {
                    throw fail("kind", "\(r[2]) is not regular, seasonal or staff-only")
                }
                guard !r[3].allSatisfy({ $0 == " " }) else { throw fail("source", "every row cites its source") }
                out.append(Entry(operatorID: r[0], station: r[1], kind: kind, source: r[3]))
            }
        } catch let e as CSVError {
            throw OperatorTableError(file: file, line: e.line, message: e.message)
        }
        self.init(entries: out)
    }

    /// The kind of the station `nameKey` (`TextFold.nameKey`) of operator `operatorID`, if listed.
    public func kind(operatorID: String, nameKey: String) -> StationKind? {
        byKey[Self.key(operatorID, nameKey)]
    }

    static func key(_ op: String, _ name: String) -> String { op + "\u{1F}" + name }
}
