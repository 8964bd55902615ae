import EkiSQLite

/// How `eki stats` groups entries.
public enum VisitGrouping: String, CaseIterable, Sendable {
    /// By operator (its short name in the operator table, e.g. JR東海, so that every source's
    /// spelling counts together; else the name as published, `-` when unknown), both classes
    /// together.
    case operatorName = "operator"
    /// By line: an entry counts once in each of its lines.
    case line
    /// By prefecture (`-` when the sources give none, as N02 does not).
    case prefecture
    /// Shinkansen or conventional.
    case serviceClass = "class"

    func groups(of s: Station) -> [String] {
        switch self {
        case .operatorName: return [s.operatorLabel ?? "-"]
        case .line: return s.lines.isEmpty ? ["-"] : Array(Set(s.lines))
        case .prefecture: return [s.prefecture ?? "-"]
        case .serviceClass: return [s.serviceClass.rawValue]
        }
    }
}

/// Completion figures of one group: open entries visited, open entries in all.
public struct VisitTally: Sendable, Equatable {
    public var group: String
    /// Open entries of the group with a counting visit.
    public var visited: Int
    /// Open entries of the group.
    public var total: Int

    public init(group: String, visited: Int, total: Int) {
        self.group = group
        self.visited = visited
        self.total = total
    }

    /// visited / total × 100 (0 when the group is empty).
    public var percent: Double { total == 0 ? 0 : Double(visited) * 100 / Double(total) }
}

/// What `eki stats` shows.
public struct VisitStatistics: Sendable {
    /// Every open entry: visited and total.
    public var total: VisitTally
    /// Per group, most visited first (then largest, then by name); empty without a grouping.
    public var groups: [VisitTally]
    /// Visited entries that are closed: they keep their visits but are in no total.
    public var closedVisited: Int
    /// Recorded keys with counting visits that resolve to no entry (see `eki visit check`).
    public var orphanedKeys: Int

    /// As `eki stats --format json` (pretty) and the map server's `/api/stats` (compact) write
    /// it: `groups` (each `{<groupName>: group, visited, total, percent}`, percent rounded to
    /// two decimals), `total` (the same with `group`), `closed_visited`, `orphaned_keys`.
    /// - Parameter groupName: the grouping's name (`operator`, `line`, …), `group` for none.
    public func json(groupName: String) -> JSONValue {
        func row(_ t: VisitTally) -> JSONValue {
            .object([(groupName, .string(t.group)), ("visited", .int(t.visited)), ("total", .int(t.total)),
                     ("percent", .number(JSONBytes.rounded(t.percent, decimals: 2)))])
        }
        return .object([("groups", .array(groups.map(row))), ("total", row(total)),
                        ("closed_visited", .int(closedVisited)), ("orphaned_keys", .int(orphanedKeys))])
    }
}

extension VisitedStations {
    /// Visited / total per group over the open entries of `store` (retired entries leave the
    /// totals but keep their visits, counted in `closedVisited`). Staff-only stops
    /// (`StationKind.staffOnly`: no passenger may get on or off) are in no total unless
    /// `includeStaffOnly`; the entries `rules` leave out (suspended stations under
    /// `oritsubushi`) are in no total.
    /// - Throws: `SQLiteError`.
    public func statistics(store: StationStore, by grouping: VisitGrouping?,
                           includeStaffOnly: Bool = false, rules: CountingRules = .default) throws -> VisitStatistics {
        var tallies: [String: VisitTally] = [:]
        var total = VisitTally(group: "total", visited: 0, total: 0)
        for s in try store.entries.all(includeClosed: false) where (includeStaffOnly || s.kind != .staffOnly) && rules.counts(s) {
            let visited = isVisited(s.key) ? 1 : 0
            total.total += 1
            total.visited += visited
            for g in grouping?.groups(of: s) ?? [] {
                tallies[g, default: VisitTally(group: g, visited: 0, total: 0)].total += 1
                tallies[g]!.visited += visited
            }
        }
        let groups = tallies.values.sorted {
            ($0.visited, $0.total) != ($1.visited, $1.total) ? ($0.visited, $0.total) > ($1.visited, $1.total) : $0.group < $1.group
        }
        return VisitStatistics(total: total, groups: groups,
                               closedVisited: completions.values.filter { !$0.station.isOpen }.count,
                               orphanedKeys: orphanedKeys.count)
    }
}
