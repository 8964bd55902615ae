/// What an import does to the entries, worked out before anything is written: the one
/// derivation of entries from source rows (`EntryRule.clusters(from:)`) against the entries
/// the store holds. Pure: it reads nothing and writes nothing; `EntryWriter` applies it.
///
/// Keys never move under what refers to them (see `StationStore.importBatches`):
/// 1. a cluster continues the stored entry of the same operator and class it shares most
///    source rows with (pairs sharing most rows first, then the oldest entry);
/// 2. failing that, an unclaimed stored entry with the same base key (operator, class, name)
///    within the rule's link distance, the nearest;
/// 3. otherwise it is a new entry with a new key, distinct from every key and alias there is.
///
/// A base that more than one cluster shares is qualified by place in every key: new entries get
/// `@geohash` (`StationKey.assign`), and a continued entry holding the plain base is renamed to
/// its `@geohash` key, the plain key kept as an alias. So keys come out the same whatever order
/// the sources were imported in. A stored entry no cluster continues is merged (its key an
/// alias) into the first cluster that took any of its rows, else retired.
struct EntryPlan {
    /// An entry as stored.
    struct Stored {
        var fid: Int64
        var key: String
        var baseKey: String
        var station: Station
    }

    /// One entry after the import: cluster `i` of `clusters` (which holds what it shows) is
    /// entry `i` of `entries` (which holds its key and history), see `station(_:)`.
    struct Entry {
        var key: String
        /// The former names of the entry it continues, with its old name when that changed.
        var formerNames: [String]
        /// Index in `stored` of the entry it continues; nil for a new entry.
        var continues: Int?
        /// False when it continues a stored entry that stays exactly as it is.
        var changed: Bool
        /// The continued entry's old key when it is renamed to its place-qualified key.
        var renamedFrom: String?
    }

    /// What becomes of a stored entry no cluster continues.
    enum Leftover: Equatable {
        /// Deleted, its key an alias of `into` (the key, before any renaming, of the entry that
        /// took its rows).
        case merge(stored: Int, into: String)
        /// Kept, marked retired (it was open).
        case retire(stored: Int)
    }

    var stored: [Stored]
    /// The clusters of the source rows, in order (base key, then first source row): new entries
    /// are written in it.
    let clusters: [EntryRule.Cluster]
    /// One per cluster.
    var entries: [Entry]
    /// In stored (fid) order.
    var leftovers: [Leftover]
    /// Stored entries no cluster continues (merged, retired, or retired before).
    var unclaimed: Int

    /// Entry rows the import writes (changed, new, merged, retired), and the rows there are
    /// while it writes: what decides whether the R-tree is packed afresh.
    var changedRows: Int { unclaimed + entries.lazy.filter(\.changed).count }
    var totalRows: Int { entries.count + unclaimed }

    /// Entry `i` as it is written: cluster `i` with its key and former names.
    func station(_ i: Int) -> Station {
        var s = clusters[i].station
        s.key = entries[i].key
        s.formerNames = entries[i].formerNames
        return s
    }

    /// - Parameters:
    ///   - clusters: the clusters of every stored source row (`EntryRule.clusters(from:)`).
    ///   - stored: the stored entries, in fid order, with their source rows.
    ///   - aliases: the old keys in `station_aliases` (never given to a new entry).
    ///   - linkDistance: metres (step 2).
    init(clusters: [EntryRule.Cluster], stored: [Stored], aliases: Set<String>, linkDistance: Double) {
        var taken = aliases.union(stored.lazy.map(\.key))
        self.init(clusters: clusters, stored: stored, taken: &taken, linkDistance: linkDistance)
    }

