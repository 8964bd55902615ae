import EkiSQLite
import Foundation

/// The entries of a station database, by key, by row id or all (`store.entries`): lookups
/// that resolve a key through the alias chain, the source rows an entry was made from, and the
/// entries a visit's station text may mean. A value holding the store's connection; not
/// thread-safe.
///
/// ```swift
/// let tokyo = try store.entries.resolve(key: "jr-east/c/東京")     // Station?, through merges
/// let open = try store.entries.count(includeClosed: false)        // 9,585 on N02-23 + station_database
/// ```
public struct EntryCatalog {
    let db: Database

    /// Number of entries (open and closed, unless `includeClosed` is false).
    /// - Throws: `SQLiteError`.
    public func count(includeClosed: Bool = true) throws -> Int {
        Int(try db.scalarInt(includeClosed ? "SELECT count(*) FROM stations"
                                           : "SELECT count(*) FROM stations WHERE open = 1") ?? 0)
    }

    /// Every entry, sorted by key.
    /// - Throws: `SQLiteError`.
    public func all(includeClosed: Bool = true) throws -> [Station] {
        try stations(where: includeClosed ? "1" : "s.open = 1", orderBy: "s.key")
    }

    /// The entry with `key`, or nil (no alias is followed: see `resolve(key:)`).
    /// - Throws: `SQLiteError`.
    public func station(key: String) throws -> Station? {
        let s = try db.cached("SELECT \(StationColumns.selectList) FROM stations s WHERE s.key = ?")
        try s.bind([.text(key)])
        defer { s.reset() }
        return try s.step() ? StationColumns.decode(s) : nil
    }

    /// The entry with row id `fid` (as `StationHit.fid` gives it).
    /// - Throws: `StoreError.noEntry` when there is no such row, `SQLiteError`.
    public func station(fid: Int64) throws -> Station {
        let s = try db.cached("SELECT \(StationColumns.selectList) FROM stations s WHERE s.fid = ?")
        s.bind(fid, at: 1)
        defer { s.reset() }
        guard try s.step() else { throw StoreError.noEntry(fid: fid) }
        return StationColumns.decode(s)
    }

    /// The entries with these row ids, read by one statement, in key order (`orderedByKey`) or
    /// in the order of `fids`. Row ids of no entry are left out.
    /// - Throws: `SQLiteError`.
    public func stations(fids: [Int64], orderedByKey: Bool = false) throws -> [Station] {
        guard !fids.isEmpty else { return [] }
        if orderedByKey {
            let s = try batch(fids, orderedByKey: true)
            defer { s.reset() }
            var out: [Station] = []
            out.reserveCapacity(fids.count)
            while try s.step() { out.append(StationColumns.decode(s, offset: 1)) }
            return out
        }
        let byFid = try stationsByFid(fids)
        return fids.compactMap { byFid[$0] }
    }

    /// The entries with these row ids by row id, read by one statement (the row ids bound as
    /// one JSON array): what `station(fid:)` gives for each, without one lookup per row. Row
    /// ids of no entry are left out.
    /// - Throws: `SQLiteError`.
    public func stationsByFid(_ fids: [Int64]) throws -> [Int64: Station] {
        guard !fids.isEmpty else { return [:] }
        let s = try batch(fids, orderedByKey: false)
        defer { s.reset() }
        var byFid: [Int64: Station] = [:]
        byFid.reserveCapacity(fids.count)
        while try s.step() { byFid[s.int64(0)] = StationColumns.decode(s, offset: 1) }
        return byFid
    }

    /// The statement reading `fid` and the entry columns of these row ids (bound as one JSON
    /// array), stepped by the caller and reset by it.
    private func batch(_ fids: [Int64], orderedByKey: Bool) throws -> Statement {
        let list = "[" + fids.sorted().map(String.init).joined(separator: ",") + "]"
        return try db.cached(sql: """
            SELECT s.fid, \(raw: StationColumns.selectList) FROM stations s
            WHERE s.fid IN (SELECT value FROM json_each(\(list))) \(raw: orderedByKey ? "ORDER BY s.key" : "")
            """)
    }

    /// The key of the entry with row id `fid`.
    /// - Throws: `StoreError.noEntry`, `SQLiteError`.
    public func key(fid: Int64) throws -> String {
        let s = try db.cached("SELECT key FROM stations WHERE fid = ?")
        s.bind(fid, at: 1)
        defer { s.reset() }
        guard try s.step() else { throw StoreError.noEntry(fid: fid) }
        return s.text(0)
    }

