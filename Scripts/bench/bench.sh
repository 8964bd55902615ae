#!/usr/bin/env bash
# EkiKit beside its peers, in one run, on the same files: import (with the packed R-tree),
# viewport (bbox) and exact k-NN latency in-process, OSM XML throughput, and cold `eki bbox` /
# `eki nearest` processes. Prints one table (ours beside each peer, with ratios) and writes JSON.
#
#   Scripts/bench/bench.sh                     # everything (~15 min on 2 cores); data made once, kept
#   EKI_BENCH_DIR=/tmp/eb Scripts/bench/bench.sh
#   EKI_BENCH_PEERS=0 Scripts/bench/bench.sh   # ours only, beside the peers' JSON of an earlier run
#   EKI_BENCH_5M=1 Scripts/bench/bench.sh      # adds a 5M-point import and queries
#   EKI_BENCH_INPROC=0 Scripts/bench/bench.sh  # without the two extra in-process 1M imports (packed
#                                              # vs row-by-row R-tree; their rows keep earlier JSON)
#
# The 1M import's peer is `ogr2ogr -f GPKG` (Debian gdal-bin; skipped when missing) on the same
# CSV; imports and queries also run at 10k and 100k for the scaling rows.
#
# Data and results live in bench-data/ (git-ignored). The peers (../shared/bench/peers: their
# generators, bench_peers.py, setup.sh) are copied to bench-data/peers, whose setup.sh builds
# their venv from PyPI and apt once (as root). Not part of the test suite; CI does not run it.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${EKI_BENCH_DIR:-$root/bench-data}"
peers_src="${EKI_PEERS_SRC:-$root/../shared/bench/peers}"
peers="$dir/peers"
run_peers="${EKI_BENCH_PEERS:-1}"
seed=42 qseed=7 k=10 q=20000
mkdir -p "$dir/results"
out="$dir/results"

log() { echo "[bench $(date +%H:%M:%S)] $*" >&2; }

# 1. The peers' folder (writable copy) and their venv.
if [ ! -f "$peers/bench_peers.py" ]; then
    [ -f "$peers_src/bench_peers.py" ] || { echo "bench: no peers at $peers_src (set EKI_PEERS_SRC)" >&2; exit 1; }
    mkdir -p "$peers" && cp -r "$peers_src/." "$peers/" && chmod -R u+w "$peers"
fi
PY="$peers/.venv/bin/python"
if ! [ -x "$PY" ] || ! "$PY" -c 'import sqlite3, rtree, scipy, osmium; sqlite3.connect(":memory:").enable_load_extension(True)' 2>/dev/null; then
    log "building the peers' venv (setup.sh: apt + PyPI)"
    (cd "$peers" && ./setup.sh)
fi
command -v /usr/bin/time >/dev/null || { echo "bench: /usr/bin/time is missing (apt-get install time)" >&2; exit 1; }

# 2. Data, with the peers' generators (made once).
data="$peers/data"
mkdir -p "$data"
[ -s "$data/points_10k.csv" ] || (cd "$peers" && "$PY" gen_points.py 10000 "$seed" data/points_10k.csv)
[ -s "$data/points_100k.csv" ] || (cd "$peers" && "$PY" gen_points.py 100000 "$seed" data/points_100k.csv)
[ -s "$data/points_1m.csv" ] || (cd "$peers" && "$PY" gen_points.py 1000000 "$seed" data/points_1m.csv)
if [ "${EKI_BENCH_5M:-0}" = 1 ]; then
    [ -s "$data/points_5m.csv" ] || (cd "$peers" && "$PY" gen_points.py 5000000 "$seed" data/points_5m.csv)
fi
[ -s "$data/stations_50k.osm" ] || (cd "$peers" && "$PY" gen_osm.py 50000 "$seed" data/stations_50k.osm)
scale="10k 100k 1m"; [ "${EKI_BENCH_5M:-0}" = 1 ] && scale="$scale 5m"
for n in $scale; do
    [ -s "$dir/queries_$n/knn_ref.bin" ] || PEERS_DIR="$peers" "$PY" "$root/Scripts/bench/make_queries.py" \
        "$data/points_$n.csv" "$q" "$qseed" "$k" "$dir/queries_$n" >&2
done

# 3. Build (release).
log "building eki and eki-bench (release)"
(cd "$root" && swift build -c release --product eki >&2 && swift build -c release --product eki-bench >&2)
bin="$(cd "$root" && swift build -c release --show-bin-path)"
eki="$bin/eki" bench="$bin/eki-bench"

# 4. Ours.
timed() {  # json-file command... : wall seconds and peak RSS of a process
    local f=$1; shift
    local t
    /usr/bin/time -f '%e %M' -o "$f.time" "$@" >/dev/null 2>&1
    t=$(tail -n 1 "$f.time"); rm -f "$f.time"
    echo "{\"wall_s\": ${t% *}, \"peak_rss_mb\": $(( ${t#* } / 1024 ))}" >"$f"
}
filemb() { python3 -c "import os, sys; print(round(os.path.getsize(sys.argv[1]) / 1e6, 1))" "$1"; }
addjson() {  # json-file key value: adds one number to a JSON object
    python3 -c "import json, sys; d = json.load(open(sys.argv[1])); d[sys.argv[2]] = float(sys.argv[3]); json.dump(d, open(sys.argv[1], 'w'))" "$@"
}
for n in $scale; do
    log "eki import $n (command line, packed R-tree)"
    rm -f "$dir/eki_$n.gpkg"*
    cat "$data/points_$n.csv" >/dev/null
    timed "$out/eki_import_cli_$n.json" "$eki" import --profile generic --db "$dir/eki_$n.gpkg" "$data/points_$n.csv"
    addjson "$out/eki_import_cli_$n.json" file_mb "$(filemb "$dir/eki_$n.gpkg")"
