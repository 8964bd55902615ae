#!/usr/bin/env python3
"""report.py RESULTS_DIR -- one table (ours beside each peer, with ratios) and bench.json.

Reads what Scripts/bench/bench.sh wrote: eki_*.json (ours), peers_*.json (bench_peers.py) and
ogr2ogr_*.json (the import goal's peer: wall_s, peak_rss_mb, file_mb), and, when present,
eki_pbf.json / peers_pbf.json (OSM PBF: wall_s, peak_rss_mb). First the goals of issue 18, each
with yes/no beside its peer, then the scaling rows (10k, 100k, 1M, 5M as far as run), then every
measure. A ratio is the peer's time over ours (> 1: we are faster), or our MB/s over theirs for OSM.
"""
import json
import os
import platform
import sys


def load(d, name):
    p = os.path.join(d, name)
    return json.load(open(p)) if os.path.exists(p) else None


def us(x):
    return "-" if x is None else ("%.1f" % x if x < 100 else "%.0f" % x)


def ratio(peer, ours):
    if not peer or not ours:
        return "-"
    return "%.1f×" % (peer / ours)


def main():
    d = sys.argv[1]
    r = {n: load(d, n + ".json") for n in (
        "eki_import_cli_10k", "eki_import_cli_1m", "eki_import_packed_1m", "eki_import_rows_1m", "eki_rtree_1m",
        "eki_queries_10k", "eki_queries_1m", "eki_osm", "eki_cli_cold", "peers_10k", "peers_1m", "peers_osm",
        "eki_import_cli_100k", "eki_import_cli_5m", "eki_queries_100k", "eki_queries_5m", "ogr2ogr_10k", "ogr2ogr_1m",
        "eki_pbf", "peers_pbf")}
    rows = []
    goals = []

    def goal(what, ours, peer_name, peer, met):
        goals.append("| %s | %s | %s | %s | %s |" % (what, ours, peer_name, peer, "**yes**" if met else ("-" if met is None else "no")))

    def row(goal, n, what, ours, peer_name, peer, rat, met=""):
        rows.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (goal, n, what, ours, peer_name, peer, rat, met))

    # Issue #18's goals, each beside its peer.
    cli = r["eki_import_cli_1m"] or {}
    ogr = r["ogr2ogr_1m"] or {}
    w, ow = cli.get("wall_s"), ogr.get("wall_s")
    goal("1M generic-CSV import (search index included): wall s ≤ ogr2ogr -f GPKG", w, "ogr2ogr -f GPKG", ow,
         (w <= ow) if w and ow else None)
    goal("same import: peak RSS MB ≤ 300", cli.get("peak_rss_mb"), "ogr2ogr peak RSS MB", ogr.get("peak_rss_mb"),
         cli["peak_rss_mb"] <= 300 if cli.get("peak_rss_mb") else None)
    fm, om = cli.get("file_mb"), ogr.get("file_mb")
    goal("same import: file MB ≤ 2.5 × the GeoPackage's", "%s (%s×)" % (fm, "%.2f" % (fm / om) if fm and om else "-"),
         "ogr2ogr GeoPackage MB", om, (fm <= 2.5 * om) if fm and om else None)
    ck = ((r["peers_1m"] or {}).get("points", {}).get("methods", {}).get("ckdtree", {}).get("knn", {}))
    lean = (r["eki_queries_1m"] or {}).get("knn_lean_k10", {})
    v = lean.get("verify", {})
    ok = lean.get("p50_us") is not None and ck.get("p50_us") is not None
    goal("k-NN k=10 at 1M: p50 / p99 µs ≤ cKDTree's, = brute force (%d/%d)" % (v.get("exact_vs_bruteforce", 0), v.get("samples", 0)),
         "%s / %s" % (us(lean.get("p50_us")), us(lean.get("p99_us"))), "cKDTree",
         "%s / %s" % (us(ck.get("p50_us")), us(ck.get("p99_us"))),
         (lean["p50_us"] <= ck["p50_us"] and lean["p99_us"] <= ck["p99_us"] and v.get("samples", 0) > 0
          and v.get("exact_vs_bruteforce") == v.get("samples")) if ok else None)
    po, eo = (r["peers_osm"] or {}).get("osm", {}).get("osmium_tags_filter", {}), r["eki_osm"] or {}
    goal("OSM XML (140 MB): MB/s ≥ osmium tags-filter's, peak RSS ≤ 150 MB",
         "%s (%s MB)" % (eo.get("mb_per_s"), eo.get("peak_rss_mb")), "osmium tags-filter MB/s", po.get("mb_per_s"),
         (eo["mb_per_s"] >= po["mb_per_s"] and eo.get("peak_rss_mb", 1e9) <= 150) if eo.get("mb_per_s") and po.get("mb_per_s") else None)
    pb, pp = r["eki_pbf"] or {}, r["peers_pbf"] or {}
    goal("OSM PBF (%s MB of XML): time to stations in the db ≤ osmium tags-filter's to a file, peak RSS ≤ 300 MB"
         % pb.get("xml_mb", "?"),
         "%s s (%s MB; read alone %s s)" % (pb.get("wall_s"), pb.get("peak_rss_mb"), pb.get("read_s", "-")) if pb else "-",
         "osmium tags-filter s (-R)",
         "%s (%s)" % (pp.get("wall_s", "-"), pp.get("r_wall_s", "-")) if pp else "-",
         (pb["wall_s"] <= pp["wall_s"] and pb.get("peak_rss_mb", 1e9) <= 300) if pb.get("wall_s") and pp.get("wall_s") else None)
    scaling = []
    for n in ("10k", "100k", "1m", "5m"):
        x = r["eki_import_cli_" + n]
        if not x:
            continue
        q = (r["eki_queries_" + n] or {}).get("knn_lean_k10", {})
        bq = (r["eki_queries_" + n] or {}).get("bbox_lean", {})
        e = {"10k": 1e4, "100k": 1e5, "1m": 1e6, "5m": 5e6}[n]
        scaling.append("| %s | %s | %s | %.1f | %s | %.0f | %s / %s | %s |" % (
            n.upper() if n != "10k" and n != "100k" else n, x.get("wall_s"), x.get("peak_rss_mb"), x["wall_s"] / e * 1e6,
            x.get("file_mb", "-"), (x["file_mb"] * 1e6 / e) if x.get("file_mb") else 0,
            us(q.get("p50_us")), us(q.get("p99_us")), us(bq.get("p50_us"))))

    # Build / import.
    p1m = (r["peers_1m"] or {}).get("points", {}).get("methods", {})
    cli = r["eki_import_cli_1m"] or {}
    packed, rows_ = r["eki_import_packed_1m"] or {}, r["eki_import_rows_1m"] or {}
    rt = r["eki_rtree_1m"] or {}
    sq = p1m.get("sqlite_rtree", {}).get("build", {})
    w = cli.get("wall_s")
    row("build", "1M", "`eki import` wall s (peak RSS MB)", "%s (%s)" % (w, cli.get("peak_rss_mb")),
        "sqlite_rtree, row by row", sq.get("build_s"), ratio(sq.get("build_s"), w),
        "≥5×: %s; RSS<500: %s" % ("yes" if sq.get("build_s") and w and sq["build_s"] / w >= 5 else "no",
                                  "yes" if cli.get("peak_rss_mb", 999) < 500 else "no"))
    row("build", "1M", "same import, in-process, packed vs row-by-row R-tree, s", packed.get("wall_s"),
        "eki row by row (same code)", rows_.get("wall_s"), ratio(rows_.get("wall_s"), packed.get("wall_s")), "")
    row("build", "1M", "R-tree alone: packed (STR) s", rt.get("packed_s"),
        "row-by-row inserts (same DB)", rt.get("row_by_row_s"), ratio(rt.get("row_by_row_s"), rt.get("packed_s")),
        "rtreecheck %s; leaves = row-by-row: %s" % (rt.get("rtreecheck_packed"), rt.get("same_leaf_entries")))
    for peer in ("rtree", "ckdtree", "spatialite"):
        b = p1m.get(peer, {}).get("build", {}).get("build_s")
        row("build", "1M", "(index build only, for reference)", rt.get("packed_s"), peer, b, ratio(b, rt.get("packed_s")), "")

    # Viewport.
    for n in ("10k", "1m"):
        ours = r["eki_queries_" + n] or {}
        pm = (r["peers_" + n] or {}).get("points", {}).get("methods", {})
        lean = ours.get("bbox_lean", {})
        best = min(((k, m["bbox"]["p50_us"]) for k, m in pm.items() if "bbox" in m and "p50_us" in m["bbox"]),
                   key=lambda t: t[1], default=(None, None))
        ver = lean.get("verify", {})
        for peer, m in sorted(pm.items()):
            b = m.get("bbox")
            if not b or "p50_us" not in b:
                continue
            met = ""
            if peer == best[0]:
                met = "p50 ≤ best peer: %s; ids = peers' %d/%d" % (
                    "yes" if lean.get("p50_us", 1e9) <= best[1] else "no",
                    ver.get("queries_compared", 0) - ver.get("mismatches", 0), ver.get("queries_compared", 0))
            row("viewport", n.upper() if n == "1m" else n, "bbox p50 / p99 µs (lean, snapshot)",
                "%s / %s" % (us(lean.get("p50_us")), us(lean.get("p99_us"))), peer,
                "%s / %s" % (us(b["p50_us"]), us(b["p99_us"])), ratio(b["p50_us"], lean.get("p50_us")), met)
        for key, label in (("bbox_lean_no_snapshot", "bbox p50 / p99 µs (lean, change check per query)"),
                           ("bbox_full", "bbox p50 / p99 µs (`stations(in:)`, whole entries)"),
                           ("bbox_full_limit300", "bbox p50 / p99 µs (whole entries, 300-pin cap)")):
            x = ours.get(key, {})
            if best[1]:
                row("viewport", n.upper() if n == "1m" else n, label, "%s / %s" % (us(x.get("p50_us")), us(x.get("p99_us"))),
                    best[0], us(best[1]), ratio(best[1], x.get("p50_us")), "n=%s" % x.get("n_queries"))

    # k-NN.
    for n in ("10k", "1m"):
        ours = r["eki_queries_" + n] or {}
        pm = (r["peers_" + n] or {}).get("points", {}).get("methods", {})
        label = n.upper() if n == "1m" else n
        lean = ours.get("knn_lean_k10", {})
        ck = pm.get("ckdtree", {}).get("knn", {})
        for peer, m in sorted(pm.items()):
            kk = m.get("knn") or m.get("knn_legacy") or m.get("knn2")
            if not kk or "p50_us" not in kk:
                continue
            met = ""
            if peer == "ckdtree":
                v = lean.get("verify", {})
                met = "p50 ≤ cKDTree: %s; = brute force %d/%d" % (
                    "yes" if lean.get("p50_us", 1e9) <= kk["p50_us"] else "no", v.get("exact_vs_bruteforce", 0), v.get("samples", 0))
            row("k-NN k=10", label, "p50 / p99 µs (lean, snapshot)", "%s / %s" % (us(lean.get("p50_us")), us(lean.get("p99_us"))),
                peer + ("" if "knn" in m else " (KNN VT)"), "%s / %s" % (us(kk["p50_us"]), us(kk["p99_us"])),
                ratio(kk["p50_us"], lean.get("p50_us")), met)
        for key, lab in (("knn_lean_k10_no_snapshot", "p50 / p99 µs (lean, change check per query)"),
                         ("knn_full_k10", "p50 / p99 µs (`nearest(to:k:)`, whole entries)"),
                         ("knn_lean_k1", "k=1 p50 / p99 µs (lean)"), ("knn_lean_k100", "k=100 p50 / p99 µs (lean)")):
            x = ours.get(key, {})
            v = x.get("verify")
            row("k-NN", label, lab, "%s / %s" % (us(x.get("p50_us")), us(x.get("p99_us"))),
                "ckdtree k=10", us(ck.get("p50_us")), ratio(ck.get("p50_us"), x.get("p50_us")) if "k10" in key else "-",
                ("= brute force %d/%d" % (v["exact_vs_bruteforce"], v["samples"])) if v else "")

    # OSM.
    po, eo = (r["peers_osm"] or {}).get("osm", {}), r["eki_osm"] or {}
    for peer in ("osmium_tags_filter", "pyosmium_simplehandler", "pyosmium_simplehandler_keyfilter"):
        x = po.get(peer, {})
        row("OSM XML", "%s MB" % eo.get("mb"), "MB/s (median of 3; peak RSS MB)", "%s (%s)" % (eo.get("mb_per_s"), eo.get("peak_rss_mb")),
            peer, x.get("mb_per_s"), "%.2f×" % (eo["mb_per_s"] / x["mb_per_s"]) if x.get("mb_per_s") and eo.get("mb_per_s") else "-",
            ("≥ osmium: %s" % ("yes" if eo.get("mb_per_s", 0) >= x.get("mb_per_s", 1e9) else "no")) if peer == "osmium_tags_filter" else "")

    # Cold command line.
    c = r["eki_cli_cold"] or {}
    for name in ("bbox", "nearest", "bbox_json"):
        x = c.get(name, {})
        label = x.get("cmd", name).split(" --db")[0] + (" --format json" if name.endswith("json") else "")
        row("CLI cold", "1M", "`eki %s` wall ms median / max (20 runs)" % label,
            "%s / %s" % (x.get("median_ms"), x.get("max_ms")), "goal", "50", ratio(50, x.get("median_ms")),
            "< 50 ms: %s" % ("yes" if x.get("max_ms", 1e9) < 50 else "median only" if x.get("median_ms", 1e9) < 50 else "no"))

    mach = (r["peers_1m"] or r["peers_10k"] or {}).get("machine", {})
    print("EkiKit benchmark beside the peers (one run of Scripts/bench/bench.sh). Machine: %s, %s CPUs, %s; %s." % (
        mach.get("cpu", "?"), mach.get("cpus", os.cpu_count()), mach.get("mem", "?"), platform.platform()))
    print("Ratio = peer time / eki time (> 1: eki faster); OSM: eki MB/s / peer MB/s.\n")
    print("Issue #18 goals:\n")
    print("| goal | eki | peer | peer value | met |")
    print("|---|--:|---|--:|---|")
    for line in goals:
        print(line)
    if scaling:
        print("\nScaling (generic-CSV `eki import`, then lean k-NN k=10 and viewport in-process):\n")
        print("| points | import s | peak RSS MB | µs per entry | file MB | bytes per entry | k-NN p50 / p99 µs | bbox p50 µs |")
        print("|--:|--:|--:|--:|--:|--:|--:|--:|")
        for line in scaling:
            print(line)
    print("\nAll measures:\n")
    print("| goal | N | measure | eki | peer | peer value | ratio | goal met / check |")
    print("|---|---|---|--:|---|--:|--:|---|")
    for line in rows:
        print(line)
    json.dump({"eki": {k: v for k, v in r.items() if k.startswith("eki") and v is not None},
               "peers": {k: v for k, v in r.items() if k.startswith("peers") and v is not None},
               "goals": goals, "scaling": scaling, "table": rows}, open(os.path.join(d, "bench.json"), "w"), indent=1, default=str)


if __name__ == "__main__":
    main()
