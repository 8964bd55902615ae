#!/usr/bin/env bash
# Search benchmark (not a test): in-process p50/p99 of `StationStore.search`, prefix and partial,
# on the real database (N02-23 + station_database main/, from ../shared/datasets) and on a
# synthetic one of N entries (default 1,000,000; Scripts/bench/gen-search-stations.py).
#
#   Scripts/bench/bench-search.sh                 # release build, both databases
#   N=200000 WORK=/tmp/eki-bench Scripts/bench/bench-search.sh
#   SKIP_SYNTHETIC=1 Scripts/bench/bench-search.sh
#
# Queries: 1,000 per database, sampled from its own entries (Scripts/bench/search-bench-queries.py):
# 1-4 characters of a name, 1-5 kana of a reading or 2-6 letters of a romanized name, from the
# start 60% of the time. Each runs once untimed, then once timed per mode (`eki-bench search`).
# Databases are kept in $WORK (a new temporary folder unless given) and reused when present.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
N=${N:-1000000}
QUERIES=${QUERIES:-1000}
WORK=${WORK:-$(mktemp -d /tmp/eki-bench-search.XXXXXX)}
mkdir -p "$WORK"

echo "== release build"
(cd "$ROOT" && swift build -c release --product eki 2>&1 | tail -1 && swift build -c release --product eki-bench 2>&1 | tail -1)
BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)
EKI="$BIN/eki" BENCH="$BIN/eki-bench"

sizes() {   # db: the search tables' pages, MB (needs the sqlite3 shell with dbstat)
    command -v sqlite3 >/dev/null || return 0
    echo "search tables (MB): $(sqlite3 "$1" "SELECT group_concat(name || ' ' || mb, ', ') FROM (SELECT name, round(sum(pgsize) / 1e6, 1) AS mb FROM dbstat WHERE name LIKE 'search%' GROUP BY name ORDER BY 2 DESC)")"
    echo "search tables total: $(sqlite3 "$1" "SELECT round(sum(pgsize) / 1e6, 1) FROM dbstat WHERE name LIKE 'search%'") MB"
}

run() {   # name db
    local name=$1 db=$2
    sizes "$db"
    if [ ! -f "$WORK/$name-queries.txt" ]; then
        python3 "$ROOT/Scripts/bench/search-bench-queries.py" "$db" "$QUERIES" 1 "$WORK/$name-queries.txt"
    fi
    echo "== $name: load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$BENCH" search --db "$db" --queries "$WORK/$name-queries.txt"
}

REAL="$WORK/real.gpkg"
N02="$SHARED/datasets/csv-n02-2023-stations-ksj/N02-23_Station.utf8.csv"
SD="$SHARED/datasets/csv-station-database-ekimemo/main"
if [ -f "$N02" ] && [ -d "$SD" ]; then
    if [ ! -f "$REAL" ]; then
        echo "== import N02-23 + station_database → $REAL"
        "$EKI" import --db "$REAL" "$N02" "$SD"
    fi
    run real "$REAL"
else
    echo "skipped: the real database needs $N02 and $SD"
fi

if [ -z "${SKIP_SYNTHETIC:-}" ]; then
    SYN="$WORK/synthetic-$N.gpkg"
    if [ ! -f "$SYN" ]; then
        python3 "$ROOT/Scripts/bench/gen-search-stations.py" "$N" 1 "$WORK/synthetic-$N.csv"
        echo "== import $N synthetic rows → $SYN"
        /usr/bin/time -f "import: %e s wall, %M KB max RSS" "$EKI" import --db "$SYN" --profile generic "$WORK/synthetic-$N.csv"
        rm -f "$WORK/synthetic-$N.csv"
    fi
    ls -l "$SYN"
    run "synthetic-$N" "$SYN"
fi
echo "== databases and queries kept in $WORK"
