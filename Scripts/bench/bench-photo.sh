#!/usr/bin/env bash
# Photo benchmark (not a test): 12-megapixel phone JPEGs (4000 × 3000, EXIF Orientation 6 and
# GPS tags) made by `eki-bench photo`, processed in-process (time per photo and per thumbnail),
# (eki-bench's own peak includes making the samples: the noise one is 144 MB of floats), then
# stored by `eki visit photo add` as its own process under /usr/bin/time -v (wall time
# and peak resident set of the whole command). Goals: ≤ 1 s and ≤ 200 MB a photo, thumbnail
# ≤ 100 ms. libvips is Debian's optimized build, so a debug build of eki measures it the same.
#
#   Scripts/bench/bench-photo.sh                 # debug build, 5 runs
#   CONFIG=release RUNS=10 Scripts/bench/bench-photo.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CONFIG=${CONFIG:-debug}
WORK=${WORK:-$(mktemp -d /tmp/eki-bench-photo.XXXXXX)}
mkdir -p "$WORK"
[ -x /usr/bin/time ] || { echo "bench-photo: /usr/bin/time is needed (Debian package time)" >&2; exit 1; }

(cd "$ROOT" && swift build -c "$CONFIG" --product eki 2>&1 | tail -1 && swift build -c "$CONFIG" --product eki-bench 2>&1 | tail -1)
BIN=$(cd "$ROOT" && swift build -c "$CONFIG" --show-bin-path)

echo "== in-process (eki-bench photo, ${RUNS:-5} runs each)"
"$BIN/eki-bench" photo --out "$WORK" --runs "${RUNS:-5}"

for kind in smooth noise; do
  LOG="$WORK/visits-$kind.sqlite"
  rm -f "$LOG" "$LOG"-wal "$LOG"-shm
  printf 'id,station,date,kind,note\n1,jr-central/s/小田原,2019-08-13,alight,\n' >"$WORK/visit.csv"
  "$BIN/eki" visit import "$WORK/visit.csv" --keep-orphans --visits "$LOG" --db "$WORK/none.gpkg" >/dev/null
  echo "== eki visit photo add (phone-$kind.jpg, $(stat -c %s "$WORK/phone-$kind.jpg") bytes)"
  /usr/bin/time -v "$BIN/eki" visit photo add 1 "$WORK/phone-$kind.jpg" --visits "$LOG" 2>"$WORK/time-$kind.txt"
  grep -E "Elapsed \(wall clock\)|Maximum resident set size" "$WORK/time-$kind.txt" | sed 's/^\s*/  /'
done
