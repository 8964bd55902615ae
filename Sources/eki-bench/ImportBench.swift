import EkiImport
import EkiKit
import Foundation

// MARK: import

/// `eki-bench import --csv P.csv --db D.gpkg [--rtree packed|row-by-row]`
///
/// Reads P.csv with the generic CSV importer and imports it into a new database at D (any old
/// file and its journals removed), the R-tree packed (default) or built row by row. Prints one
/// JSON object: rows, entries, read / store / wall seconds, peak RSS (VmHWM) in MB, entries
/// added. Run by Scripts/bench/bench.sh.
func runImport(_ args: [String]) throws {
    let csv = option("csv", args)!, path = option("db", args)!
    for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let t0 = now()
    let batch = try GenericCSVImporter(path: csv).read()
    let t1 = now()
    let store = try StationStore(path: path)
    store.spatial.build = option("rtree", args) == "row-by-row" ? .rowByRow : .automatic
    let result = try store.importBatches([(batch.dataset, batch.records)])
    let t2 = now()
    emit(["rtree": option("rtree", args) ?? "packed", "rows": batch.records.count, "entries": try store.entries.count(),
          "read_s": round2(Double(t1 - t0) / 1e9), "store_s": round2(Double(t2 - t1) / 1e9),
          "wall_s": round2(Double(t2 - t0) / 1e9), "peak_rss_mb": round2(statusMB("VmHWM")),
          "added": result.merge.added])
}
