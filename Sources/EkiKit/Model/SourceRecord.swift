/// One station row as a source gives it, before the entry rule: one operator, one class, one
/// place, usually one line. Importers produce these; `EntryRule` turns them into entries.
public struct SourceRecord: Hashable, Sendable {
    /// The row's dataset and id.
    public var source: SourceRef
    /// The station name as published (kept for display).
    public var name: String
    /// Reading (読み) in hiragana, when the source has one.
    public var reading: String?
    /// Latin-script name (romaji or English), when the source has one.
    public var latinName: String?
    /// Operator name as the source spells it; nil when the source gives none (unknown operator).
    public var operatorName: String?
    /// An operator reference from the source (e.g. GTFS-JP agency_id = 法人番号 + `_n`).
    public var operatorRef: String?
    /// Shinkansen or conventional.
    public var serviceClass: ServiceClass
    /// Line names this row lies on (usually one).
    public var lines: [String]
    /// Point in degrees WGS84.
    public var coordinate: Coordinate
    /// Prefecture name (e.g. 神奈川県), when known.
    public var prefecture: String?
    /// True when the source marks the station (or its only line) closed.
    public var isClosed: Bool
    /// Position of the row along its line, when the source orders its lines (station_database
    /// `register.csv` `index`, GTFS `stop_sequence` of the trip patterns); ascending along the
    /// line, not necessarily from 1 or contiguous. Positions `lineOrderBranchStep` or more apart
    /// are on separate branches (GTFS branch patterns).
    public var lineOrder: Int?
    /// The step between branches in `lineOrder` (branch n from n × 1,000,000).
    public static let lineOrderBranchStep = 1_000_000
    /// The line's colour as the source gives it (`#RRGGBB`), when it has one.
    public var lineColor: String?
    /// Other names of the row's station, set by `SourceReconciler` when it gives the row another
    /// source's spelling or a newer name (kept on the entry as former names, searchable). Not
    /// stored with the row.
    public var aliases: [String]
    /// The kind of stop (`StationKind`), set by `SourceReconciler` from `StationKinds` (neither
    /// source gives it); `regular` otherwise. Not stored with the row.
    public var kind: StationKind

    public init(source: SourceRef, name: String, reading: String? = nil, latinName: String? = nil,
                operatorName: String?, operatorRef: String? = nil, serviceClass: ServiceClass,
                lines: [String], coordinate: Coordinate, prefecture: String? = nil,
                isClosed: Bool = false, lineOrder: Int? = nil, lineColor: String? = nil, aliases: [String] = [],
                kind: StationKind = .regular) {
        self.aliases = aliases
        self.kind = kind
        self.source = source
        self.name = name
        self.reading = reading
        self.latinName = latinName
        self.operatorName = operatorName
        self.operatorRef = operatorRef
        self.serviceClass = serviceClass
        self.lines = lines
        self.coordinate = coordinate
        self.prefecture = prefecture
        self.isClosed = isClosed
        self.lineOrder = lineOrder
        self.lineColor = lineColor
    }
}
