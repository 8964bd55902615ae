import EkiSQLite

/// An import refused because it would retire more than a share of a dataset's entries (a
/// partial file imported as if it were the whole dataset, a feed read with other `--modes`, an
/// extract without stations). Nothing was written.
public struct RetireLimitError: Error, CustomStringConvertible, Sendable, Equatable {
    /// One dataset the import would thin out.
    public struct Share: Sendable, Equatable {
        public var dataset: String
        /// Entries of the dataset the import would retire or take the dataset's rows from (an
        /// entry another dataset keeps open still loses this dataset's rows).
        public var wouldRetire: Int
        /// Entries holding rows of the dataset before the import (not retired).
        public var of: Int
        /// The first few of them as `key (name)`, in key order.
        public var examples: [String]
    }

    public var shares: [Share]
    /// The largest share an import may retire without confirming (0.05 = 5 %).
    public var limit: Double

    public var description: String {
        let parts = shares.map { s in
            let pct = (Double(s.wouldRetire) * 1000 / Double(max(1, s.of))).rounded() / 10
            return "\(s.wouldRetire) of the \(s.of) \(s.dataset) entries (\(pct) %: \(s.examples.joined(separator: ", "))\(s.wouldRetire > s.examples.count ? ", …" : ""))"
        }
        return "this import would retire \(parts.joined(separator: " and ")), more than \((limit * 100).formatted()) % of a dataset; nothing was written. If the input is meant to replace the dataset, run it again with --replace"
    }
}

private extension Double {
    func formatted() -> String { self == rounded() ? String(Int(self)) : String(self) }
}

/// The counts an import compares before and after it writes, to refuse one that would retire
/// more than a share of a dataset (`RetireLimitError`).
struct RetireGuard {
    let db: Database

    /// The open (not retired) entries holding rows of each of `datasets`, by fid.
    func unretiredEntries(of datasets: [String]) throws -> [String: Set<Int64>] {
        var out: [String: Set<Int64>] = [:]
        let s = try db.prepare("""
            SELECT DISTINCT ss.station_fid FROM station_sources ss JOIN stations s ON s.fid = ss.station_fid
            WHERE ss.dataset = ? AND s.retired IS NULL
            """)
        for d in Set(datasets) {
            s.reset()
            s.bind(d, at: 1)
            var fids = Set<Int64>()
            while try s.step() { fids.insert(s.int64(0)) }
            out[d] = fids
        }
        return out
    }

    /// Of the entries `before` (from `unretiredEntries`), those retired now, per dataset: the
    /// count and the first `examples` as `key (name)` in key order.
    func retiredSince(_ before: [String: Set<Int64>], examples: Int = 5) throws -> [String: (count: Int, examples: [String])] {
        guard before.values.contains(where: { !$0.isEmpty }) else { return [:] }
        var retiredNow: [Int64: String] = [:]
        let s = try db.prepare("SELECT fid, key, name FROM stations WHERE retired IS NOT NULL ORDER BY key")
        var order: [Int64] = []
        while try s.step() {
            retiredNow[s.int64(0)] = "\(s.text(1)) (\(s.text(2)))"
            order.append(s.int64(0))
        }
        var out: [String: (count: Int, examples: [String])] = [:]
        for (dataset, fids) in before {
            let hit = order.filter { fids.contains($0) }
            out[dataset] = (hit.count, hit.prefix(examples).map { retiredNow[$0]! })
        }
        return out
    }

    /// Of the entries `before` (from `unretiredEntries`), those that hold no row of their
    /// dataset now (retired, merged away, or kept open only by another dataset), per dataset:
    /// the count and the first `examples` as `key (name)` in key order. This is what a partial
    /// file imported as a whole dataset does on a database of several datasets, where most
    /// entries survive through the others.
    func lostSince(_ before: [String: Set<Int64>], examples: Int = 5) throws -> [String: (count: Int, examples: [String])] {
        let now = try unretiredEntries(of: Array(before.keys))
        let names = try db.prepare("SELECT key, name FROM stations WHERE fid = ?")
        var out: [String: (count: Int, examples: [String])] = [:]
        for (dataset, fids) in before {
            let lost = fids.subtracting(now[dataset] ?? [])
            var labels: [String] = []
            for f in lost {
                names.reset()
                try names.bind([.int(f)])
                if try names.step() { labels.append("\(names.text(0)) (\(names.text(1)))") }
            }
            labels.sort()
            out[dataset] = (lost.count, Array(labels.prefix(examples)))
        }
        return out
    }
}
