import EkiAccounts
import EkiGeocoding
import EkiKit
import Foundation

/// One worker's read side: its own read-only connections to the station database and to the
/// visits (the single visit log, or the accounts file holding everyone's), the visited entries
/// resolved for the current versions of both, per owner, the feature cache and a geocoder.
/// Used by one request at a time (`ReaderPool`).
final class ReaderContext {
    let store: StationStore
    let geocoder: Geocoder
    let features = FeatureCache()
    private let source: VisitSource
    private var storeVersion: UInt32?
    /// The visited entries of the owners asked for lately, least recently used first.
    private var owners: [OwnerVisits] = []
    /// `eki serve --rules`; nil: each owner's log setting.
    private let fixedRules: CountingRules?
    private var cachedLines: [CountingRules: [Line]] = [:]
    private var cachedStaffOnly: [CountingRules: Set<String>] = [:]
    private var cachedOpenTotal: [CountingRules: Int] = [:]
    /// `/api/linework`'s answer for all of Japan and its entity tag, for this version of the
    /// station database.
    var linework: (body: [UInt8], etag: String)?
    /// `/api/snapshot`'s answer and the station database's data version it was made for.
    var stationSnapshot: (version: UInt32, answer: CachedSnapshot)?

    /// How many owners' visited entries one context keeps (a handful of people use one server).
    static let ownerCacheSize = 8

    /// Where the visits are read from.
    enum VisitSource {
        /// One person's visit log (owner 0).
        case single(VisitLog)
        /// The accounts file: each owner's log on its connection.
        case accounts(AccountStore)
    }

    /// One owner's log and its visited entries, for the file version, the owner's change mark
    /// (`VisitLog.changeMark`) and counting rule they were resolved at: a login or another person's visit changes
    /// the accounts file, not this owner's mark, and leaves their entries cached.
    private struct OwnerVisits {
        var owner: Int64
        var log: VisitLog
        var version: UInt32?
        var mark: Int64?
        /// The counting rule they were resolved with (a setting, not a visit: no change mark).
        var counting: VisitCounting?
        var visits: VisitedStations?
    }

    init(configuration c: MapServerConfiguration, logExists: Bool) throws {
        store = try StationStore(path: c.databasePath, readOnly: true)
        if let accounts = c.accountsPath {
            source = .accounts(try AccountStore(path: accounts, create: false, readOnly: true))
        } else {
            source = .single(logExists ? try VisitLog(path: c.visitsPath, create: false) : try VisitLog.empty())
        }
        geocoder = try Geocoder(configuration: c.geocoder, stations: StoreGazetteer(store: store))
        fixedRules = c.countingRules
    }

    /// The counting rules `owner`'s n/m follow: the server's (`--rules`), else the owner's log
    /// setting. Call inside `snapshot`.
    func rules(of owner: Int64) throws -> CountingRules {
        if let fixedRules { return fixedRules }
        return try log(of: owner).countingRules()
    }

    /// The visit log of `owner` (0 without accounts), on this context's read connection.
    func log(of owner: Int64) throws -> VisitLog {
        try entry(owner).log
    }

    /// Moves `owner`'s entry to the end (most recently used), making it when missing.
    private func entry(_ owner: Int64) throws -> OwnerVisits {
        if let i = owners.firstIndex(where: { $0.owner == owner }) {
            let e = owners.remove(at: i)
            owners.append(e)
            return e
        }
        let log: VisitLog
        switch source {
        case .single(let l): log = l
        case .accounts(let a): log = try a.visits(of: owner)
        }
        if owners.count >= Self.ownerCacheSize { owners.removeFirst() }
        owners.append(OwnerVisits(owner: owner, log: log))
        return owners[owners.count - 1]
    }

    /// Runs `body` on one version of the station database (a read transaction: an import that
    /// commits meanwhile is seen by the next request, never half), with `owner`'s visited
    /// entries current for that version and the log's latest.
    func snapshot<T>(owner: Int64, _ body: (VisitedStations) throws -> T) throws -> T {
        try store.readSnapshot {
            try refreshStoreCaches()
            var e = try entry(owner)
            let lv = try e.log.dataVersion()
            if lv != e.version || e.visits == nil {
                try e.log.readSnapshot {
                    let mark = try e.log.changeMark(), counting = try e.log.counting()
                    if e.visits == nil || mark != e.mark || counting != e.counting {
                        e.visits = try VisitedStations(log: e.log, store: store)
                        e.mark = mark
                        e.counting = counting
                    }
                }
                e.version = lv
                owners[owners.count - 1] = e
            }
            return try body(e.visits!)
        }
    }

