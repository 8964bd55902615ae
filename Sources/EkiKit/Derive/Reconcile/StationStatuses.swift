/// Curated statuses of stops with their dates (`StationStatus`): `Datasets/station-status.csv`,
/// compiled in (`Scripts/gen-station-tables.py`). For closures a source does not yet know
/// (N02-23 lists スカイレール and 立山トンネルトロリーバス as open; station_database has no
/// 室堂) and conversions to BRT (日田彦山線 添田–夜明), each row citing the pages read.
///
/// Header `operator,station,status,since,source`: the operator id (`OperatorTable`), the
/// station name as a source writes it (matched by `TextFold.nameKey`), the status (`abolished`,
/// `brt`, `suspended`), the first day in that status (`YYYY-MM-DD`, `YYYY-MM` when only the
/// month is known, `YYYY` when only the year: 猪苗代湖畔, no trains since the 2007 season) and the source.
public struct StationStatuses: Sendable {
    public struct Entry: Sendable, Equatable {
        /// Operator id (`OperatorTable`).
        public var operatorID: String
        /// Station name as written in the table.
        public var station: String
        public var status: StationStatus
        /// First day in `status`: `YYYY-MM-DD`, `YYYY-MM` or `YYYY`.
        public var since: String
        /// Where the fact comes from.
        public var source: String
    }

    public var entries: [Entry]
    let byKey: [String: Entry]
    /// The operators with a row: a station of any other has no curated status.
    let operatorIDs: Set<String>

    public init(entries: [Entry]) {
        self.entries = entries
        var m: [String: Entry] = [:]
        for e in entries { m[CuratedStationTable<StationStatus>.key(e.operatorID, TextFold.nameKey(e.station))] = e }
        byKey = m
        operatorIDs = Set(entries.map(\.operatorID))
    }

    /// No curated rows: every station keeps what its sources say.
    public static var none: Self { Self(entries: []) }

    /// The table shipped with the library.
    public static var builtIn: StationStatuses { builtInStationStatuses }

    /// Reads the table (`file` names it in errors).
    /// - Throws: `OperatorTableError` naming the file, line and field of the first bad record:
    ///   a wrong header, a record without five fields, an operator id `operators` does not
    ///   know, an empty station, a status other than `abolished`, `brt` or `suspended`, a date
    ///   not `YYYY-MM-DD`, `YYYY-MM` or `YYYY`, a station listed twice, no source.
    public init(csv: String, file: String, operators: OperatorTable = .builtIn) throws {
        var out: [Entry] = []
        var seen = Set<String>()
        try CuratedCSV.records(csv, file: file, valueColumns: ["status", "since"], operators: operators) { r, fail in
            guard let status = StationStatus(rawValue: r[2]), status != .open else {
                throw fail("status", "\(r[2]) is not abolished, brt or suspended")
            }
            guard Self.isDate(r[3]) else { throw fail("since", "\(r[3]) is not YYYY-MM-DD, YYYY-MM or YYYY") }
            let key = CuratedStationTable<StationStatus>.key(r[0], TextFold.nameKey(r[1]))
            guard seen.insert(key).inserted else { throw fail("station", "\(r[0]) \(r[1]) is listed twice") }
            out.append(Entry(operatorID: r[0], station: r[1], status: status, since: r[3], source: r[4]))
        }
        self.init(entries: out)
    }

    /// The entry of the station `nameKey` (`TextFold.nameKey`) of operator `operatorID`, if listed.
    public func entry(operatorID: String, nameKey: String) -> Entry? {
        byKey[CuratedStationTable<StationStatus>.key(operatorID, nameKey)]
    }

    /// The entry of `station` (by its operator and `TextFold.nameKey` of its name), if listed;
    /// the name is folded only for an operator the table has rows of (every JSON feature asks).
    public func entry(of station: Station) -> Entry? {
        guard operatorIDs.contains(station.operatorID) else { return nil }
        return entry(operatorID: station.operatorID, nameKey: TextFold.nameKey(station.name))
    }

    /// `YYYY-MM-DD`, `YYYY-MM` or `YYYY` (digits, month 01–12, day 01–31).
    static func isDate(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return false }
        if parts.count >= 2 { guard parts[1].count == 2, let m = Int(parts[1]), (1...12).contains(m) else { return false } }
        if parts.count == 3 { guard parts[2].count == 2, let d = Int(parts[2]), (1...31).contains(d) else { return false } }
        return true
    }
}

/// The compiled-in table; the generator checked its text, so a failure here is a build defect.
private let builtInStationStatuses = try! StationStatuses(csv: StationStatuses.builtInCSV, file: "Datasets/station-status.csv")
