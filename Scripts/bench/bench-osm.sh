#!/usr/bin/env bash
# Benchmark of the OSM importers (XML and PBF) beside `osmium tags-filter` on the same files.
#
#   Scripts/bench/bench-osm.sh            # 220 MB file in bench-data/ (git-ignored), made once
#   EKI_BENCH_MB=400 EKI_BENCH_DIR=/tmp/eki-bench Scripts/bench/bench-osm.sh
#   EKI_BENCH_OSM_FILE=peers.osm Scripts/bench/bench-osm.sh   # XML part on a given file
#   EKI_BENCH_GZIP=1 Scripts/bench/bench-osm.sh   # also time a gzip copy with both tools
#   EKI_BENCH_PBF_MB=520 Scripts/bench/bench-osm.sh  # PBF of a 520 MB XML extract (0: no PBF part)
#   EKI_BENCH_RESULTS=DIR ...   # also writes DIR/eki_pbf.json and peers_pbf.json (bench.sh does)
#   EKI_BENCH_ROUNDS=3 ...      # XML: also eki and the peers' `osmium tags-filter FILE
#                               # n/railway=station` run alternately 3 times each, every run shown
#
# XML part: MB/s (10^6 bytes of input per second) and peak resident memory of each run:
# - eki: OSMImporter.read() on the file, timed in-process by the release-built `eki-bench osm`
#   (one run; the first pass is read in parts on one thread per core); peak = the process's
#   VmHWM;
# - osmium: `osmium tags-filter` with the same station/route filter, writing OSM XML, once with
#   referenced objects (reads the input up to three times) and once with -R (one read);
#   elapsed time and peak RSS from /usr/bin/time.
# Goal: eki's MB/s >= osmium tags-filter's (the default, with referenced objects), <= 150 MB.
#
# PBF part: the generator's XML of EKI_BENCH_PBF_MB MB made into PBF by `osmium cat`; time to
# stations in a new database (`eki import FILE.osm.pbf`, the release-built CLI: read, entry
# rule, store and indexes) beside time to a filtered PBF file (`osmium tags-filter`, same
# filter, with and without -R); wall time and peak RSS from /usr/bin/time.
# Goal: eki's wall time <= osmium tags-filter's on the same PBF, <= 300 MB.
# Needs python3, osmium-tool and /usr/bin/time (Debian: apt-get install osmium-tool time).
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${EKI_BENCH_DIR:-$root/bench-data}"
megabytes="${EKI_BENCH_MB:-220}"
mkdir -p "$dir"
file="${EKI_BENCH_OSM_FILE:-$dir/synthetic-${megabytes}mb.osm}"
pbf_megabytes="${EKI_BENCH_PBF_MB:-520}"

for tool in python3 osmium /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench-osm: $tool is missing" >&2; exit 1; }
done

if [ ! -s "$file" ]; then
    python3 "$root/Scripts/bench/gen-osm-extract.py" --megabytes "$megabytes" --output "$file"
fi
bytes=$(stat -L -c %s "$file")

echo "bench-osm: building eki-bench and eki (release)" >&2
(cd "$root" && swift build -c release --product eki-bench >/dev/null && swift build -c release --product eki >/dev/null)
bench="$(cd "$root" && swift build -c release --show-bin-path)/eki-bench"
eki="$(cd "$root" && swift build -c release --show-bin-path)/eki"

filter=(nwr/railway=station,halt,tram_stop nwr/public_transport=station,stop_area
        r/route=train,subway,light_rail,monorail,tram,funicular
        r/route_master=train,subway,light_rail,monorail,tram,funicular)

run_eki() {  # file (its MB/s count the uncompressed bytes of the plain file; sets eki_s, eki_mb)
    local json
    json=$("$bench" osm "$1" --runs 1 --bytes "$bytes") || { echo "bench-osm: the eki run failed" >&2; exit 1; }
    eki_s=$(python3 -c "import json, sys; print(json.loads(sys.argv[1])['median_s'])" "$json")
    eki_mb=$(python3 -c "import json, sys; print(round(json.loads(sys.argv[1])['peak_rss_mb']))" "$json")
    python3 -c "import json, sys; r = json.loads(sys.argv[1]); \
print(f'osm-bench: {r[\"label\"]} {r[\"mb\"]:.1f} MB in {r[\"median_s\"]:.2f} s = {r[\"mb_per_s\"]:.1f} MB/s, ' \
      f'{r[\"rows\"]} rows, {r[\"entries\"]} entries, {r[\"warnings\"]} warnings, ' \
      f'RSS before {r[\"rss_before_mb\"]:.0f} MB, peak RSS (VmHWM) {r[\"peak_rss_mb\"]:.0f} MB')" "$json"
}

