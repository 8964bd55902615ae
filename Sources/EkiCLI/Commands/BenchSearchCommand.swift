import EkiKit
import Foundation

/// `eki bench-search --db PATH --queries FILE`: a benchmark, not a user command (hidden from
/// `eki --help`). Times `StationStore.search` in-process, each query once per match mode, after
/// one untimed warm-up pass, and prints p50/p90/p99/mean/max in milliseconds. Run by
/// Scripts/bench-search.sh.
struct BenchSearchCommand: Command {
    static let hidden = true
    static let summary = "benchmark: time search in-process (Scripts/bench-search.sh)"
    static let help = """
    usage: eki bench-search --db PATH --queries FILE [--by F] [--limit N] [--near LAT,LON] [--repeat N]

    Benchmark, not a user command. Reads one query per line from FILE (UTF-8; empty lines
    skipped), warms up with one untimed pass, then times every query in prefix and in partial
    mode (monotonic clock, in-process, the store opened read-only) and prints percentiles in
    milliseconds, overall and by query length in characters, plus the slowest queries.
      --by F           name, reading, line, operator or any (default any)
      --limit N        results per query (default 20)
      --near LAT,LON   order by distance from this point
      --repeat N       timed passes (default 1); every run is a sample
    """

    let args: Arguments
    let console: Console
    let queries: [String]
    let options: SearchOptions
    let repeats: Int

    init(arguments: [String], console: Console) throws {
        args = try Arguments(arguments, valued: ["db", "queries", "by", "limit", "near", "repeat"], flags: [])
        self.console = console
        guard args["db"] != nil, let file = args["queries"] else { throw UsageError("--db and --queries are required") }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw UsageError("cannot read --queries \(file)") }
        queries = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        guard !queries.isEmpty else { throw UsageError("no queries in \(file)") }
        var o = SearchOptions(limit: try args.int("limit", default: 20, min: 1))
        if let by = args["by"] {
            guard let s = SearchOptions.Scope(rawValue: by) else { throw UsageError("--by must be name, reading, line, operator or any") }
            o.by = s
        }
        if let n = args["near"] { o.near = try SearchCommand.point(n) }
        options = o
        repeats = try args.int("repeat", default: 1, min: 1)
    }

    func run() throws -> Int32 {
        let path = DatabaseOption.path(args, console)
        let store = try StationStore(path: path, readOnly: true)
        console.out("\(path): \(try store.count()) entries; \(queries.count) queries, by \(options.by.rawValue), limit \(options.limit ?? 0)\(options.near.map { ", near \($0.lat),\($0.lon)" } ?? "")\n")
        for match in SearchOptions.Match.allCases {
            var o = options
            o.match = match
            var hits = 0
            for q in queries { hits += try store.search(q, options: o).count }        // warm-up
            var samples: [(ms: Double, query: String)] = []
            let clock = ContinuousClock()
            for _ in 0..<repeats {
                for q in queries {
                    let start = clock.now
                    _ = try store.search(q, options: o)
                    let d = clock.now - start
                    samples.append((Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15, q))
                }
            }
            console.out("\n\(match.rawValue): \(samples.count) searches, \(hits) hits in the warm-up pass\n")
            var rows = [Self.row("all", samples.map(\.ms))]
            for len in 1...4 {
                let s = samples.filter { len < 4 ? $0.query.count == len : $0.query.count >= len }.map(\.ms)
                if !s.isEmpty { rows.append(Self.row(len < 4 ? "\(len) char" : "4+ chars", s)) }
            }
            console.out(DisplayWidth.table(header: ["queries", "n", "p50 ms", "p90 ms", "p99 ms", "mean ms", "max ms"], rows: rows))
            let slowest = samples.sorted { $0.ms > $1.ms }.prefix(5)
            console.out("slowest: " + slowest.map { "\($0.query) \(String(format: "%.2f", $0.ms))" }.joined(separator: ", ") + "\n")
        }
        return 0
    }

    static func row(_ label: String, _ ms: [Double]) -> [String] {
        let s = ms.sorted()
        func pct(_ p: Double) -> String { String(format: "%.3f", s[min(s.count - 1, Int((p * Double(s.count)).rounded(.up)) - 1)]) }
        return [label, String(s.count), pct(0.5), pct(0.9), pct(0.99),
                String(format: "%.3f", s.reduce(0, +) / Double(s.count)), String(format: "%.3f", s.last!)]
    }
}
