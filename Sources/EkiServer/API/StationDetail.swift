import EkiKit

/// One entry whole, as the station screen shows it (`/api/station`, `eki show`): the entry, its
/// visits (those recorded under its key or under keys that resolve to it) and its completion
/// date.
public struct StationDetail: Sendable {
    public var station: Station
    /// In log order (date, then id).
    public var visits: [Visit]
    /// The photos of each visit (by visit id), in the order they were added.
    public var photos: [Int64: [VisitPhoto]] = [:]
    /// The first counting visit's date; nil when not visited, `.unknown` when undated.
    public var completed: VisitDate?
    /// The open lines the entry lies on (`LineTable.lines(through:)`, staff-only stops left out
    /// of their totals), each with how many of its entries are visited.
    public var lines: [(line: Line, visited: Int)] = []

    /// The entry `key` refers to now (aliases followed), or nil.
    /// - Throws: `SQLiteError`.
    public static func load(key: String, store: StationStore, log: VisitLog, visited: VisitedStations,
                            staffOnly: Set<String>? = nil) throws -> StationDetail? {
        guard let s = try store.entries.resolve(key: key) else { return nil }
        return try load(station: s, store: store, log: log, visited: visited, staffOnly: staffOnly)
    }

    /// The detail of `station`; `staffOnly` are the keys left out of the lines' totals (when nil,
    /// the staff-only stops and the entries the log's counting rules leave out, read from the store).
    public static func load(station s: Station, store: StationStore, log: VisitLog, visited: VisitedStations,
                            staffOnly: Set<String>? = nil) throws -> StationDetail {
        var resolved: [String: String?] = [s.key: s.key]
        var visits: [Visit] = []
        for v in try log.visits() {
            if resolved[v.stationKey] == nil { resolved[v.stationKey] = .some(try log.resolve(v.stationKey, in: store)?.key) }
            if resolved[v.stationKey]! == s.key { visits.append(v) }
        }
        let staffOnly = try staffOnly ?? store.entries.keys(of: .staffOnly).union(log.countingRules().excludedKeys(store: store))
        let lines = try store.lines.lines(through: s.key).map { $0.without(staffOnly) }
            .map { (line: $0, visited: $0.stationKeys.filter(visited.isVisited).count) }
        var photos: [Int64: [VisitPhoto]] = [:]
        for v in visits { photos[v.id] = try log.photos(of: v.id) }
        return StationDetail(station: s, visits: visits, photos: photos, completed: visited.completion(of: s.key), lines: lines)
    }

