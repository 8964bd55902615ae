#!/usr/bin/env bash
# Cluster benchmark (not a test): `eki-bench clusters` in process (SpatialIndex.clusters: the cold
# first question, the all-Japan view at zoom 5 with and without a filter, 1280×800 pans at zoom
# 5…11) and `/api/clusters` over HTTP (one keep-alive client, the all-Japan view), on the real
# database (N02-23 + station_database main/, from ../shared/datasets) and on a million synthetic
# entries (the peers' gen_points.py, seed 42; needs python3 with numpy).
#
#   Scripts/bench/bench-clusters.sh                       # release build
#   QUERIES=5000 WORK=/tmp/eki-bench Scripts/bench/bench-clusters.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
QUERIES=${QUERIES:-2000}
WORK=${WORK:-$(mktemp -d /tmp/eki-bench-clusters.XXXXXX)}
mkdir -p "$WORK"

echo "== release build"
(cd "$ROOT" && swift build -c release --product eki 2>&1 | tail -1 && swift build -c release --product eki-bench 2>&1 | tail -1)
BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)

N02="$SHARED/datasets/csv-n02-2023-stations-ksj/N02-23_Station.utf8.csv"
SD="$SHARED/datasets/csv-station-database-ekimemo/main"
[ -f "$N02" ] && [ -d "$SD" ] || { echo "needs $N02 and $SD" >&2; exit 1; }
REAL="$WORK/real.gpkg"
[ -f "$REAL" ] || "$BIN/eki" import --db "$REAL" "$N02" "$SD" >/dev/null
SYN="$WORK/synthetic_1m.gpkg"
if [ ! -f "$SYN" ]; then
    [ -s "$WORK/points_1m.csv" ] || (cd "$SHARED/bench/peers" && python3 gen_points.py 1000000 42 "$WORK/points_1m.csv")
    "$BIN/eki" import --profile generic --db "$SYN" "$WORK/points_1m.csv" >/dev/null
fi

http() {  # db: p50/p99 of /api/clusters (all Japan, zoom 5) over one keep-alive connection
    local log="$WORK/serve.log"
    EKI_VISITS="$WORK/none.sqlite" "$BIN/eki" serve --db "$1" --visits "$WORK/none.sqlite" --listen 127.0.0.1:0 --tiles none \
        >"$log" 2>&1 &
    local pid=$!
    for _ in $(seq 50); do grep -q "http://" "$log" && break; sleep 0.2; done
    local port
    port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log" | head -1)
    python3 - "$port" "$QUERIES" <<'PY'
import http.client, json, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
c = http.client.HTTPConnection("127.0.0.1", port)
path = "/api/clusters?bbox=122,20,154,46&zoom=5"
def get():
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    assert r.status == 200, body
    return body
t = time.monotonic(); first = get(); cold = (time.monotonic() - t) * 1000
for _ in range(50): get()
lat = []
for _ in range(n):
    t = time.monotonic(); get(); lat.append((time.monotonic() - t) * 1000)
lat.sort()
d = json.loads(first)
print(json.dumps({"http_cold_ms": round(cold, 2), "http_p50_ms": round(lat[len(lat) // 2], 3),
                  "http_p99_ms": round(lat[int(len(lat) * 0.99)], 3), "clusters": len(d["clusters"]),
                  "bytes": len(first), "requests": n}))
PY
    kill "$pid"; wait "$pid" 2>/dev/null || true
}

for db in "$REAL" "$SYN"; do
    echo "== $(basename "$db"): in process (load $(cut -d' ' -f1-3 /proc/loadavg))"
    "$BIN/eki-bench" clusters --db "$db" --queries "$QUERIES"
    echo "== $(basename "$db"): GET /api/clusters?bbox=122,20,154,46&zoom=5"
    http "$db"
done