    /// The row ids of the entries with these keys (keys of no entry are left out).
    /// - Throws: `SQLiteError`.
    public func fids(keys: some Sequence<String>) throws -> Set<Int64> {
        let s = try db.cached("SELECT fid FROM stations WHERE key = ?")
        var out = Set<Int64>()
        for k in keys {
            try s.bind([.text(k)])
            if try s.step() { out.insert(s.int64(0)) }
            s.reset()
        }
        return out
    }

    /// The entry a key refers to now: the entry with that key, else the entry its alias chain
    /// (`station_aliases`: keys of entries merged into others; then `builtInAliases`) leads to,
    /// else nil.
    /// - Throws: `SQLiteError`.
    public func resolve(key: String) throws -> Station? {
        var k = key
        var seen = Set<String>()
        while seen.insert(k).inserted {
            if let s = try station(key: k) { return s }
            let a = try db.cached("SELECT new_key FROM station_aliases WHERE old_key = ?")
            try a.bind([.text(k)])
            defer { a.reset() }
            if try a.step() {
                k = a.text(0)
            } else if let n = Self.builtInAliases[k] {
                k = n
            } else {
                return nil
            }
        }
        return nil
    }

    /// Keys a rule change retired, old key → new key, followed after `station_aliases` (so a
    /// visit recorded before the change, or brought from another database, finds its entry):
    /// ガーラ湯沢 became a conventional entry (`SourceReconciler.unifyClasses`).
    public static let builtInAliases: [String: String] = ["jr-east/s/ガーラ湯沢": "jr-east/c/ガーラ湯沢"]

    /// The entry holding most of `refs` (source rows), ties to the oldest entry; nil when no
    /// entry holds any of them. Reads all of `station_sources` (clustered by entry, not by
    /// source row): for a visit whose key no longer resolves, not for every request.
    /// - Throws: `SQLiteError`.
    public func station(sharingSourcesWith refs: [SourceRef]) throws -> Station? {
        guard !refs.isEmpty else { return nil }
        var counts: [Int64: Int] = [:]
        var wanted: [SourceRef: Int] = [:]
        for r in refs { wanted[r, default: 0] += 1 }
        let datasets = Set(refs.map(\.dataset))
        let s = try db.prepare("SELECT station_fid, dataset, source_id FROM station_sources")
        while try s.step() {
            guard datasets.contains(s.text(1)), let n = wanted[SourceRef(dataset: s.text(1), id: s.text(2))] else { continue }
            counts[s.int64(0), default: 0] += n
        }
        guard let best = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) else { return nil }
        return try station(fid: best.key)
    }

    /// Keys of the entries of `kind` (open, closed and retired alike): what totals leave out
    /// by default.
    /// - Throws: `SQLiteError`.
    public func keys(of kind: StationKind) throws -> Set<String> {
        let s = try db.prepare("SELECT key FROM stations WHERE coalesce(kind, 'regular') = ?")  // NULL: regular
        s.bind(kind.rawValue, at: 1)
        var out = Set<String>()
        while try s.step() { out.insert(s.text(0)) }
        return out
    }

    /// Key and name of the open entries of the operators `operatorIDs` (one query, no entry
    /// decoded): for matching curated per-station tables against the store.
    /// - Throws: `SQLiteError`.
    public func openKeysAndNames(operatorIDs: some Sequence<String>) throws -> [(key: String, name: String, operatorID: String)] {
        let s = try db.cached("SELECT key, name, operator_id FROM stations WHERE open = 1 AND operator_id = ?")
        var out: [(key: String, name: String, operatorID: String)] = []
        for id in Set(operatorIDs).sorted() {
            s.reset()
            s.bind(id, at: 1)
            while try s.step() { out.append((s.text(0), s.text(1), s.text(2))) }
        }
        s.reset()
        return out
    }

    /// The open entries holding rows of `dataset` and of no other dataset: what no other
    /// source confirmed, for a person to check. Sorted by key.
    /// - Throws: `SQLiteError`.
    public func unmatched(dataset: String, includeClosed: Bool = false) throws -> [Station] {
        try stations(where: """
            s.fid IN (SELECT station_fid FROM station_sources WHERE dataset = ?1)
              AND NOT EXISTS (SELECT 1 FROM station_sources o WHERE o.station_fid = s.fid AND o.dataset != ?1)
              AND (?2 OR s.open = 1)
            """, orderBy: "s.key", [.text(dataset), .int(includeClosed ? 1 : 0)])
    }

    /// The entries of `stations s` passing `condition`, in `orderBy` order.
    func stations(where condition: String, orderBy: String, _ values: [SQLValue] = []) throws -> [Station] {
        let s = try db.prepare("SELECT \(StationColumns.selectList) FROM stations s WHERE \(condition) ORDER BY \(orderBy)")
        try s.bind(values)
        var out: [Station] = []
        while try s.step() { out.append(StationColumns.decode(s)) }
        return out
    }
}
