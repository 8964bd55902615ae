#!/usr/bin/env bash
# Peak memory of `eki import` on hostile inputs (issue #16 item 12): a 50 MB CSV field, a 1 GiB
# CSV line, a 2 MB GTFS zip whose stops.txt inflates to 1 GiB, a 1 MB GTFS zip holding one
# 1 GiB line. Each must stop with a one-line error naming the limit and its flag (exit 1),
# never abort, and stay well under 300 MB resident.
#
#   Scripts/bench/bench-limits.sh          # inputs made once in bench-data/ (git-ignored)
#   EKI_BENCH_DIR=/tmp/eki-limits Scripts/bench/bench-limits.sh
#
# Prints, per run: the input, the exit status, peak resident memory (/usr/bin/time -f %M,
# KiB → MB) and the error line. Needs python3 and /usr/bin/time (Debian: apt-get install time);
# builds `eki` in release mode.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${EKI_BENCH_DIR:-$root/bench-data}/limits"
mkdir -p "$dir"
for tool in python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench-limits: $tool is missing" >&2; exit 1; }
done
python3 "$root/Scripts/bench/gen-hostile-inputs.py" "$dir"
swift build -c release --product eki --package-path "$root" >/dev/null
eki="$root/.build/release/eki"

run() {
    local label="$1"; shift
    local db="$dir/bench.gpkg" err="$dir/stderr.txt" mem="$dir/time.txt"
    rm -f "$db" "$db"-*
    local status=0
    /usr/bin/time -f %M -o "$mem" "$eki" import --db "$db" "$@" >/dev/null 2>"$err" || status=$?
    local kib
    kib=$(tail -n 1 "$mem")
    printf '%-44s exit %d  peak %6.1f MB  %s\n' "$label" "$status" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" \
        "$(head -n 1 "$err" | cut -c1-160)"
}

run "csv 50 MB field"                     "$dir/csv-50mb-field.csv"
run "csv 1 GiB line"                      "$dir/csv-1gib-line.csv"
run "gtfs zip bomb (stops.txt 1 GiB)"     "$dir/gtfs-bomb-1gib-stops.zip"
# The bomb's rows repeat one stop_id: with the ratio limit raised it is read whole, and its
# 48 million "repeated" warnings are counted, the first 1,000 kept.
run "gtfs zip bomb, --max-zip-ratio 1000000"  "$dir/gtfs-bomb-1gib-stops.zip" --max-zip-ratio 1000000 --modes all
run "gtfs zip, one 1 GiB line"            "$dir/gtfs-1gib-line.zip"
run "gtfs zip, one 1 GiB line, ratio 1e6" "$dir/gtfs-1gib-line.zip" --max-zip-ratio 1000000
