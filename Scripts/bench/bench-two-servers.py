#!/usr/bin/env python3
"""Two `eki serve` processes on one PostgreSQL store against one `eki serve` on an accounts file
(SQLite), under the same mixed load, on loopback only; then every acknowledged write counted.

Usage: bench-two-servers.py --eki .build/release/eki --db stations.gpkg [--seconds 30]
                            [--clients 32] [--users 8] [--threads 4] [--restart] [--json out.json]

PostgreSQL (Debian `postgresql`) is started by the script: `initdb` into a temporary folder (as
`nobody` when run as root), a Unix socket in that folder only, fsync on; stopped at the end.

Each client logs in as one of --users accounts (a session cookie and its CSRF token), keeps one
HTTP/1.1 connection to its server (clients alternate between the two servers) and sends, one
after another, 90 % reads (bbox, nearest, search in equal parts: serve-load.py's requests) and
10 % writes, half `POST /api/visits`, half `POST /api/sync` with one new change. A write whose
answer does not arrive, or is 5xx, is sent again (the same visit: a retried POST that finds the
visit there already answers 409, the same sync change is a no-op) until it is answered.
--restart runs `pg_ctl restart -m fast` halfway through the PostgreSQL run.

Afterwards the store is read: every acknowledged visit must be there exactly once (lost and
doubled are counted; a visit whose first answer was lost but which is there is not an error).
Prints a Markdown table per setup: requests/s, p50 / p99 latency (ms) and retried failures per
endpoint, and the write count check.
"""
import argparse
import http.client
import importlib.util
import json
import multiprocessing as mp
import os
import pwd
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("serve_load", os.path.join(HERE, "serve-load.py"))
serve_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(serve_load)


class Postgres:
    """A throw-away PostgreSQL server in `folder` (Unix socket only)."""

    def __init__(self, folder):
        versions = sorted(int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit())
        self.bin = f"/usr/lib/postgresql/{versions[-1]}/bin"
        self.folder = folder
        os.makedirs(folder)
        self.as_user = ["runuser", "-u", "nobody", "--"] if os.getuid() == 0 else []
        if self.as_user:
            pw = pwd.getpwnam("nobody")
            os.chown(folder, pw.pw_uid, pw.pw_gid)
        self.tool("initdb", "-D", f"{folder}/data", "--auth=trust", "-U", "eki", "--encoding=UTF8", "--locale=C.UTF-8")
        self.options = f"-c listen_addresses='' -c unix_socket_directories='{folder}' -c max_connections=200"
        self.tool("pg_ctl", "-D", f"{folder}/data", "-w", "-l", f"{folder}/log", "-o", self.options, "start")

    def tool(self, name, *args):
        with open(os.path.join(self.folder, "tool.out"), "w") as out:
            subprocess.run(self.as_user + [f"{self.bin}/{name}", *args], check=True, stdout=out, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)

    def url(self, db):
        return f"postgresql:///{db}?host={self.folder}&user=eki"

    def psql(self, sql, db="postgres"):
        r = subprocess.run(self.as_user + [f"{self.bin}/psql", "-X", "-At", "-h", self.folder, "-U", "eki", "-d", db, "-c", sql],
                           check=True, capture_output=True, text=True)
        return r.stdout

    def restart(self):
        self.tool("pg_ctl", "-D", f"{self.folder}/data", "-w", "-m", "fast", "-l", f"{self.folder}/log", "-o", self.options, "restart")

    def stop(self):
        self.tool("pg_ctl", "-D", f"{self.folder}/data", "-w", "-m", "fast", "stop")


def add_users(eki, store, users, tmp):
    pw = os.path.join(tmp, "password")
    with open(pw, "w") as f:
        f.write("bench-password\n")
    for u in range(users):
        subprocess.run([eki, "user", "add", f"u{u}", "--store", store, "--password-file", pw], check=True, stdout=subprocess.DEVNULL)


