// eki-bench: every in-process benchmark (not a user command), run by the scripts in
// Scripts/bench/.
//
//   eki-bench import  --csv P.csv --db D.gpkg [--rtree packed|row-by-row]  (bench.sh; ImportBench.swift)
//   eki-bench rtree   --db D.gpkg                                         (bench.sh; RTreeBench.swift)
//   eki-bench queries --db D.gpkg --queries DIR [--k 10] [--verify 100] [--only knn]  (bench.sh; QueriesBench.swift)
//   eki-bench osm     FILE.osm[.pbf] [--runs 3] [--bytes N]    (bench.sh, bench-osm.sh; OSMBench.swift)
//   eki-bench search  --db D.gpkg --queries FILE [...]         (bench-search.sh; SearchBench.swift)
//   eki-bench render  --db D.gpkg [--runs 5]                   (bench-render.sh; RenderBench.swift)
//   eki-bench clusters --db D.gpkg [--queries 2000] [--visited 1000]  (bench-clusters.sh; ClustersBench.swift)
//   eki-bench login   --db D.gpkg [--runs 20] [--seconds 20]  (bench-login.sh; LoginBench.swift)
//   eki-bench photo   --out DIR [--runs 5]                     (bench-photo.sh; PhotoBench.swift)
//
// All but search print one JSON object on stdout; search prints tables for people. Query sets
// and reference answers for `queries` come from Scripts/bench/make_queries.py (the peers'
// generators). Latency protocol as the peers': warm-up set first, then every query timed alone
// (monotonic clock), p50/p99/mean/max in µs, then a second untimed pass over the whole set for
// queries per second. A usage error exits 64, a failure 1.
// Shared helpers (clock, options, percentiles, the timing loop) are in BenchSupport.swift.
import Foundation

let args = Array(CommandLine.arguments.dropFirst())
do {
    switch args.first {
    case "import": try runImport(Array(args.dropFirst()))
    case "rtree": try runRTree(Array(args.dropFirst()))
    case "queries": try runQueries(Array(args.dropFirst()))
    case "osm": try runOSM(Array(args.dropFirst()))
    case "search": try runSearch(Array(args.dropFirst()))
    case "render": try runRender(Array(args.dropFirst()))
    case "clusters": try runClusters(Array(args.dropFirst()))
    case "login": try runLogin(Array(args.dropFirst()))
    case "photo": try runPhoto(Array(args.dropFirst()))
    default:
        FileHandle.standardError.write(Data("usage: eki-bench import|rtree|queries|osm|search|render|clusters|login|photo … (see Scripts/bench/)\n".utf8))
        exit(64)
    }
} catch let error as BenchUsageError {
    FileHandle.standardError.write(Data("eki-bench \(error)\n".utf8))
    exit(64)
} catch {
    FileHandle.standardError.write(Data("eki-bench: \(error)\n".utf8))
    exit(1)
}