    /// A GeoJSON Feature: the properties of `eki … --format geojson`, then `operator_short`,
    /// `former_names` (`Station.otherNames`), `other_readings` (`Station.otherReadings`), `retired`
    /// (date or null), `visits` (`[{id, key, date, kind, note, uid, updated_at, photos: [{id, width,
    /// height}]}]`, date null when unknown), `line_stats` (`[{id, name, operator, visited, total}]`), `visited`
    /// and `completed`.
    public var json: String {
        var head = StationFeatures.head(station)
        JSONBytes.append(",\"former_names\":", to: &head)
        JSONBytes.appendStrings(station.otherNames, to: &head)
        JSONBytes.append(",\"other_readings\":", to: &head)
        JSONBytes.appendStrings(station.otherReadings, to: &head)
        JSONBytes.append(",\"retired\":", to: &head)
        JSONBytes.appendOptional(station.retired, to: &head)
        JSONBytes.append(",\"visits\":[", to: &head)
        for (i, v) in visits.enumerated() {
            if i > 0 { head.append(UInt8(ascii: ",")) }
            Self.appendVisit(v, photos: photos[v.id] ?? [], to: &head)
        }
        head.append(UInt8(ascii: "]"))
        JSONBytes.append(",\"line_stats\":[", to: &head)
        for (i, l) in lines.enumerated() {
            if i > 0 { head.append(UInt8(ascii: ",")) }
            JSONBytes.append("{\"id\":", to: &head); JSONBytes.appendQuoted(l.line.id, to: &head)
            JSONBytes.append(",\"name\":", to: &head); JSONBytes.appendQuoted(l.line.name, to: &head)
            JSONBytes.append(",\"operator\":", to: &head); JSONBytes.appendQuoted(l.line.operatorName, to: &head)
            JSONBytes.append(",\"visited\":\(l.visited),\"total\":\(l.line.total)}", to: &head)
        }
        head.append(UInt8(ascii: "]"))
        var out: [UInt8] = []
        StationFeatures.append(head: head, distance: nil, completion: completed, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendVisit(_ v: Visit, photos: [VisitPhoto] = [], to out: inout [UInt8]) {
        JSONBytes.append("{\"id\":\(v.id),\"key\":", to: &out)
        JSONBytes.appendQuoted(v.stationKey, to: &out)
        JSONBytes.append(",\"date\":", to: &out); JSONBytes.appendOptional(v.date.text, to: &out)
        JSONBytes.append(",\"kind\":", to: &out); JSONBytes.appendOptional(v.kind?.rawValue, to: &out)
        JSONBytes.append(",\"note\":", to: &out); JSONBytes.appendOptional(v.note, to: &out)
        JSONBytes.append(",\"uid\":", to: &out); JSONBytes.appendQuoted(v.uid, to: &out)
        JSONBytes.append(",\"updated_at\":", to: &out); JSONBytes.appendQuoted(v.updatedAt.text, to: &out)
        JSONBytes.append(",\"photos\":[", to: &out)
        for (i, p) in photos.enumerated() {
            JSONBytes.append("\(i > 0 ? "," : ""){\"id\":\(p.id),\"width\":\(p.width),\"height\":\(p.height)}", to: &out)
        }
        JSONBytes.append("]}", to: &out)
    }

    /// For people: one `field: value` line each, then the visits.
    public var text: String {
        let s = station
        var lines: [(String, String)] = [
            ("name", s.name + (s.isOpen ? "" : s.retired != nil ? " (retired \(s.retired!))" : " (closed)")),
            ("reading", s.reading ?? "-"), ("latin name", s.latinName ?? "-"),
            ("operator", [s.operatorLabel, s.operatorName].compactMap { $0 }.uniqued().joined(separator: " / ") + " (\(s.operatorID))"),
            ("class", s.serviceClass == .shinkansen ? "新幹線 (shinkansen)" : "在来線 (conventional)"),
            ("lines", s.lines.isEmpty ? "-" : s.lines.joined(separator: ", ")),
            ("prefecture", s.prefecture ?? "-"),
            ("point", "\(s.coordinate.lat), \(s.coordinate.lon)"),
            ("sources", s.sources.map(\.description).joined(separator: ", ")),
            ("completed", completed.map { $0.text ?? "yes (date unknown)" } ?? "not yet"),
            ("key", s.key),
        ]
        if !s.otherReadings.isEmpty { lines.insert(("also read", s.otherReadings.joined(separator: ", ")), at: 2) }
        if !s.otherNames.isEmpty { lines.insert(("former names", s.otherNames.joined(separator: ", ")), at: 1) }
        if s.kind != .regular { lines.insert(("kind", s.kind.rawValue), at: 1) }
        // A suspended entry, or a closure the status table dates (a plain closure says so in its name).
        if s.status != .open && (s.status != .abolished || s.statusSince != nil) {
            lines.insert(("status", s.status.rawValue + (s.statusSince.map { " since \($0)" } ?? "")), at: 1)
        }
        var out = lines.map { "\($0.0.padding(toLength: 11, withPad: " ", startingAt: 0)) \($0.1)" }.joined(separator: "\n") + "\n"
        out += "visits (\(visits.count))\(visits.isEmpty ? "" : ":")\n"
        for v in visits {
            out += "  \(v.id)  \(v.date)  \(v.kind?.rawValue ?? "-")\(v.note.map { "  \($0)" } ?? "")\n"
        }
        return out
    }
}

extension Array where Element: Hashable {
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
