import EkiKit
import Foundation

// MARK: search

/// `eki-bench search --db PATH --queries FILE [--by F] [--limit N] [--near LAT,LON] [--repeat N]`
///
/// Times `store.search.stations(matching:)` in-process on the store opened read-only: one query per line of
/// FILE (UTF-8, empty lines skipped), one untimed warm-up pass, then every query timed alone
/// (monotonic clock) in prefix and in partial mode, `--repeat` passes (default 1). Prints, per
/// mode, a table of p50/p90/p99/mean/max in milliseconds (nearest-rank percentiles), overall and
/// by query length in characters, and the five slowest queries. `--by` is name, reading, line,
/// operator or any (default any); `--limit` results per query (default 20); `--near` orders by
/// distance from that point (degrees, latitude first). Run by Scripts/bench/bench-search.sh.
func runSearch(_ args: [String]) throws {
    guard let path = option("db", args), let file = option("queries", args) else {
        throw BenchUsageError("search: --db and --queries are required")
    }
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw BenchUsageError("search: cannot read --queries \(file)") }
    let queries = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
    guard !queries.isEmpty else { throw BenchUsageError("search: no queries in \(file)") }
    func count(_ name: String, default value: Int) throws -> Int {
        guard let t = option(name, args) else { return value }
        guard let n = Int(t), n >= 1 else { throw BenchUsageError("search: --\(name) needs a whole number of at least 1, got '\(t)'") }
        return n
    }
    var options = SearchOptions(limit: try count("limit", default: 20))
    if let by = option("by", args) {
        guard let scope = SearchOptions.Scope(rawValue: by) else { throw BenchUsageError("search: --by must be name, reading, line, operator or any") }
        options.by = scope
    }
    if let near = option("near", args) {
        let parts = near.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw BenchUsageError("search: --near needs LAT,LON in degrees (latitude first), got '\(near)'")
        }
        options.near = Coordinate(lat: lat, lon: lon)
    }
    let repeats = try count("repeat", default: 1)

    let store = try StationStore(path: path, readOnly: true)
    print("\(path): \(try store.entries.count()) entries; \(queries.count) queries, by \(options.by.rawValue), limit \(options.limit ?? 0)"
          + (options.near.map { ", near \($0.lat),\($0.lon)" } ?? ""))
    for match in SearchOptions.Match.allCases {
        var o = options
        o.match = match
        var hits = 0
        for q in queries { hits += try store.search.stations(matching: q, options: o).count }        // warm-up
        var samples: [(ms: Double, query: String)] = []
        for _ in 0..<repeats {
            for q in queries {
                let t0 = now()
                _ = try store.search.stations(matching: q, options: o)
                samples.append((Double(now() - t0) / 1e6, q))
            }
        }
        print("\n\(match.rawValue): \(samples.count) searches, \(hits) hits in the warm-up pass")
        var rows = [searchRow("all", samples.map(\.ms))]
        for len in 1...4 {
            let s = samples.filter { len < 4 ? $0.query.count == len : $0.query.count >= len }.map(\.ms)
            if !s.isEmpty { rows.append(searchRow(len < 4 ? "\(len) char" : "4+ chars", s)) }
        }
        let header = ["queries", "n", "p50 ms", "p90 ms", "p99 ms", "mean ms", "max ms"]
        let widths = header.indices.map { c in ([header] + rows).map { $0[c].count }.max()! }
        for row in [header] + rows {
            print(row.indices.map { c in
                let pad = String(repeating: " ", count: widths[c] - row[c].count)
                return c == 0 ? row[c] + pad : pad + row[c]
            }.joined(separator: "  "))
        }
        let slowest = samples.sorted { $0.ms > $1.ms }.prefix(5)
        print("slowest: " + slowest.map { "\($0.query) \(String(format: "%.2f", $0.ms))" }.joined(separator: ", "))
    }
}

/// One table row: label, count, nearest-rank p50/p90/p99, mean and max of `ms`.
func searchRow(_ label: String, _ ms: [Double]) -> [String] {
    let s = ms.sorted()
    func pct(_ p: Double) -> String { String(format: "%.3f", s[min(s.count - 1, Int((p * Double(s.count)).rounded(.up)) - 1)]) }
    return [label, String(s.count), pct(0.5), pct(0.9), pct(0.99),
            String(format: "%.3f", s.reduce(0, +) / Double(s.count)), String(format: "%.3f", s.last!)]
}