done
# ogr2ogr's GeoPackage (with its R-tree) of the same CSV: the import goal's peer (GDAL, apt).
if command -v ogr2ogr >/dev/null; then
    for n in 10k 1m; do
        log "ogr2ogr -f GPKG $n"
        rm -f "$dir/ogr_$n.gpkg"
        timed "$out/ogr2ogr_$n.json" ogr2ogr -f GPKG "$dir/ogr_$n.gpkg" "$data/points_$n.csv" \
            -oo X_POSSIBLE_NAMES=lon -oo Y_POSSIBLE_NAMES=lat -oo AUTODETECT_TYPE=YES -a_srs EPSG:4326 -nln stations
        addjson "$out/ogr2ogr_$n.json" file_mb "$(filemb "$dir/ogr_$n.gpkg")"
        rm -f "$dir/ogr_$n.gpkg"
    done
else
    log "no ogr2ogr (apt-get install gdal-bin): the import goal has no peer"
fi
if [ "${EKI_BENCH_INPROC:-1}" = 1 ]; then
    log "eki import 1m in-process: packed, then row by row"
    "$bench" import --csv "$data/points_1m.csv" --db "$dir/eki_1m_packed.gpkg" >"$out/eki_import_packed_1m.json"
    "$bench" import --csv "$data/points_1m.csv" --db "$dir/eki_1m_rows.gpkg" --rtree row-by-row >"$out/eki_import_rows_1m.json"
    rm -f "$dir/eki_1m_packed.gpkg"* "$dir/eki_1m_rows.gpkg"*
fi
log "R-tree alone, 1m: packed vs row by row (rolled back)"
"$bench" rtree --db "$dir/eki_1m.gpkg" >"$out/eki_rtree_1m.json"
for n in $scale; do
    log "eki queries $n"
    "$bench" queries --db "$dir/eki_$n.gpkg" --queries "$dir/queries_$n" --k "$k" >"$out/eki_queries_$n.json"
done
log "eki OSM parse"
cat "$data/stations_50k.osm" >/dev/null
"$bench" osm "$data/stations_50k.osm" >"$out/eki_osm.json"
log "OSM PBF: eki import beside osmium tags-filter (Scripts/bench/bench-osm.sh's PBF part)"
if command -v osmium >/dev/null; then
    EKI_BENCH_DIR="$dir" EKI_BENCH_OSM_FILE="$data/stations_50k.osm" EKI_BENCH_RESULTS="$out" \
        "$root/Scripts/bench/bench-osm.sh" >"$out/bench_osm.txt" || log "bench-osm.sh failed: see $out/bench_osm.txt"
else
    log "no osmium (apt-get install osmium-tool): the PBF goal has no figures"
fi
log "cold eki bbox / eki nearest on the 1m database"
python3 - "$eki" "$dir/eki_1m.gpkg" >"$out/eki_cli_cold.json" <<'EOF'
import json, statistics, subprocess, sys, time
eki, db = sys.argv[1], sys.argv[2]
cmds = {"bbox": [eki, "bbox", "--db", db, "139.742,35.661,139.792,35.701"],
        "nearest": [eki, "nearest", "--db", db, "--lat", "35.681", "--lon", "139.767", "-k", "10"],
        "bbox_json": [eki, "bbox", "--db", db, "139.742,35.661,139.792,35.701", "--format", "json"]}
res = {}
for name, cmd in cmds.items():
    subprocess.run(cmd, check=True, capture_output=True)
    walls = []
    for _ in range(20):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, check=True, capture_output=True)
        walls.append((time.perf_counter() - t0) * 1000)
    res[name] = {"cmd": " ".join(cmd[1:]), "runs": len(walls), "median_ms": round(statistics.median(walls), 1),
                 "max_ms": round(max(walls), 1), "min_ms": round(min(walls), 1), "lines_out": p.stdout.count(b"\n")}
res["note"] = "new process each run (page cache warm), wall time from fork to exit"
print(json.dumps(res, indent=1))
EOF

# 5. The peers, in the same run (their run_all.sh's caps for the slow SpatiaLite KNN).
if [ "$run_peers" = 1 ]; then
    cd "$peers"
    log "peers 10k"
    "$PY" bench_peers.py --points data/points_10k.csv --queries "$q" --k "$k" --seed "$qseed" \
        --cap spatialite.knn_legacy=2000 --cap spatialite.knn2=2000 --out "$out/peers_10k.json" --workdir "$dir/peers_db"
    log "peers 1m"
    "$PY" bench_peers.py --points data/points_1m.csv --queries "$q" --k "$k" --seed "$qseed" \
        --cap spatialite.knn_legacy=200 --cap spatialite.knn2=2000 --out "$out/peers_1m.json" --workdir "$dir/peers_db"
    rm -rf "$dir/peers_db"
    log "peers OSM"
    "$PY" bench_peers.py --osm data/stations_50k.osm --out "$out/peers_osm.json"
    cd "$root"
fi

# 6. One table and one JSON.
python3 "$root/Scripts/bench/report.py" "$out" | tee "$out/TABLE.md"
log "JSON: $out/bench.json; table: $out/TABLE.md"