run_osmium() {  # label file options... (sets osmium_s, osmium_mb)
    local label=$1 input=$2; shift 2
    local out="$dir/osmium-out.osm" t
    [[ "$input" == *.pbf ]] && out="$dir/osmium-out.osm.pbf"
    t=$( { /usr/bin/time -f '%e %M' osmium tags-filter "$@" "$input" "${filter[@]}" -O -o "$out" 2>&1 >/dev/null; } | tail -n 1)
    rm -f "$out"
    local seconds=${t% *} kb=${t#* }
    osmium_s=$seconds osmium_mb=$((kb / 1024))
    python3 -c "import sys; b,s,k=int(sys.argv[1]),float(sys.argv[2]),int(sys.argv[3]); \
print(f'osm-bench: {sys.argv[4]} {b/1e6:.1f} MB in {s:.2f} s = {b/1e6/s:.1f} MB/s, peak RSS {k//1024} MB')" \
        "$bytes" "$seconds" "$kb" "$label"
}

yes_no() {  # python condition → yes/no
    python3 -c "import sys; print('yes' if $1 else 'no')"
}

cat "$file" >/dev/null  # same page-cache state for every run
echo "bench-osm: $(nproc) cores; input $file ($((bytes / 1000000)) MB)"
run_eki "$file"
xml_eki_s=$eki_s xml_eki_mb=$eki_mb
run_osmium "osmium tags-filter" "$file"
refs_s=$osmium_s
run_osmium "osmium tags-filter -R" "$file" -R
echo "osm-bench: goal XML: eki MB/s >= osmium tags-filter's: $(yes_no "$xml_eki_s <= $refs_s") ($xml_eki_s s vs $refs_s s)," \
     "and -R's: $(yes_no "$xml_eki_s <= $osmium_s") ($osmium_s s); peak RSS <= 150 MB: $(yes_no "$xml_eki_mb <= 150") ($xml_eki_mb MB)"

rounds="${EKI_BENCH_ROUNDS:-0}"
if [ "$rounds" -gt 0 ]; then
    # The peers' command (bench_peers.py --osm): one pass, nodes only, written as OSM XML.
    echo "bench-osm: interleaved, $rounds rounds: eki-bench osm, then osmium tags-filter FILE n/railway=station"
    eki_runs=() osmium_runs=()
    for ((round = 1; round <= rounds; round++)); do
        json=$("$bench" osm "$file" --runs 1 --bytes "$bytes")
        eki_runs+=("$(python3 -c "import json, sys; print(json.loads(sys.argv[1])['median_s'])" "$json")")
        eki_cpu=$(python3 -c "import json, sys; print(json.loads(sys.argv[1])['cpu_s'][0])" "$json")
        t=$( { /usr/bin/time -f '%e %U %S' osmium tags-filter "$file" n/railway=station -o "$dir/osmium-out.osm" --overwrite 2>&1 >/dev/null; } | tail -n 1)
        rm -f "$dir/osmium-out.osm"
        osmium_runs+=("${t%% *}")
        osmium_cpu=$(python3 -c "import sys; u, s = sys.argv[1].split()[1:]; print(round(float(u) + float(s), 2))" "$t")
        echo "osm-bench: round $round: eki ${eki_runs[-1]} s (CPU $eki_cpu s), osmium tags-filter n/railway=station ${t%% *} s (CPU $osmium_cpu s)"
    done
    python3 -c "import statistics, sys; b = int(sys.argv[1]); e = [float(x) for x in sys.argv[2].split()]; \
o = [float(x) for x in sys.argv[3].split()]; me, mo = statistics.median(e), statistics.median(o); \
print(f'osm-bench: interleaved medians: eki {b/1e6/me:.1f} MB/s ({me:.2f} s), osmium tags-filter {b/1e6/mo:.1f} MB/s ({mo:.2f} s): '
      f'eki/osmium {mo/me:.2f}x; eki >= 1.3x osmium: {\"yes\" if mo/me >= 1.3 else \"no\"}')" \
        "$bytes" "${eki_runs[*]}" "${osmium_runs[*]}"
