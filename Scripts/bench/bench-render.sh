#!/usr/bin/env bash
# Render benchmark (not a test): `eki-bench render` on the real database (N02-23 +
# station_database main/, from ../shared/datasets): the whole of Japan at 2400×2400 with labels
# auto, and a 1200×800 viewport of central Tokyo, each drawn and PNG-encoded in process after a
# warm-up (median and maximum of RUNS runs, milliseconds); then the same whole-Japan picture
# with the `eki render` command end to end (process start, database, basemap read, PNG file).
#
#   Scripts/bench/bench-render.sh                 # release build
#   RUNS=10 WORK=/tmp/eki-bench Scripts/bench/bench-render.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
RUNS=${RUNS:-5}
WORK=${WORK:-$(mktemp -d /tmp/eki-bench-render.XXXXXX)}
mkdir -p "$WORK"

echo "== release build"
(cd "$ROOT" && swift build -c release --product eki 2>&1 | tail -1 && swift build -c release --product eki-bench 2>&1 | tail -1)
BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)

N02="$SHARED/datasets/csv-n02-2023-stations-ksj/N02-23_Station.utf8.csv"
SD="$SHARED/datasets/csv-station-database-ekimemo/main"
[ -f "$N02" ] && [ -d "$SD" ] || { echo "needs $N02 and $SD" >&2; exit 1; }
DB="$WORK/real.gpkg"
[ -f "$DB" ] || "$BIN/eki" import --db "$DB" "$N02" "$SD" >/dev/null

echo "== in process: load $(cut -d' ' -f1-3 /proc/loadavg)"
"$BIN/eki-bench" render --db "$DB" --runs "$RUNS"
echo "== eki render --all --size 2400x2400 (end to end)"
EKI_VISITS="$WORK/none.sqlite" /usr/bin/time -f "%e s wall, %M KB peak" \
    "$BIN/eki" render --db "$DB" --all --size 2400x2400 --labels auto -o "$WORK/japan.png"