    /// Runs `body` on one version of the station database, without anyone's visits.
    func snapshot<T>(_ body: () throws -> T) throws -> T {
        try store.readSnapshot {
            try refreshStoreCaches()
            return try body()
        }
    }

    /// Drops what was cached for an older version of the station database.
    private func refreshStoreCaches() throws {
        let sv = try store.info.dataVersion()
        guard sv != storeVersion else { return }
        features.removeAll()
        for i in owners.indices { owners[i].visits = nil }
        cachedLines = [:]
        cachedStaffOnly = [:]
        cachedOpenTotal = [:]
        linework = nil
        storeVersion = sv
    }
}

extension ReaderContext {
    /// The keys left out of totals under `rules`, for this version of the file: the staff-only
    /// stops and the entries the rules leave out (under `oritsubushi`, suspended stations).
    func staffOnly(_ rules: CountingRules) throws -> Set<String> {
        if let s = cachedStaffOnly[rules] { return s }
        let s = try store.entries.keys(of: .staffOnly).union(try rules.excludedKeys(store: store))
        cachedStaffOnly[rules] = s
        return s
    }

    /// The open entries that count under `rules` (staff-only stops and, under `oritsubushi`,
    /// suspended stations left out: the total of `eki stats`), for this version of the file.
    func openTotal(_ rules: CountingRules) throws -> Int {
        if let n = cachedOpenTotal[rules] { return n }
        let n = try store.entries.count(includeClosed: false)
            - staffOnly(rules).filter { try store.entries.station(key: $0)?.isOpen == true }.count
        cachedOpenTotal[rules] = n
        return n
    }

    /// The open lines as `eki lines` lists them (by operator type in `OperatorTypes.order`, then
    /// as the store orders them), with totals under `rules`; for this version of the file.
    /// Call inside `snapshot`.
    func lines(_ rules: CountingRules) throws -> [Line] {
        if let l = cachedLines[rules] { return l }
        let staffOnly = try staffOnly(rules)
        let l = OperatorTypes.grouped(try store.lines.all()).map { $0.without(staffOnly) }
        cachedLines[rules] = l
        return l
    }
}

/// The workers' contexts: a request takes one for its duration and gives it back. There are as
/// many as worker threads, so a request never waits for one in practice.
final class ReaderPool: @unchecked Sendable {
    private var free: [ReaderContext]
    private let condition = NSCondition()

    init(_ contexts: [ReaderContext]) { free = contexts }

    func with<T>(_ body: (ReaderContext) throws -> T) rethrows -> T {
        condition.lock()
        while free.isEmpty { condition.wait() }
        let c = free.removeLast()
        condition.unlock()
        defer {
            condition.lock()
            free.append(c)
            condition.signal()
            condition.unlock()
        }
        return try body(c)
    }
}

/// The one writer of the visits: writes are serialized here, on one connection to the visit
/// log or to the accounts file (the readers see them at their next request through the file's
/// data version).
final class VisitWriter: @unchecked Sendable {
    private enum Target {
        case none
        case single(VisitLog)
        case accounts(AccountStore, [Int64: VisitLog])
    }
    private var target: Target
    private let lock = NSLock()

    /// Writes to one visit log (owner 0); nil: read-only, every write is refused.
    init(log: VisitLog?) { target = log.map(Target.single) ?? .none }

    /// Writes to every owner's visits in the accounts file.
    init(accounts: AccountStore) { target = .accounts(accounts, [:]) }

    /// Runs `body` on `owner`'s visit log, one write at a time. Without accounts `owner` is 0.
    /// - Throws: `APIError` 403 `read_only` when the server is read-only; what `body` throws.
    func write<T>(owner: Int64, _ body: (VisitLog) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        switch target {
        case .none: throw APIError(403, "read_only", .readOnly)
        case .single(let log): return try body(log)
        case .accounts(let store, var logs):
            if let log = logs[owner] { return try body(log) }
            let log = try store.visits(of: owner)
            if logs.count >= 64 { logs.removeAll() }
            logs[owner] = log
            target = .accounts(store, logs)
            return try body(log)
        }
    }
}