fi

if [ "${EKI_BENCH_GZIP:-0}" = 1 ]; then
    gz="$file.gz"
    [ -s "$gz" ] || gzip -c -1 "$file" >"$gz"
    echo "bench-osm: gzip copy $gz ($(($(stat -c %s "$gz") / 1000000)) MB); MB/s below count uncompressed bytes"
    run_eki "$gz"
    run_osmium "osmium tags-filter (gzip)" "$gz"
fi

if [ "$pbf_megabytes" != 0 ]; then
    xml="$dir/synthetic-${pbf_megabytes}mb.osm"
    pbf="$xml.pbf"
    if [ ! -s "$pbf" ]; then
        [ -s "$xml" ] || python3 "$root/Scripts/bench/gen-osm-extract.py" --megabytes "$pbf_megabytes" --output "$xml"
        osmium cat "$xml" -o "$pbf" -O
    fi
    [ -s "$xml" ] && bytes=$(stat -L -c %s "$xml") || bytes=$((pbf_megabytes * 1000000))
    echo "bench-osm: PBF $pbf ($(($(stat -L -c %s "$pbf") / 1000000)) MB, from $((bytes / 1000000)) MB of XML; MB/s below count the XML bytes)"
    cat "$pbf" >/dev/null
    db="$dir/pbf-bench.gpkg"
    rm -f "$db" "$db-wal" "$db-shm"
    t=$( { /usr/bin/time -f '%e %M' "$eki" import --db "$db" "$pbf" 2>&1 >/dev/null; } | tail -n 1)
    pbf_eki_s=${t% *} pbf_eki_mb=$((${t#* } / 1024))
    stations=$(python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from stations').fetchone()[0])" "$db" 2>/dev/null || echo "?")
    python3 -c "import sys; b,s=int(sys.argv[1]),float(sys.argv[2]); \
print(f'osm-bench: eki import (pbf) {b/1e6:.1f} MB in {s:.2f} s = {b/1e6/s:.1f} MB/s, {sys.argv[4]} entries in the database, peak RSS {sys.argv[3]} MB')" \
        "$bytes" "$pbf_eki_s" "$pbf_eki_mb" "$stations"
    rm -f "$db" "$db-wal" "$db-shm"
    json=$("$bench" osm "$pbf" --runs 1 --bytes "$bytes")
    read_s=$(python3 -c "import json, sys; print(json.loads(sys.argv[1])['median_s'])" "$json")
    python3 -c "import json, sys; r = json.loads(sys.argv[1]); \
print(f'osm-bench: eki read only (pbf, OSMPBFImporter.read()) {r[\"median_s\"]:.2f} s, {r[\"rows\"]} rows, {r[\"entries\"]} entries, peak RSS {r[\"peak_rss_mb\"]:.0f} MB')" "$json"
    run_osmium "osmium tags-filter (pbf)" "$pbf"
    refs_s=$osmium_s
    refs_mb=$osmium_mb
    run_osmium "osmium tags-filter -R (pbf)" "$pbf" -R
    if [ -n "${EKI_BENCH_RESULTS:-}" ]; then  # for bench.sh's report (report.py's PBF goal row)
        mkdir -p "$EKI_BENCH_RESULTS"
        echo "{\"wall_s\": $pbf_eki_s, \"peak_rss_mb\": $pbf_eki_mb, \"read_s\": $read_s, \"entries\": \"$stations\", \"xml_mb\": $((bytes / 1000000))}" \
            >"$EKI_BENCH_RESULTS/eki_pbf.json"
        echo "{\"wall_s\": $refs_s, \"peak_rss_mb\": $refs_mb, \"r_wall_s\": $osmium_s, \"r_peak_rss_mb\": $osmium_mb}" \
            >"$EKI_BENCH_RESULTS/peers_pbf.json"
    fi
    echo "osm-bench: goal PBF: eki import time <= osmium tags-filter's: $(yes_no "$pbf_eki_s <= $refs_s") ($pbf_eki_s s vs $refs_s s)," \
         "and -R's: $(yes_no "$pbf_eki_s <= $osmium_s") ($osmium_s s); peak RSS <= 300 MB: $(yes_no "$pbf_eki_mb <= 300") ($pbf_eki_mb MB);" \
         "read alone <= tags-filter's: $(yes_no "$read_s <= $refs_s") ($read_s s)"
fi
