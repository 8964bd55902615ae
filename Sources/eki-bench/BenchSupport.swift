import Foundation

// MARK: shared by the benchmarks

func now() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// A kB field of /proc/self/status (VmHWM = peak resident set, VmRSS = now), in MB.
func statusMB(_ field: String) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "").map { $0 / 1024 } ?? 0
    }
    return 0
}

func option(_ name: String, _ args: [String]) -> String? {
    guard let i = args.firstIndex(of: "--" + name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

func emit(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
    print(String(decoding: data, as: UTF8.self))
}

func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }

/// A usage error of one benchmark: printed as one line, exit status 64.
struct BenchUsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// numpy.percentile's default (linear interpolation between closest ranks).
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let pos = p / 100 * Double(sorted.count - 1)
    let lo = Int(pos.rounded(.down)), hi = min(lo + 1, sorted.count - 1)
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - Double(lo))
}

/// Times `body` per query after a warm-up, then a throughput pass.
func measure(_ n: Int, warmup: Int, _ warm: (Int) throws -> Void, _ body: (Int) throws -> Void) rethrows -> [String: Any] {
    for i in 0..<warmup { try warm(i) }
    var lat = [Double](repeating: 0, count: n)
    for i in 0..<n {
        let t0 = now()
        try body(i)
        lat[i] = Double(now() - t0) / 1000
    }
    let t0 = now()
    for i in 0..<n { try body(i) }
    let wall = Double(now() - t0) / 1e9
    let sorted = lat.sorted()
    return ["p50_us": round2(percentile(sorted, 50)), "p99_us": round2(percentile(sorted, 99)),
            "mean_us": round2(lat.reduce(0, +) / Double(max(1, n))), "max_us": round2(sorted.last ?? 0),
            "n_queries": n, "qps": round2(Double(n) / wall)]
}
