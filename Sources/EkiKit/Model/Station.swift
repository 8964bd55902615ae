/// An entry in the 降りつぶし sense: one operator × one service class × one place.
/// This is what the store holds, what queries return and what visits refer to (by `key`).
public struct Station: Hashable, Sendable {
    /// Stable key; see `StationKey` for the scheme.
    public var key: String
    /// Display name as published by the first source (e.g. 東京).
    public var name: String
    /// Reading (読み) in hiragana, when any source gives one.
    public var reading: String?
    /// Latin-script name, when any source gives one.
    public var latinName: String?
    /// Operator name as published by the most trusted source; nil when unknown.
    public var operatorName: String?
    /// The operator's id: the operator table's (`jr-east`) when it knows the operator, else the
    /// folded name, `-` when unknown. The first part of the key.
    public var operatorID: String
    /// Operator reference from the source (e.g. GTFS-JP agency_id), when any.
    public var operatorRef: String?
    public var serviceClass: ServiceClass
    /// Lines of all its rows, in first-seen order, without duplicates.
    public var lines: [String]
    /// Prefecture, when known.
    public var prefecture: String?
    /// Mean of its rows' points, degrees WGS84.
    public var coordinate: Coordinate
    /// Every source row that went into this entry, sorted.
    public var sources: [SourceRef]
    /// False when every row is closed (station closed, or all its lines closed).
    public var isOpen: Bool
    /// Names the entry had before a source renamed it, oldest first.
    public var formerNames: [String]
    /// The date (YYYY-MM-DD) on which the entry's last source row disappeared from its sources;
    /// nil while any source still has it. Retired entries are kept for the records that refer
    /// to them and left out of queries and totals.
    public var retired: String?
    /// The kind of stop (regular, seasonal, staff-only): the most restricted kind of its rows
    /// (`StationKind`). Staff-only entries are left out of totals by default.
    public var kind: StationKind

    /// The `operatorID` of an entry no source names an operator for.
    public static let noOperatorID = "-"

    public init(key: String, name: String, reading: String?, latinName: String?, operatorName: String?,
                operatorRef: String?, serviceClass: ServiceClass, lines: [String], prefecture: String?,
                coordinate: Coordinate, sources: [SourceRef], isOpen: Bool,
                formerNames: [String] = [], retired: String? = nil, operatorID: String = Station.noOperatorID,
                kind: StationKind = .regular) {
        self.kind = kind
        self.key = key
        self.name = name
        self.reading = reading
        self.latinName = latinName
        self.operatorName = operatorName
        self.operatorRef = operatorRef
        self.serviceClass = serviceClass
        self.lines = lines
        self.prefecture = prefecture
        self.coordinate = coordinate
        self.sources = sources
        self.isOpen = isOpen
        self.formerNames = formerNames
        self.retired = retired
        self.operatorID = operatorID
    }
}

/// A station with its geodesic distance from a query point, in metres.
public struct StationDistance: Hashable, Sendable {
    public var station: Station
    /// Geodesic distance on the WGS84 ellipsoid, metres.
    public var distance: Double
    public init(station: Station, distance: Double) {
        self.station = station
        self.distance = distance
    }
}
