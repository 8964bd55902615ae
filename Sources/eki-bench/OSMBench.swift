import EkiImport
import EkiKit
import Foundation

// MARK: OSM

/// `eki-bench osm FILE [--runs N] [--bytes N] [--threads N]`
///
/// Times `OSMImporter.read()` on FILE (plain, `.gz` or `.bz2`), or `OSMPBFImporter.read()` when
/// FILE is PBF (by its first bytes): parse and build station rows,
/// no database write; `--runs` times (default 3), the median counted. MB/s are 10^6 bytes of
/// input per second: the file's size, or `--bytes` (the uncompressed size of a compressed
/// file). Peak RSS (VmHWM) is read after the parses, before the entry rule is applied to the
/// last run's rows to count entries; `cpu_s` is each run's CPU time (user + system, all
/// threads). `--threads` sets `OSMImporter.threads` (XML; default: one
/// per core). Run by Scripts/bench/bench.sh and bench-osm.sh.
func runOSM(_ args: [String]) throws {
    guard let path = args.first, !path.hasPrefix("--") else { throw BenchUsageError("osm: FILE is required") }
    let fileBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let bytes = option("bytes", args).flatMap { Int($0) } ?? fileBytes
    guard let runs = Int(option("runs", args) ?? "3"), runs >= 1 else { throw BenchUsageError("osm: --runs needs a whole number of at least 1") }
    let threads = try option("threads", args).map { v -> Int in
        guard let n = Int(v), n >= 1 else { throw BenchUsageError("osm: --threads needs a whole number of at least 1") }
        return n
    }
    let isPBF = OSMPBFImporter.isPBF(path: path)
    let rssBefore = statusMB("VmRSS")
    var walls: [Double] = []
    var cpus: [Double] = []
    var batch: ImportBatch?
    for _ in 0..<runs {
        batch = nil
        let c0 = processCPUSeconds()
        let t0 = now()
        if isPBF {
            batch = try OSMPBFImporter(path: path).read()
        } else {
            var importer = OSMImporter(path: path)
            if let threads { importer.threads = threads }
            batch = try importer.read()
        }
        walls.append(Double(now() - t0) / 1e9)
        cpus.append(processCPUSeconds() - c0)
    }
    let peak = statusMB("VmHWM")
    let rows = batch!.records
    let median = walls.sorted()[walls.count / 2]
    emit(["label": isPBF ? "eki (pbf)" : path.hasSuffix(".gz") ? "eki (gzip)" : path.hasSuffix(".bz2") ? "eki (bzip2)" : "eki",
          "bytes": bytes, "file_bytes": fileBytes, "mb": round2(Double(bytes) / 1e6), "wall_s": walls.map(round2),
          "median_s": round2(median), "cpu_s": cpus.map(round2), "mb_per_s": round2(Double(bytes) / 1e6 / median), "rows": rows.count,
          "entries": EntryRule().entries(from: rows).count, "warnings": batch!.warnings.count,
          "rss_before_mb": round2(rssBefore), "peak_rss_mb": round2(peak),
          "note": "\(isPBF ? "OSMPBFImporter" : "OSMImporter").read(): parse and build station rows, no database write"])
}

/// User plus system CPU time of the whole process (every thread), in seconds.
private func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
