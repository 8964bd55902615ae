#!/usr/bin/env bash
# Station snapshot benchmark (not a test): `GET /api/snapshot` of `eki serve` on the real database
# (N02-23 + station_database main/, from ../shared/datasets): bytes on the wire gzip-encoded and
# plain (the goal: ≤ 1.5 MB gzip), the first answer of a worker (built, compressed and cached),
# later answers, and the 304 of a revalidation (If-None-Match). Over one keep-alive connection,
# with --threads 1 so that every request meets the one worker's cache.
#
#   Scripts/bench/bench-snapshot.sh                      # release build
#   CONFIG=debug REQUESTS=50 WORK=/tmp/eki-bench Scripts/bench/bench-snapshot.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
CONFIG=${CONFIG:-release}
REQUESTS=${REQUESTS:-200}
WORK=${WORK:-$(mktemp -d /tmp/eki-bench-snapshot.XXXXXX)}
mkdir -p "$WORK"

echo "== $CONFIG build"
(cd "$ROOT" && swift build -c "$CONFIG" --product eki 2>&1 | tail -1)
BIN=$(cd "$ROOT" && swift build -c "$CONFIG" --show-bin-path)

N02="$SHARED/datasets/csv-n02-2023-stations-ksj/N02-23_Station.utf8.csv"
SD="$SHARED/datasets/csv-station-database-ekimemo/main"
[ -f "$N02" ] && [ -d "$SD" ] || { echo "needs $N02 and $SD" >&2; exit 1; }
REAL="$WORK/real.gpkg"
[ -f "$REAL" ] || "$BIN/eki" import --db "$REAL" "$N02" "$SD" >/dev/null

log="$WORK/serve.log"
"$BIN/eki" serve --db "$REAL" --visits "$WORK/none.sqlite" --listen 127.0.0.1:0 --tiles none --threads 1 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q "http://" "$log" && break; sleep 0.2; done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log" | head -1)
echo "== GET /api/snapshot (load $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$port" "$REQUESTS" <<'PY'
import gzip, http.client, json, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
c = http.client.HTTPConnection("127.0.0.1", port)
def get(headers):
    t = time.monotonic()
    c.request("GET", "/api/snapshot", headers=headers)
    r = c.getresponse()
    body = r.read()
    return r, body, (time.monotonic() - t) * 1000
r, first, cold = get({"Accept-Encoding": "gzip"})
assert r.status == 200 and r.getheader("Content-Encoding") == "gzip", r.status
etag = r.getheader("ETag")
plain = gzip.decompress(first)
d = json.loads(plain)
warm = sorted(get({"Accept-Encoding": "gzip"})[2] for _ in range(n))
r2, body2, _ = get({})
assert r2.status == 200 and r2.getheader("Content-Encoding") is None and body2 == plain
not_modified = sorted(get({"Accept-Encoding": "gzip", "If-None-Match": etag})[2] for _ in range(n))
r3, _, _ = get({"If-None-Match": etag})
assert r3.status == 304
print(json.dumps({
    "entries": d["count"], "lines": len(d["lines"]), "aliases": len(d["aliases"]),
    "gzip_bytes": len(first), "plain_bytes": len(plain), "goal_gzip_bytes": 1_500_000,
    "first_ms": round(cold, 1), "warm_p50_ms": round(warm[len(warm) // 2], 2), "warm_p99_ms": round(warm[int(len(warm) * 0.99)], 2),
    "not_modified_p50_ms": round(not_modified[len(not_modified) // 2], 3), "etag": etag, "requests": n}, ensure_ascii=False))
PY
