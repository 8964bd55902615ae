import Foundation
import Synchronization

/// The geocoding cache database (SQLite): answers by request key, and the time of the last
/// request per provider and endpoint, shared by every process that opens the same file.
///
/// Tables: `geocode_cache(key, candidates JSON, stored_at)` and
/// `request_spacing(key, last_request)`; times are seconds since 1970 (wall clock, so that
/// separate processes agree).
final class GeocodeStore: RequestSpacing {
    private let db: SQLiteConnection
    private let interval: Double

    /// Added to the interval so that spacing still holds at the server despite scheduling jitter.
    static let spacingMargin = 0.05
    /// A recorded time further ahead than this is taken as a clock that went backwards.
    static let maxReservationAhead = 60.0

    init(path: String, minimumInterval: Double) throws(GeocodingError) {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty, !FileManager.default.fileExists(atPath: dir) {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw .misconfigured(reason: "cannot create cache directory \(dir): \(error.localizedDescription)")
            }
        }
        db = try SQLiteConnection(path: path)
        interval = minimumInterval
        try db.immediateTransaction { () throws(GeocodingError) in
            try db.execute("""
                CREATE TABLE IF NOT EXISTS geocode_cache(
                    key TEXT PRIMARY KEY, candidates TEXT NOT NULL, stored_at REAL NOT NULL);
                CREATE TABLE IF NOT EXISTS request_spacing(
                    key TEXT PRIMARY KEY, last_request REAL NOT NULL);
                """)
        }
    }

    // MARK: cache

    /// The candidates stored under `key` no more than `ttl` seconds ago; nil when absent, expired
    /// or unreadable.
    func cached(_ key: String, ttl: Double) throws(GeocodingError) -> [GeocodeCandidate]? {
        let rows = try db.query("SELECT candidates, stored_at FROM geocode_cache WHERE key = ?1", [.text(key)])
        guard let row = rows.first, let json = row[0].string, let storedAt = row[1].double,
              Date().timeIntervalSince1970 - storedAt <= ttl else { return nil }
        return try? JSONDecoder().decode([GeocodeCandidate].self, from: Data(json.utf8))
    }

    /// Stores `candidates` under `key` and drops entries older than `ttl`.
    func store(_ candidates: [GeocodeCandidate], for key: String, ttl: Double) throws(GeocodingError) {
        guard let data = try? JSONEncoder().encode(candidates) else { return }
        let now = Date().timeIntervalSince1970
        try db.immediateTransaction { () throws(GeocodingError) in
            try db.query("INSERT OR REPLACE INTO geocode_cache(key, candidates, stored_at) VALUES (?1, ?2, ?3)",
                         [.text(key), .text(String(decoding: data, as: UTF8.self)), .real(now)])
            try db.query("DELETE FROM geocode_cache WHERE stored_at < ?1", [.real(now - ttl)])
        }
    }

    // MARK: spacing across processes

    /// Reserves the next free slot for `key` under the database write lock (`BEGIN IMMEDIATE`),
    /// then sleeps outside the lock until that slot. Slots are at least the interval apart, so
    /// processes started together take turns instead of bursting.
    func waitForTurn(_ key: String) throws(GeocodingError) {
        let slot = try db.immediateTransaction { () throws(GeocodingError) -> Double in
            let now = Date().timeIntervalSince1970
            let rows = try db.query("SELECT last_request FROM request_spacing WHERE key = ?1", [.text(key)])
            var slot = now
            if var last = rows.first?.first?.double {
                if last > now + Self.maxReservationAhead { last = now }
                slot = max(now, last + interval + Self.spacingMargin)
            }
            try db.query("INSERT OR REPLACE INTO request_spacing(key, last_request) VALUES (?1, ?2)",
                         [.text(key), .real(slot)])
            return slot
        }
        let wait = slot - Date().timeIntervalSince1970
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    /// Moves the last request time of `key` to now when the request ended after its slot, so a
    /// slow answer does not let the next request follow it too closely. Best effort.
    func finished(_ key: String) {
        _ = try? db.immediateTransaction { () throws(GeocodingError) in
            try db.query("UPDATE request_spacing SET last_request = max(last_request, ?2) WHERE key = ?1",
                         [.text(key), .real(Date().timeIntervalSince1970)])
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
