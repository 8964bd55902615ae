import Foundation

/// The stations of visits about to be imported, checked against a station database before
/// anything is written: each row's `station` is a key that `VisitLog.resolve` finds (directly,
/// through an alias or by the source rows it was recorded with), or a name that matches
/// exactly one entry (`StationQuery.candidates`, as `eki visit add` reads a name), which is
/// then recorded under that entry's key. Every other row is unresolved: it would be stored as
/// an orphan, counted nowhere.
public struct VisitStationCheck: Sendable {
    /// A row whose station names no single entry.
    public struct Unresolved: Sendable {
        public var row: VisitExchangeRow
        /// The entries a name matched (two or more); empty when none matched.
        public var candidates: [Station]
    }

    /// The visits with their keys as they will be recorded (a name replaced by its entry's key).
    public private(set) var visits: [Visit] = []
    /// The entry of each recorded key (for `VisitLog.merge(_:stations:)`).
    public private(set) var stations: [String: Station] = [:]
    /// Rows given by a name, and the key recorded for each.
    public private(set) var byName: [(row: VisitExchangeRow, key: String)] = []
    /// Rows that resolve to no single entry, in file order.
    public private(set) var unresolved: [Unresolved] = []

    /// Checks `rows` against `store` (read only) with `log`'s record of source rows.
    /// - Throws: `SQLiteError`.
    public init(_ rows: [VisitExchangeRow], store: StationStore, log: VisitLog) throws {
        for row in rows {
            var v = row.visit
            if let s = try log.resolve(v.stationKey, in: store) {
                stations[v.stationKey] = s
            } else {
                let found = v.stationKey.contains("/") ? [] : try StationQuery(text: v.stationKey).candidates(in: store)
                if found.count == 1, let s = found.first {
                    byName.append((row, s.key))
                    v.stationKey = s.key
                    stations[s.key] = s
                } else {
                    unresolved.append(Unresolved(row: row, candidates: found))
                }
            }
            visits.append(v)
        }
    }

    /// One line per unresolved row: `line 3: 'どこか': no entry matches` or
    /// `line 2: '小田原': 5 entries match: jr-central/c/小田原, …`.
    public var unresolvedLines: [String] {
        unresolved.map { u in
            let at = "\(u.row.location): '\(u.row.visit.stationKey)'"
            if u.candidates.isEmpty {
                return "\(at): \(u.row.visit.stationKey.contains("/") ? "no entry has this key" : "no entry matches")"
            }
            return "\(at): \(u.candidates.count) entries match: " + u.candidates.map(\.key).joined(separator: ", ")
        }
    }
}
