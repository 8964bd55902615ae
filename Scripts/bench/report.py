#!/usr/bin/env python3
"""report.py RESULTS_DIR -- one table (ours beside each peer, with ratios) and bench.json.

Reads what Scripts/bench/bench.sh wrote: eki_*.json (ours) and peers_*.json (bench_peers.py).
A ratio is the peer's time over ours (> 1: we are faster), or our MB/s over theirs for OSM.
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
        "eki_queries_10k", "eki_queries_1m", "eki_osm", "eki_cli_cold", "peers_10k", "peers_1m", "peers_osm")}
    rows = []

    def row(goal, n, what, ours, peer_name, peer, rat, met=""):
        rows.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (goal, n, what, ours, peer_name, peer, rat, met))

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
                           ("bbox_full", "bbox p50 / p99 µs (`stations(in:)`, whole entries)")):
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
    print("| goal | N | measure | eki | peer | peer value | ratio | goal met / check |")
    print("|---|---|---|--:|---|--:|--:|---|")
    for line in rows:
        print(line)
    json.dump({"eki": {k: v for k, v in r.items() if k.startswith("eki") and v is not None},
               "peers": {k: v for k, v in r.items() if k.startswith("peers") and v is not None},
               "table": rows}, open(os.path.join(d, "bench.json"), "w"), indent=1, default=str)


if __name__ == "__main__":
    main()
