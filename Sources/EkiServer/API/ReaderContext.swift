import EkiGeocoding
import EkiKit
import Foundation

/// One worker's read side: its own read-only connections to the station database and the visit
/// log, the visited entries resolved for the current versions of both files, the feature cache
/// and a geocoder. Used by one request at a time (`ReaderPool`).
final class ReaderContext {
    let store: StationStore
    let log: VisitLog
    let geocoder: Geocoder
    let features = FeatureCache()
    private var storeVersion: UInt32?
    private var logVersion: UInt32?
    private var cachedVisits: VisitedStations?
    private var cachedLines: [Line]?
    private var cachedStaffOnly: Set<String>?
    private var cachedOpenTotal: Int?
    /// `/api/linework`'s answer for all of Japan and its entity tag, for this version of the
    /// station database.
    var linework: (body: [UInt8], etag: String)?
    /// `/api/snapshot`'s answer and the station database's data version it was made for.
    var stationSnapshot: (version: UInt32, answer: CachedSnapshot)?

    init(configuration c: MapServerConfiguration, logExists: Bool) throws {
        store = try StationStore(path: c.databasePath, readOnly: true)
        log = logExists ? try VisitLog(path: c.visitsPath, create: false) : try VisitLog.empty()
        geocoder = try Geocoder(configuration: c.geocoder, stations: StoreGazetteer(store: store))
    }

    /// Runs `body` on one version of the station database (a read transaction: an import that
    /// commits meanwhile is seen by the next request, never half), with the visited entries
    /// current for that version and the log's latest.
    func snapshot<T>(_ body: (VisitedStations) throws -> T) throws -> T {
        try store.readSnapshot {
            let sv = try store.info.dataVersion()
            if sv != storeVersion {
                features.removeAll()
                cachedVisits = nil
                cachedLines = nil
                cachedStaffOnly = nil
                cachedOpenTotal = nil
                linework = nil
                storeVersion = sv
            }
            let lv = try log.dataVersion()
            if lv != logVersion || cachedVisits == nil {
                cachedVisits = try log.readSnapshot { try VisitedStations(log: log, store: store) }
                logVersion = lv
            }
            return try body(cachedVisits!)
        }
    }
}

extension ReaderContext {
    /// The keys of the staff-only stops (left out of totals), for this version of the file.
    func staffOnly() throws -> Set<String> {
        if let s = cachedStaffOnly { return s }
        let s = try store.entries.keys(of: .staffOnly)
        cachedStaffOnly = s
        return s
    }

    /// The open entries that count (staff-only stops left out: the total of `eki stats`), for
    /// this version of the file.
    func openTotal() throws -> Int {
        if let n = cachedOpenTotal { return n }
        let n = try store.entries.count(includeClosed: false)
            - staffOnly().filter { try store.entries.station(key: $0)?.isOpen == true }.count
        cachedOpenTotal = n
        return n
    }

    /// The open lines as `eki lines` lists them (by operator type in `OperatorTypes.order`, then
    /// as the store orders them), staff-only stops left out; for this version of the file.
    /// Call inside `snapshot`.
    func lines() throws -> [Line] {
        if let l = cachedLines { return l }
        let staffOnly = try staffOnly()
        let l = OperatorTypes.grouped(try store.lines.all()).map { $0.without(staffOnly) }
        cachedLines = l
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

/// The one writer of the visit log: writes are serialized here (the readers see them at their
/// next request through the log's data version).
final class VisitWriter: @unchecked Sendable {
    private let log: VisitLog?
    private let lock = NSLock()

    init(log: VisitLog?) { self.log = log }

    func write<T>(_ body: (VisitLog) throws -> T) throws -> T {
        guard let log else { throw APIError(403, "read_only", .readOnly) }
        lock.lock()
        defer { lock.unlock() }
        return try body(log)
    }
}
