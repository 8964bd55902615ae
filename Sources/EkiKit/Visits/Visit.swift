import Foundation

/// How a visit touched a station (optional on a visit).
public enum VisitKind: String, Hashable, Sendable, CaseIterable {
    /// Got on a train there (乗車). Always counts.
    case board
    /// Got off there (降車). Always counts.
    case alight
    /// Changed trains there (乗換). Counts unless the log's `transferCounts` setting is off.
    case transfer
    /// Passed through without getting off (通過). Never counts.
    case pass
}

/// One record of the visit log: a station (by key), when, how, and a note.
public struct Visit: Hashable, Sendable {
    /// The log's id for this visit, positive; never reused after `VisitLog.remove`.
    public var id: Int64
    /// The station key as recorded (see `StationKey`); `EntryCatalog.resolve(key:)` finds the
    /// entry it refers to now, through the alias table when the entry has been merged.
    public var stationKey: String
    public var date: VisitDate
    /// Nil when not given: the visitor got on or off, and the visit counts.
    public var kind: VisitKind?
    /// Free text; nil when empty.
    public var note: String?
    /// The id made where the visit was first recorded (a lower-case UUID), the same on every
    /// device and server that holds it; empty for a new visit (`VisitLog` makes one).
    public var uid: String
    /// When this record was last changed; `.unset` for a new visit (`VisitLog` stamps the time).
    public var updatedAt: VisitTimestamp

    public init(id: Int64 = 0, stationKey: String, date: VisitDate = .unknown, kind: VisitKind? = nil, note: String? = nil,
                uid: String = "", updatedAt: VisitTimestamp = .unset) {
        self.id = id
        self.stationKey = stationKey
        self.date = date
        self.kind = kind
        self.note = note.flatMap { $0.isEmpty ? nil : $0 }
        self.uid = uid
        self.updatedAt = updatedAt
    }

    /// A new visit id: a random (version 4) UUID, lower-case.
    public static func makeUID() -> String { UUID().uuidString.lowercased() }

    /// Log order: by date (see `VisitDate`), then by id.
    public static func logOrder(_ a: Visit, _ b: Visit) -> Bool {
        a.date != b.date ? a.date < b.date : a.id < b.id
    }

    /// What makes two records one visit (import merges on it; the log holds each at most once):
    /// the same station key, date and kind.
    public var identity: String {
        "\(stationKey)\u{1F}\(date.text ?? "")\u{1F}\(kind?.rawValue ?? "")"
    }
}

/// Which visits count toward completing a station (降りつぶし counts the stations one has got
/// on or off at): `board`, `alight` and visits without a kind always count, `pass` never does,
/// and `transfer` counts when `transferCounts` is on (the default: the train was left there).
public struct VisitCounting: Hashable, Sendable {
    public var transferCounts: Bool

    public init(transferCounts: Bool = true) {
        self.transferCounts = transferCounts
    }

    public func counts(_ kind: VisitKind?) -> Bool {
        switch kind {
        case nil, .board?, .alight?: return true
        case .transfer?: return transferCounts
        case .pass?: return false
        }
    }
}