def start_server(eki, db, store, threads, tmp, n):
    p = subprocess.Popen([eki, "serve", "--db", db, "--store", store, "--listen", "127.0.0.1:0", "--tiles", "none",
                          "--aerial-tiles", "none", "--threads", str(threads), "--visits", os.path.join(tmp, f"visits{n}.sqlite")],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = p.stdout.readline()
    return p, int(line.split("http://127.0.0.1:")[1].split("/")[0])


def client(ports, users, index, keys, reads, seconds, login_deadline, seed):
    """One client: log in, then reads and writes until `deadline`. Returns (latencies per
    endpoint, failures per endpoint, acknowledged visits, attempted visits)."""
    rnd = random.Random(seed)
    port = ports[index % len(ports)]
    user = f"u{index % users}"
    key = keys[index]
    lat, fail, acked, tried = {}, {}, [], []

    def connect():
        return http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    deadline = login_deadline
    conn = connect()
    headers = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json"}
    while True:
        if time.time() > deadline:
            raise RuntimeError(f"{user} could not log in before the end of the run")
        try:
            conn.request("POST", "/api/login", json.dumps({"user": user, "password": "bench-password"}), headers)
            r = conn.getresponse()
            body = r.read()
            if r.status == 200:
                break
            print(f"login {user}: HTTP {r.status} {body[:120]!r}", file=sys.stderr)
        except Exception:
            conn.close()
            conn = connect()
        time.sleep(0.2)
    # The measured time starts once this client is logged in (Argon2id makes a login slow).
    started = time.time()
    deadline = started + seconds
    cookie = r.getheader("Set-Cookie").split(";")[0]
    headers.update({"Cookie": cookie, "X-CSRF-Token": json.loads(body)["csrf"]})
    day = 0
    cursor = None

    def send(endpoint, method, target, payload=None, ok=(200,)):
        nonlocal conn
        while True:
            t0 = time.perf_counter()
            try:
                conn.request(method, target, payload, headers)
                r = conn.getresponse()
                body = r.read()
                if r.status in ok:
                    lat.setdefault(endpoint, []).append(time.perf_counter() - t0)
                    return body
                if r.status < 500:
                    raise RuntimeError(f"{endpoint}: HTTP {r.status}")
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = connect()
            fail[endpoint] = fail.get(endpoint, 0) + 1
            if method == "GET":
                return None
            time.sleep(0.1)   # a write is sent again until it is answered

    while time.time() < deadline:
        if rnd.random() < 0.10:
            day += 1
            date = time.strftime("%Y-%m-%d", time.gmtime(946684800 + day * 86400))
            tried.append((user, key, date))
            if rnd.random() < 0.5:
                send("visit", "POST", "/api/visits", json.dumps({"key": key, "date": date}), ok=(201, 409))
            else:
                change = {"id": str(uuid.uuid4()), "key": key, "date": date, "kind": None, "note": None,
                          "updated_at": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), "deleted": False}
                answer = send("sync", "POST", "/api/sync", json.dumps({"since": cursor, "changes": [change]}))
                cursor = json.loads(answer)["cursor"]
            acked.append((user, key, date))
        else:
            endpoint = rnd.choice(("bbox", "nearest", "search"))
            send(endpoint, "GET", rnd.choice(reads[endpoint]))
    conn.close()
    return lat, fail, acked, tried, (started, time.time())


def client_batch(args):
    ports, users, indices, keys, reads, seconds, login_deadline, seed = args
    out = []
    ts = []
    lock = threading.Lock()

    def one(i):
        r = client(ports, users, i, keys, reads, seconds, login_deadline, seed + i)
        with lock:
            out.append(r)
    for i in indices:
        ts.append(threading.Thread(target=one, args=(i,)))
        ts[-1].start()
    for t in ts:
        t.join()
    return out


def run(ports, users, clients, keys, reads, seconds, restart=None):
    login_deadline = time.time() + 300
    batches = [(ports, users, list(range(p, clients, 4)), keys, reads, seconds, login_deadline, 1000 * p) for p in range(4)]
    with mp.Pool(4) as pool:
        pending = pool.map_async(client_batch, batches)
        if restart:
            # Halfway through the measured time: the clients log in first (a few seconds).
            time.sleep(seconds / 2 + 0.5 * clients / 4)
            restart()
        results = [r for batch in pending.get() for r in batch]
    # From the first client's start to the last one's end.
    wall = max(r[4][1] for r in results) - min(r[4][0] for r in results)
    lat, fail, acked, tried = {}, {}, [], []
    for l, f, a, t, _ in results:
        for k, v in l.items():
            lat.setdefault(k, []).extend(v)
        for k, v in f.items():
            fail[k] = fail.get(k, 0) + v
        acked += a
        tried += t
    rows = []
    for endpoint in ("bbox", "nearest", "search", "visit", "sync"):
        v = sorted(lat.get(endpoint, []))
        pct = lambda q: v[min(len(v) - 1, int(q * len(v)))] * 1000 if v else float("nan")
        rows.append({"endpoint": endpoint, "requests": len(v), "rps": len(v) / wall, "p50": pct(0.5), "p99": pct(0.99),
                     "failed": fail.get(endpoint, 0)})
    return rows, acked, tried


