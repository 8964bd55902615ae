/// One station row as a source gives it, before the entry rule: one operator, one class, one
/// place, usually one line. Importers produce these; `EntryRule` turns them into entries.
///
/// Held by the million on a large import, so kept compact (120 bytes a row): the fields most
/// rows of a large source leave empty (reading, Latin name, operator reference, line order and
/// colour, aliases) live in one shared box, absent when they are all empty; equality and
/// hashing are by value, as for any struct.
public struct SourceRecord: Hashable, Sendable {
    /// The row's dataset and id.
    public var source: SourceRef
    /// The station name as published (kept for display).
    public var name: String
    /// Operator name as the source spells it; nil when the source gives none (unknown operator).
    public var operatorName: String?
    /// Line names this row lies on (usually one).
    public var lines: [String]
    /// Point in degrees WGS84.
    public var coordinate: Coordinate
    /// Prefecture name (e.g. 神奈川県), when known.
    public var prefecture: String?
    /// Shinkansen or conventional.
    public var serviceClass: ServiceClass
    /// True when the source marks the station (or its only line) closed.
    public var isClosed: Bool
    /// The kind of stop (`StationKind`), set by `SourceReconciler` from `StationKinds` (neither
    /// source gives it); `regular` otherwise. Not stored with the row.
    public var kind: StationKind
    /// The step between branches in `lineOrder` (branch n from n × 1,000,000).
    public static let lineOrderBranchStep = 1_000_000

    /// The optional fields, boxed; nil when all are empty.
    private var extras: Extras?

    /// Reading (読み) in hiragana, when the source has one.
    public var reading: String? { get { self[extra: \.reading] } set { self[extra: \.reading] = newValue } }
    /// Latin-script name (romaji or English), when the source has one.
    public var latinName: String? { get { self[extra: \.latinName] } set { self[extra: \.latinName] = newValue } }
    /// An operator reference from the source (e.g. GTFS-JP agency_id = 法人番号 + `_n`).
    public var operatorRef: String? { get { self[extra: \.operatorRef] } set { self[extra: \.operatorRef] = newValue } }
    /// Position of the row along its line, when the source orders its lines (station_database
    /// `register.csv` `index`, GTFS `stop_sequence` of the trip patterns); ascending along the
    /// line, not necessarily from 1 or contiguous. Positions `lineOrderBranchStep` or more apart
    /// are on separate branches (GTFS branch patterns).
    public var lineOrder: Int? { get { self[extra: \.lineOrder] } set { self[extra: \.lineOrder] = newValue } }
    /// The line's colour as the source gives it (`#RRGGBB`), when it has one.
    public var lineColor: String? { get { self[extra: \.lineColor] } set { self[extra: \.lineColor] = newValue } }
    /// Other names of the row's station, set by `SourceReconciler` when it gives the row another
    /// source's spelling or a newer name (kept on the entry as former names, searchable). Not
    /// stored with the row.
    public var aliases: [String] { get { self[extra: \.aliases] } set { self[extra: \.aliases] = newValue } }

    public init(source: SourceRef, name: String, reading: String? = nil, latinName: String? = nil,
                operatorName: String?, operatorRef: String? = nil, serviceClass: ServiceClass,
                lines: [String], coordinate: Coordinate, prefecture: String? = nil,
                isClosed: Bool = false, lineOrder: Int? = nil, lineColor: String? = nil, aliases: [String] = [],
                kind: StationKind = .regular) {
        self.kind = kind
        self.source = source
        self.name = name
        self.operatorName = operatorName
        self.serviceClass = serviceClass
        self.lines = lines
        self.coordinate = coordinate
        self.prefecture = prefecture
        self.isClosed = isClosed
        let values = ExtraValues(reading: reading, latinName: latinName, operatorRef: operatorRef,
                                 lineOrder: lineOrder, lineColor: lineColor, aliases: aliases)
        extras = values.isEmpty ? nil : Extras(values)
    }

    public static func == (a: SourceRecord, b: SourceRecord) -> Bool {
        a.source == b.source && a.name == b.name && a.operatorName == b.operatorName && a.lines == b.lines
            && a.coordinate == b.coordinate && a.prefecture == b.prefecture && a.serviceClass == b.serviceClass
            && a.isClosed == b.isClosed && a.kind == b.kind
            && (a.extras === b.extras || (a.extras?.values ?? ExtraValues()) == (b.extras?.values ?? ExtraValues()))
    }

    public func hash(into h: inout Hasher) {
        h.combine(source)
        h.combine(name)
        h.combine(operatorName)
        h.combine(lines)
        h.combine(coordinate)
        h.combine(prefecture)
        h.combine(serviceClass)
        h.combine(isClosed)
        h.combine(kind)
        h.combine(extras?.values ?? ExtraValues())
    }

    /// The optional fields' values.
    private struct ExtraValues: Hashable, Sendable {
        var reading: String? = nil
        var latinName: String? = nil
        var operatorRef: String? = nil
        var lineOrder: Int? = nil
        var lineColor: String? = nil
        var aliases: [String] = []

        static let empty = ExtraValues()

        var isEmpty: Bool {
            reading == nil && latinName == nil && operatorRef == nil && lineOrder == nil && lineColor == nil && aliases.isEmpty
        }
    }

    /// An immutable box: a change makes a new one, so copies of a record never share a change.
    private final class Extras: Sendable {
        let values: ExtraValues
        init(_ values: ExtraValues) { self.values = values }
    }

    /// One optional field: read from the box (its default when there is none), written as a
    /// new box (none when every field is empty).
    private subscript<T>(extra field: WritableKeyPath<ExtraValues, T>) -> T {
        get { extras.map { $0.values[keyPath: field] } ?? ExtraValues.empty[keyPath: field] }
        set {
            var values = extras?.values ?? ExtraValues()
            values[keyPath: field] = newValue
            extras = values.isEmpty ? nil : Extras(values)
        }
    }
}
