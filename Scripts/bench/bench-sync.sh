#!/usr/bin/env bash
# Sync benchmark (not a test), on a release build of `eki serve --accounts` with the sample
# database (Datasets/n02-odawara-tokyo.csv):
#  1. one request of 1,000 new changes (POST /api/sync): wall time at the client and the
#     server's CPU time for it (utime + stime of the server process from /proc, all threads),
#     the median of ROUNDS requests, each with fresh visits;
#  2. 32 clients at once, each sending BATCHES batches of 50 changes and syncing until it has
#     seen everyone's: afterwards every acknowledged change must be on the server exactly once
#     (a fresh client's full sync lists them).
#
#   Scripts/bench/bench-sync.sh
#   ROUNDS=20 BATCHES=20 WORK=/tmp/eki-bench-sync Scripts/bench/bench-sync.sh
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ROUNDS=${ROUNDS:-10}
BATCHES=${BATCHES:-10}
WORK=${WORK:-$(mktemp -d /tmp/eki-bench-sync.XXXXXX)}
mkdir -p "$WORK"

echo "== release build"
(cd "$ROOT" && swift build -c release --product eki 2>&1 | tail -1)
BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)

DB="$WORK/stations.gpkg"
[ -f "$DB" ] || "$BIN/eki" import --db "$DB" "$ROOT/Datasets/n02-odawara-tokyo.csv" >/dev/null
ACC="$WORK/accounts.sqlite"
rm -f "$ACC" "$ACC-wal" "$ACC-shm"
printf 'bench-password-%s\n' "$RANDOM$RANDOM" >"$WORK/password"
"$BIN/eki" user add bench --accounts "$ACC" --password-file "$WORK/password" >/dev/null
"$BIN/eki" user token bench --accounts "$ACC" >"$WORK/token"

LOG="$WORK/serve.log"
"$BIN/eki" serve --db "$DB" --accounts "$ACC" --listen 127.0.0.1:0 --tiles none >"$LOG" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q "http://" "$LOG" && break; sleep 0.2; done
PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$LOG" | head -1)

python3 - "$PORT" "$PID" "$(cat "$WORK/token")" "$ROUNDS" "$BATCHES" <<'PY'
import http.client, json, os, sys, threading, time, uuid, datetime
port, pid, token, rounds, batches = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
tick = os.sysconf("SC_CLK_TCK")
def cpu_ms():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) * 1000 / tick
def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
def change(key):
    return {"id": str(uuid.uuid4()), "key": key, "date": "2019-08-13", "kind": None, "note": None,
            "updated_at": now(), "deleted": False}
def sync(conn, since, changes):
    body = json.dumps({"since": since, "changes": changes})
    conn.request("POST", "/api/sync", body, {"Content-Type": "application/json", "Authorization": "Bearer " + token})
    r = conn.getresponse(); data = r.read()
    if r.status != 200: raise RuntimeError(f"{r.status} {data[:200]}")
    return json.loads(data)
c = http.client.HTTPConnection("127.0.0.1", port)
walls, cpus = [], []
for r in range(rounds):
    changes = [change(f"bench/{r}/{i}") for i in range(1000)]
    c0, t0 = cpu_ms(), time.monotonic()
    a = sync(c, None if r == 0 else cursor, changes)
    walls.append((time.monotonic() - t0) * 1000); cpus.append(cpu_ms() - c0)
    assert a["applied"] == 1000, a["applied"]
    cursor = a["cursor"]
walls.sort(); cpus.sort()
print(json.dumps({"batch_changes": 1000, "rounds": rounds, "wall_ms_median": round(walls[len(walls)//2], 1),
                  "server_cpu_ms_median": round(cpus[len(cpus)//2], 1), "server_cpu_ms_max": round(cpus[-1], 1),
                  "cpu_tick_ms": 1000 / tick}))
acked, lock, errors = set(), threading.Lock(), []
def client(n):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    cur = None
    try:
        for b in range(batches):
            ch = [change(f"client/{n}/{b}/{i}") for i in range(50)]
            a = sync(conn, cur, ch)
            cur = a["cursor"]
            with lock: acked.update(x["id"] for x in ch)
        sync(conn, cur, [])
    except Exception as e:
        errors.append(repr(e))
t0 = time.monotonic()
threads = [threading.Thread(target=client, args=(n,)) for n in range(32)]
for t in threads: t.start()
for t in threads: t.join()
elapsed = time.monotonic() - t0
full = sync(http.client.HTTPConnection("127.0.0.1", port), None, [])
ids = [x["id"] for x in full["changes"]]
mine = [i for i in ids if i in acked]
print(json.dumps({"clients": 32, "changes_acknowledged": len(acked), "seconds": round(elapsed, 2), "errors": len(errors),
                  "acknowledged_present_once": len(set(mine)) == len(acked) and len(mine) == len(acked),
                  "lost": len(acked - set(ids))}))
PY