def check(stored, acked, tried):
    """Lost: acknowledged but not stored; doubled: stored more than once; extra: stored but
    never sent (neither may be above 0)."""
    tried_set = set(tried)
    lost = sum(1 for w in acked if stored.get(w, 0) == 0)
    doubled = sum(1 for n in stored.values() if n > 1)
    extra = sum(1 for w in stored if w not in tried_set)
    return {"acknowledged": len(acked), "stored": sum(stored.values()), "lost": lost, "doubled": doubled, "extra": extra}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--eki", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--users", type=int, default=8)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--restart", action="store_true", help="pg_ctl restart halfway through the PostgreSQL run")
    ap.add_argument("--json")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="eki-2srv-", dir="/tmp")
    os.chmod(tmp, 0o755)   # PostgreSQL's user reaches its folder inside
    con = sqlite3.connect(f"file:{a.db}?mode=ro", uri=True)
    keys = [k for (k,) in con.execute("SELECT key FROM stations WHERE open = 1 ORDER BY fid LIMIT ?", (a.clients,))]
    reads = serve_load.make_requests(a.db, 2000, 42)
    report = {}
    pg = Postgres(os.path.join(tmp, "pg"))
    try:
        # One server, accounts file.
        file_store = os.path.join(tmp, "accounts.sqlite")
        add_users(a.eki, file_store, a.users, tmp)
        server, port = start_server(a.eki, a.db, file_store, a.threads, tmp, 0)
        rows, acked, tried = run([port], a.users, a.clients, keys, reads, a.seconds)
        server.terminate(); server.wait()
        s = sqlite3.connect(file_store)
        stored = {}
        for name, key, date, n in s.execute("SELECT u.name, v.station_key, v.date, count(*) FROM visits v JOIN users u ON u.id = v.owner GROUP BY 1, 2, 3"):
            stored[(name, key, date)] = n
        report["1 server, SQLite"] = {"rows": rows, "writes": check(stored, acked, tried)}

        # Two servers, one PostgreSQL.
        pg.psql("CREATE DATABASE eki")
        url = pg.url("eki")
        add_users(a.eki, url, a.users, tmp)
        servers = [start_server(a.eki, a.db, url, a.threads, tmp, n) for n in (1, 2)]
        rows, acked, tried = run([p for _, p in servers], a.users, a.clients, keys, reads, a.seconds,
                                 restart=pg.restart if a.restart else None)
        for p, _ in servers:
            p.terminate(); p.wait()
        stored = {}
        out = pg.psql("SELECT u.name, v.station_key, v.date, count(*) FROM visits v JOIN users u ON u.id = v.owner GROUP BY 1, 2, 3", db="eki")
        for line in out.splitlines():
            name, key, date, n = line.split("|")
            stored[(name, key, date)] = int(n)
        label = "2 servers, PostgreSQL" + (" (restarted halfway)" if a.restart else "")
        report[label] = {"rows": rows, "writes": check(stored, acked, tried)}
    finally:
        try:
            pg.stop()
        except Exception:
            pass
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"{a.clients} clients, {a.users} accounts, {a.seconds:.0f} s per setup, 10 % writes; eki serve --threads {a.threads}\n")
    print("| setup | endpoint | requests | req/s | p50 ms | p99 ms | failed, retried |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, r in report.items():
        for row in r["rows"]:
            print(f"| {label} | {row['endpoint']} | {row['requests']} | {row['rps']:.0f} | {row['p50']:.2f} | {row['p99']:.2f} | {row['failed']} |")
    print()
    for label, r in report.items():
        w = r["writes"]
        print(f"{label}: {w['acknowledged']} writes acknowledged, {w['stored']} visits stored; "
              f"lost {w['lost']}, doubled {w['doubled']}, never sent {w['extra']}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
