import EkiKit
import EkiSQLite
import Foundation
import Synchronization

/// The geocoding cache database (SQLite, through EkiSQLite's `Database`): answers by request key,
/// and the time of the last request per provider and endpoint, shared by every process that
/// opens the same file.
///
/// Tables: `geocode_cache(key, candidates JSON, stored_at)` and
/// `request_spacing(key, last_request)`; times are seconds since 1970 (wall clock, so that
/// separate processes agree). One connection per `Geocoder`; not thread-safe.
final class GeocodeStore: RequestSpacing {
    private let db: Database
    private let interval: Double

    /// Added to the interval so that spacing still holds at the server despite scheduling jitter.
    static let spacingMargin = 0.05
    /// A recorded time further ahead than this is taken as a clock that went backwards.
    static let maxReservationAhead = 60.0

    /// Opens (creating it and its folder if needed) the cache database at `path`.
    /// - Throws: `GeocodingError.misconfigured` when the folder or file cannot be created or
    ///   opened, or the file is not a usable SQLite database.
    init(path: String, minimumInterval: Double) throws(GeocodingError) {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty, !FileManager.default.fileExists(atPath: dir) {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw .misconfigured(reason: "cannot create cache directory \(dir): \(error.localizedDescription)")
            }
        }
        do {
            db = try Database(path: path)
        } catch {
            throw .misconfigured(reason: "cannot open cache database: \(error)")
        }
        interval = minimumInterval
        try sql {
            // BEGIN IMMEDIATE: two processes creating a fresh file take turns.
            try db.transaction {
                try db.execute("""
                    CREATE TABLE IF NOT EXISTS geocode_cache(
                        key TEXT PRIMARY KEY, candidates TEXT NOT NULL, stored_at REAL NOT NULL);
                    CREATE TABLE IF NOT EXISTS request_spacing(
                        key TEXT PRIMARY KEY, last_request REAL NOT NULL);
                    """)
            }
        }
    }

    // MARK: cache

    /// The candidates stored under `key` no more than `ttl` seconds ago; nil when absent, expired
    /// or unreadable.
    func cached(_ key: String, ttl: Double) throws(GeocodingError) -> [GeocodeCandidate]? {
        let row: (json: String, storedAt: Double)? = try sql {
            let s = try db.cached(sql: "SELECT candidates, stored_at FROM geocode_cache WHERE key = \(key)")
            defer { s.reset() }          // release the read lock other processes' writes wait for
            return try s.step() ? (s.text(0), s.double(1)) : nil
        }
        guard let row, Date().timeIntervalSince1970 - row.storedAt <= ttl else { return nil }
        return try? JSONDecoder().decode([GeocodeCandidate].self, from: Data(row.json.utf8))
    }

    /// Stores `candidates` under `key` and drops entries older than `ttl`.
    func store(_ candidates: [GeocodeCandidate], for key: String, ttl: Double) throws(GeocodingError) {
        guard let data = try? JSONEncoder().encode(candidates) else { return }
        let now = Date().timeIntervalSince1970
        try sql {
            try db.transaction {
                let json = String(decoding: data, as: UTF8.self)
                try db.cached(sql: "INSERT OR REPLACE INTO geocode_cache(key, candidates, stored_at) VALUES (\(key), \(json), \(now))")
                    .runBound()
                try db.cached(sql: "DELETE FROM geocode_cache WHERE stored_at < \(now - ttl)").runBound()
            }
        }
    }

    // MARK: spacing across processes

    /// Reserves the next free slot for `key` under the database write lock (`BEGIN IMMEDIATE`),
    /// then sleeps outside the lock until that slot. Slots are at least the interval apart, so
    /// processes started together take turns instead of bursting.
    func waitForTurn(_ key: String) throws(GeocodingError) {
        let slot: Double = try sql {
            try db.transaction {
                let now = Date().timeIntervalSince1970
                let s = try db.cached(sql: "SELECT last_request FROM request_spacing WHERE key = \(key)")
                var slot = now
                if try s.step(), !s.isNull(0) {
                    var last = s.double(0)
                    if last > now + Self.maxReservationAhead { last = now }
                    slot = max(now, last + interval + Self.spacingMargin)
                }
                s.reset()
                try db.cached(sql: "INSERT OR REPLACE INTO request_spacing(key, last_request) VALUES (\(key), \(slot))")
                    .runBound()
                return slot
            }
        }
        let wait = slot - Date().timeIntervalSince1970
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    /// Moves the last request time of `key` to now when the request ended after its slot, so a
    /// slow answer does not let the next request follow it too closely. Best effort.
    func finished(_ key: String) {
        _ = try? db.transaction {
            let now = Date().timeIntervalSince1970
            try db.cached(sql: "UPDATE request_spacing SET last_request = max(last_request, \(now)) WHERE key = \(key)")
                .runBound()
        }
    }

    /// Runs `body`, reporting an SQLite failure as `GeocodingError.misconfigured` (the cache
    /// database is unusable: locked past the busy timeout, read-only, corrupt, full), in one
    /// line (the SQL it quotes may span several).
    private func sql<T>(_ body: () throws -> T) throws(GeocodingError) -> T {
        do {
            return try body()
        } catch {
            let text = "\(error)".split(whereSeparator: \.isWhitespace).joined(separator: " ")
            throw .misconfigured(reason: "cache database \(db.path): \(text)")
        }
    }
}

/// Request spacing within this process only, for geocoders without a cache database.
final class InProcessSpacing: RequestSpacing, Sendable {
    private static let slots = Mutex<[String: Double]>([:])
    private let interval: Double

    init(minimumInterval: Double) { interval = minimumInterval }

    func waitForTurn(_ key: String) throws(GeocodingError) {
        let interval = self.interval
        let slot = Self.slots.withLock { slots -> Double in
            let now = Date().timeIntervalSince1970
            var slot = now
            if var last = slots[key] {
                if last > now + GeocodeStore.maxReservationAhead { last = now }
                slot = max(now, last + interval + GeocodeStore.spacingMargin)
            }
            slots[key] = slot
            return slot
        }
        let wait = slot - Date().timeIntervalSince1970
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    func finished(_ key: String) {
        Self.slots.withLock { slots in
            slots[key] = max(slots[key] ?? 0, Date().timeIntervalSince1970)
        }
    }
}