    /// The plan of some clusters against `stored`, with `taken` the keys a new key must avoid
    /// (every stored key and alias, and the place-qualified keys given before): the keys this
    /// plan gives with `@` join it. So consecutive base-key runs of the clusters, planned one
    /// after another with the same `taken` (and no stored entries), get the keys the plan of
    /// all of them gives.
    init(clusters: [EntryRule.Cluster], stored: [Stored], taken: inout Set<String>, linkDistance: Double) {
        self.stored = stored
        self.clusters = clusters
        // 1. Shared source rows: the pairs sharing most rows first, then the oldest entry.
        var storedByRef: [SourceRef: [Int]] = [:]
        for (i, e) in stored.enumerated() { for r in e.station.sources { storedByRef[r, default: []].append(i) } }
        var pairs: [(cluster: Int, entry: Int, shared: Int)] = []
        var firstTaker: [Int: Int] = [:]        // stored entry → first cluster holding any of its rows
        if !stored.isEmpty {
            for (ci, c) in clusters.enumerated() {
                var counts: [Int: Int] = [:]
                for r in c.station.sources { for ei in storedByRef[r] ?? [] { counts[ei, default: 0] += 1 } }
                for (ei, n) in counts {
                    pairs.append((ci, ei, n))
                    if firstTaker[ei] == nil { firstTaker[ei] = ci }
                }
            }
        }
        pairs.sort { ($1.shared, $0.entry, $0.cluster) < ($0.shared, $1.entry, $1.cluster) }
        // Filled in place, step by step (one array however many clusters there are).
        var entries = [Entry](repeating: Entry(key: "", formerNames: [], continues: nil, changed: true, renamedFrom: nil),
                              count: clusters.count)
        var claimed = Set<Int>()
        // Only an entry of the same operator and class is continued: a row that moved to another
        // operator (a reconciled company, a transfer) leaves its old entry, which is merged into
        // the row's new entry below (its key an alias), so keys do not depend on import order.
        for p in pairs where entries[p.cluster].continues == nil && !claimed.contains(p.entry)
            && stored[p.entry].station.operatorID == clusters[p.cluster].station.operatorID
            && stored[p.entry].station.serviceClass == clusters[p.cluster].station.serviceClass
            // Nor an entry whose name the reconciler replaced by another source's (its name is now
            // one of the rows' aliases): the entry under the shown name takes over, as it would
            // in the other import order.
            && (stored[p.entry].baseKey == clusters[p.cluster].baseKey
                || !clusters[p.cluster].station.formerNames.contains(stored[p.entry].station.name)) {
            entries[p.cluster].continues = p.entry
            claimed.insert(p.entry)
        }
        // 2. Same operator, class and name nearby (a source whose ids changed, a revived entry).
        if claimed.count < stored.count {
            var unclaimedByBase: [String: [Int]] = [:]
            for (i, e) in stored.enumerated() where !claimed.contains(i) { unclaimedByBase[e.baseKey, default: []].append(i) }
            for (ci, c) in clusters.enumerated() where entries[ci].continues == nil {
                guard let candidates = unclaimedByBase[c.baseKey] else { continue }
                let near = candidates.filter { !claimed.contains($0) }
                    .map { ($0, Geodesic.distance(valid: stored[$0].station.coordinate, c.station.coordinate)) }
                    .filter { $0.1 <= linkDistance }
                    .min { $0.1 < $1.1 }
                if let (ei, _) = near {
                    entries[ci].continues = ei
                    claimed.insert(ei)
                }
            }
        }
        // 3. New keys, distinct from every key and alias there is; bases in sorted order (the
        // clusters' order), so that the keys do not depend on hashing. A new key without `@`
        // is a base of its own, which no later key can equal (later keys are other bases, or
        // contain `@`), so only keys with `@` need to join `taken`.
        var sharesBase = [Bool](repeating: false, count: clusters.count)
        var start = 0
        while start < clusters.count {
            let base = clusters[start].baseKey
            var end = start + 1
            while end < clusters.count && clusters[end].baseKey == base { end += 1 }
            if end - start > 1 { for ci in start..<end { sharesBase[ci] = true } }
            let members = (start..<end).filter { entries[$0].continues == nil }
            if !members.isEmpty {
                var stations = members.map { clusters[$0].station }
                if end - start == 1 && !taken.contains(base) {
                    stations[0].key = base
                } else {
                    StationKey.assign(base: base, to: &stations, forcePlace: true, avoiding: taken)
                }
                for (ci, s) in zip(members, stations) {
                    entries[ci].key = s.key
                    if s.key.utf8.contains(UInt8(ascii: "@")) { taken.insert(s.key) }
                }
            }
            start = end
        }
        // A continued entry holding the plain base of a base that is now shared: its place key.
        for (ci, c) in clusters.enumerated() where sharesBase[ci] {
            guard let ei = entries[ci].continues, stored[ei].key == c.baseKey else { continue }
            var one = [c.station]
            StationKey.assign(base: c.baseKey, to: &one, forcePlace: true, avoiding: taken)
            entries[ci].key = one[0].key
            entries[ci].renamedFrom = stored[ei].key
            taken.insert(one[0].key)
        }

        // What a continued entry keeps: its key (unless renamed), its former names.
        for ci in entries.indices {
            guard let ei = entries[ci].continues else { continue }
            let old = stored[ei]
            var s = clusters[ci].station
            s.key = entries[ci].key.isEmpty ? old.key : entries[ci].key
            // The stored history, then names the rows themselves give (`SourceRecord.aliases`).
            let given = s.formerNames
            s.formerNames = old.station.formerNames
            for a in given where !s.formerNames.contains(a) { s.formerNames.append(a) }
            if old.station.name != s.name && !s.formerNames.contains(old.station.name) { s.formerNames.append(old.station.name) }
            s.formerNames.removeAll { $0 == s.name }
            entries[ci].key = s.key
            entries[ci].formerNames = s.formerNames
            entries[ci].changed = !(s == old.station && clusters[ci].baseKey == old.baseKey)
        }
        // Stored entries no cluster took: merged into the first cluster holding their rows, or retired.
        var leftovers: [Leftover] = []
        for (ei, e) in stored.enumerated() where !claimed.contains(ei) {
            if let ci = firstTaker[ei] {
                // The taker's key before any renaming (the alias chain leads on from it).
                leftovers.append(.merge(stored: ei, into: entries[ci].continues.map { stored[$0].key } ?? entries[ci].key))
            } else if e.station.retired == nil {
                leftovers.append(.retire(stored: ei))
            }
        }
        // A new entry's former names: the other names its rows give (`SourceRecord.aliases`).
        for ci in entries.indices where entries[ci].continues == nil { entries[ci].formerNames = clusters[ci].station.formerNames }
        self.entries = entries
        self.leftovers = leftovers
        unclaimed = stored.count - claimed.count
    }
}
