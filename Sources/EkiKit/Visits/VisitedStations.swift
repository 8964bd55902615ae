import EkiSQLite

/// Which stations a visit log has completed, resolved against a station database: the
/// `visited` property, the completion date, and the 全駅 / 乗下車済駅のみ / 未乗下車駅のみ filters.
///
/// A recorded key is resolved with `EntryCatalog.resolve(key:)` (directly, or through the alias
/// table when its entry was merged into another). Several recorded keys may lead to one entry;
/// its completion date is then the earliest of theirs. Keys that lead nowhere are orphans: kept
/// in the log, listed in `orphanedKeys`, and counted nowhere.
public struct VisitedStations: Sendable {
    /// Completed entries by their current key, with the date of their first counting visit
    /// (`.unknown` when that visit is undated).
    public private(set) var completions: [String: (station: Station, date: VisitDate)] = [:]
    /// Recorded keys with counting visits that resolve to no entry, sorted.
    public private(set) var orphanedKeys: [String] = []
    /// The counting rule read from the log.
    public let counting: VisitCounting
    /// Row ids (`stations.fid`) of the completed entries, for viewport and nearest filters.
    public private(set) var fids = Set<Int64>()

    /// Resolves every key with a counting visit (`log.counting()`) against `store`.
    /// - Throws: `SQLiteError` from either database.
    public init(log: VisitLog, store: StationStore) throws {
        counting = try log.counting()
        for (key, date) in try log.completions(counting: counting) {
            guard let s = try log.resolve(key, in: store) else { orphanedKeys.append(key); continue }
            if let known = completions[s.key], known.date <= date { continue }
            completions[s.key] = (s, date)
        }
        orphanedKeys.sort()
        fids = try store.entries.fids(keys: completions.keys)
    }

    /// An empty set (no log).
    public init() { counting = VisitCounting() }

    /// True when the entry with this current key has a counting visit.
    public func isVisited(_ key: String) -> Bool { completions[key] != nil }

    /// The completion date of the entry with this current key; nil when it is not visited,
    /// `.unknown` when it is but the first counting visit is undated.
    public func completion(of key: String) -> VisitDate? { completions[key]?.date }

    /// The map's view as a filter of `ViewportQuery` and `SpatialIndex.nearest`.
    public func viewportFilter(_ filter: VisitFilter) -> ViewportQuery.Filter {
        switch filter {
        case .all: return .all
        case .visited: return .only(fids)
        case .unvisited: return .excluding(fids)
        }
    }

    /// The completed entries, sorted by key.
    public var stations: [Station] { completions.values.map(\.station).sorted { $0.key < $1.key } }

    /// Number of completed entries (open and closed).
    public var count: Int { completions.count }

    /// `stations` with only the visited (or unvisited) ones kept; order unchanged. This is the
    /// filter step for any list of entries (e.g. search results).
    public func filter(_ stations: [Station], _ filter: VisitFilter) -> [Station] {
        switch filter {
        case .all: return stations
        case .visited: return stations.filter { isVisited($0.key) }
        case .unvisited: return stations.filter { !isVisited($0.key) }
        }
    }
}

/// The map's three views: 全駅 (all), 乗下車済駅のみ (visited only), 未乗下車駅のみ (unvisited only).
public enum VisitFilter: String, Sendable, CaseIterable {
    case all, visited, unvisited
}

/// What `eki visit check` reports.
public struct VisitCheck: Sendable {
    /// Number of visits and of distinct recorded keys.
    public var visits = 0, keys = 0
    /// Recorded keys that reach an entry only through the alias table, with the visits.
    public var aliased: [(recorded: String, current: Station, visitIDs: [Int64])] = []
    /// Recorded keys that reach no entry, with the visits (never dropped).
    public var orphaned: [(key: String, visitIDs: [Int64])] = []
    /// Recorded keys that resolve to a closed entry (their visits keep counting toward nothing
    /// in the totals, but the entry stays visited).
    public var closed: [(key: String, visitIDs: [Int64])] = []
}

extension VisitLog {
    /// Resolves the key of every visit (counting or not) against `store`.
    /// - Throws: `SQLiteError`.
    public func check(against store: StationStore) throws -> VisitCheck {
        var byKey: [String: [Int64]] = [:]
        var order: [String] = []
        let all = try visits()
        for v in all {
            if byKey[v.stationKey] == nil { order.append(v.stationKey) }
            byKey[v.stationKey, default: []].append(v.id)
        }
        var check = VisitCheck(visits: all.count, keys: order.count)
        for key in order.sorted() {
            let ids = byKey[key]!.sorted()
            guard let s = try resolve(key, in: store) else { check.orphaned.append((key, ids)); continue }
            if s.key != key { check.aliased.append((key, s, ids)) }
            // Note the rows the key stands for now (a log opened read-only just skips this).
            try? rememberSources(of: s, forKey: key)
            if !s.isOpen { check.closed.append((key, ids)) }
        }
        return check
    }
}
