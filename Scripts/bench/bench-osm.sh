#!/usr/bin/env bash
# Benchmark of the OSM XML importer beside `osmium tags-filter` on the same synthetic extract.
#
#   Scripts/bench/bench-osm.sh            # 220 MB file in bench-data/ (git-ignored), made once
#   EKI_BENCH_MB=400 EKI_BENCH_DIR=/tmp/eki-bench Scripts/bench/bench-osm.sh
#   EKI_BENCH_GZIP=1 Scripts/bench/bench-osm.sh   # also time a gzip copy with both tools
#
# Prints MB/s (10^6 bytes of input per second) and peak resident memory of each run:
# - eki: OSMImporter.read() on the file, timed in-process by the release-built `eki-bench osm`
#   (one run); peak = the process's VmHWM;
# - osmium: `osmium tags-filter` with the same station/route filter, writing OSM XML, once with
#   referenced objects (reads the input up to three times) and once with -R (one read);
#   elapsed time and peak RSS from /usr/bin/time.
# Needs python3, osmium-tool and /usr/bin/time (Debian: apt-get install osmium-tool time).
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${EKI_BENCH_DIR:-$root/bench-data}"
megabytes="${EKI_BENCH_MB:-220}"
mkdir -p "$dir"
file="$dir/synthetic-${megabytes}mb.osm"

for tool in python3 osmium /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench-osm: $tool is missing" >&2; exit 1; }
done

if [ ! -s "$file" ]; then
    python3 "$root/Scripts/bench/gen-osm-extract.py" --megabytes "$megabytes" --output "$file"
fi
bytes=$(stat -c %s "$file")

echo "bench-osm: building eki-bench (release)" >&2
(cd "$root" && swift build -c release --product eki-bench >/dev/null)
bench="$(cd "$root" && swift build -c release --show-bin-path)/eki-bench"

filter=(nwr/railway=station,halt,tram_stop nwr/public_transport=station,stop_area
        r/route=train,subway,light_rail,monorail,tram,funicular
        r/route_master=train,subway,light_rail,monorail,tram,funicular)

run_eki() {  # file (its MB/s count the uncompressed bytes of the plain file)
    local json
    json=$("$bench" osm "$1" --runs 1 --bytes "$bytes") || { echo "bench-osm: the eki run failed" >&2; exit 1; }
    python3 -c "import json, sys; r = json.loads(sys.argv[1]); \
print(f'osm-bench: {r[\"label\"]} {r[\"mb\"]:.1f} MB in {r[\"median_s\"]:.2f} s = {r[\"mb_per_s\"]:.1f} MB/s, ' \
      f'{r[\"rows\"]} rows, {r[\"entries\"]} entries, {r[\"warnings\"]} warnings, ' \
      f'RSS before {r[\"rss_before_mb\"]:.0f} MB, peak RSS (VmHWM) {r[\"peak_rss_mb\"]:.0f} MB')" "$json"
}

run_osmium() {  # label file options...
    local label=$1 input=$2; shift 2
    local out="$dir/osmium-out.osm" t
    t=$( { /usr/bin/time -f '%e %M' osmium tags-filter "$@" "$input" "${filter[@]}" -O -o "$out" 2>&1 >/dev/null; } | tail -n 1)
    rm -f "$out"
    local seconds=${t% *} kb=${t#* }
    python3 -c "import sys; b,s,k=int(sys.argv[1]),float(sys.argv[2]),int(sys.argv[3]); \
print(f'osm-bench: {sys.argv[4]} {b/1e6:.1f} MB in {s:.2f} s = {b/1e6/s:.1f} MB/s, peak RSS {k//1024} MB')" \
        "$bytes" "$seconds" "$kb" "$label"
}

cat "$file" >/dev/null  # same page-cache state for every run
echo "bench-osm: $(nproc) cores; input $file ($((bytes / 1000000)) MB)"
run_eki "$file"
run_osmium "osmium tags-filter" "$file"
run_osmium "osmium tags-filter -R" "$file" -R

if [ "${EKI_BENCH_GZIP:-0}" = 1 ]; then
    gz="$file.gz"
    [ -s "$gz" ] || gzip -c -1 "$file" >"$gz"
    echo "bench-osm: gzip copy $gz ($(($(stat -c %s "$gz") / 1000000)) MB); MB/s below count uncompressed bytes"
    run_eki "$gz"
    run_osmium "osmium tags-filter (gzip)" "$gz"
fi
