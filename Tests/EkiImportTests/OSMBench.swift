import EkiImport
import EkiKit
import Foundation
import Testing

/// Throughput and peak memory of `OSMImporter` on a large file, for `Scripts/bench-osm.sh`.
/// Runs only with `EKI_BENCH=1` and `EKI_BENCH_FILE=path` (a release build:
/// `swift test -c release --filter OSMBench`); prints one `osm-bench:` line. MB/s count
/// `EKI_BENCH_BYTES` when set (the uncompressed size of a compressed file), else the file size.
@Suite("OSMBench")
struct OSMBench {
    static let environment = ProcessInfo.processInfo.environment

    @Test("Import throughput and peak memory",
          .enabled(if: environment["EKI_BENCH"] == "1" && environment["EKI_BENCH_FILE"] != nil,
                   "benchmark: set EKI_BENCH=1 and EKI_BENCH_FILE (see Scripts/bench-osm.sh)"))
    func throughput() throws {
        let path = Self.environment["EKI_BENCH_FILE"]!
        let fileBytes = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let bytes = Self.environment["EKI_BENCH_BYTES"].flatMap { Int($0) } ?? fileBytes
        let rssBefore = Self.status("VmRSS")
        let clock = ContinuousClock()
        let start = clock.now
        let batch = try OSMImporter(path: path).read()
        let importTime = clock.now - start
        let entries = EntryRule().entries(from: batch.records)
        let seconds = Double(importTime.components.seconds) + Double(importTime.components.attoseconds) / 1e18
        let mb = Double(bytes) / 1e6
        let label = path.hasSuffix(".gz") ? "eki (gzip)" : path.hasSuffix(".bz2") ? "eki (bzip2)" : "eki"
        print("osm-bench: \(label) " + String(format: "%.1f MB in %.2f s = %.1f MB/s, %d rows, %d entries, %d warnings, "
                     + "RSS before %d MB, peak RSS (VmHWM) %d MB",
                     mb, seconds, mb / seconds, batch.records.count, entries.count, batch.warnings.count,
                     rssBefore / 1024, Self.status("VmHWM") / 1024))
        #expect(!batch.records.isEmpty)
    }

    /// A `kB` field of /proc/self/status (`VmHWM` = peak resident set), in kB; 0 when absent.
    static func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return 0
    }
}
