#!/usr/bin/env python3
"""Load on `eki serve` from 1, 8 and 32 concurrent clients panning random viewports, on loopback only,
with a bounded number of requests and time per cell; beside it the same bbox endpoint as a small
Python server (py-bbox-server.py, sqlite3 over the same GeoPackage's R-tree).

Usage: serve-load.py --eki .build/release/eki --db stations.gpkg [--requests 4000] [--seconds 20]
                     [--clients 1,8,32] [--threads 4] [--json out.json]

Requests (each client keeps one HTTP/1.1 connection and sends the next request when the answer
has been read whole):
  bbox     /api/bbox?bbox=…&limit=300   viewports 0.02°–0.2° wide around random entries
  nearest  /api/nearest?lat=…&lon=…&k=20 around random entries
  search   /api/search?q=…&limit=20      the first 1–3 characters of random entry names (4–7 of
                                         the synthetic ASCII names)
  py-bbox  the bbox requests, to the Python server
Prints a Markdown table: requests/s, p50 and p99 latency (ms), the server's CPU time per request
(from /proc: independent of other load on the machine), errors. Clients run in 4 processes
(threads inside), so Python's lock does not cap the load; they share the 2 cores with the server.
"""
import argparse
import http.client
import json
import multiprocessing as mp
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse

signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())
HERE = os.path.dirname(os.path.abspath(__file__))


def make_requests(db, n, seed):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute("SELECT lon, lat, name FROM stations WHERE open = 1").fetchall()
    rnd = random.Random(seed)
    bbox, nearest, search = [], [], []
    for _ in range(n):
        lon, lat, name = rows[rnd.randrange(len(rows))]
        w = rnd.uniform(0.02, 0.2)
        h = w * 0.8
        cx, cy = lon + rnd.uniform(-w / 2, w / 2), lat + rnd.uniform(-h / 2, h / 2)
        bbox.append(f"/api/bbox?bbox={cx - w / 2:.6f},{cy - h / 2:.6f},{cx + w / 2:.6f},{cy + h / 2:.6f}&limit=300")
        nearest.append(f"/api/nearest?lat={lat + rnd.uniform(-0.05, 0.05):.6f}&lon={lon + rnd.uniform(-0.05, 0.05):.6f}&k=20")
        # What a person types: 1–3 characters of a Japanese name; of a synthetic ASCII name
        # (S000123) 4–7, since its first three are shared by a thousand or more entries.
        q = name[: rnd.randint(1, 3)] if not name.isascii() else name[: rnd.randint(4, max(4, len(name)))]
        search.append("/api/search?" + urllib.parse.urlencode({"q": q, "limit": 20}))
    return {"bbox": bbox, "nearest": nearest, "search": search}


def client_process(port, host_header, urls, threads, deadline, out):
    import threading
    lat, errors = [], [0]
    lock = threading.Lock()
    chunks = [urls[i::threads] for i in range(threads)]

    def run(chunk):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, bad = [], 0
        for u in chunk:
            if time.time() > deadline:
                break
            t0 = time.perf_counter()
            try:
                conn.request("GET", u, headers={"Host": host_header})
                r = conn.getresponse()
                r.read()
                if r.status != 200:
                    bad += 1
            except Exception:
                bad += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append(time.perf_counter() - t0)
        conn.close()
        with lock:
            lat.extend(mine)
            errors[0] += bad

    ts = [threading.Thread(target=run, args=(c,)) for c in chunks if c]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    out.put((lat, errors[0]))


def load(port, urls, clients, seconds):
    procs = min(4, clients)
    per = [clients // procs + (1 if i < clients % procs else 0) for i in range(procs)]
    q = mp.Queue()
    deadline = time.time() + seconds
    ps, start = [], 0
    shares = [urls[i::procs] for i in range(procs)]
    t0 = time.perf_counter()
    for i in range(procs):
        p = mp.Process(target=client_process, args=(port, f"127.0.0.1:{port}", shares[i], per[i], deadline, q))
        p.start()
        ps.append(p)
    lat, errors = [], 0
    for _ in ps:
        l, e = q.get()
        lat += l
        errors += e
    wall = time.perf_counter() - t0
    for p in ps:
        p.join()
    lat.sort()
    pct = lambda f: lat[min(len(lat) - 1, int(f * len(lat)))] * 1000 if lat else float("nan")
    return {"requests": len(lat), "errors": errors, "rps": len(lat) / wall, "p50": pct(0.50), "p99": pct(0.99)}


def cpu_seconds(pid):
    """User + system CPU time of a process so far (Linux /proc), seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(pid, port, urls, clients, seconds):
    """`load`, plus the server's CPU time per answered request (ms): a figure that does not
    depend on what else the machine is doing."""
    c0 = cpu_seconds(pid)
    r = load(port, urls, clients, seconds)
    r["cpu_ms"] = (cpu_seconds(pid) - c0) * 1000 / max(1, r["requests"])
    return r


def start(cmd, env=None, pipe_stdin=False):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stdin=subprocess.PIPE if pipe_stdin else None, text=True, env=env)
    return p, p.stdout.readline()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--eki", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--requests", type=int, default=4000, help="requests per cell (endpoint × clients)")
    ap.add_argument("--seconds", type=float, default=20, help="time cap per cell")
    ap.add_argument("--clients", default="1,8,32")
    ap.add_argument("--threads", default="4", help="eki serve --threads")
    ap.add_argument("--no-python", action="store_true", help="skip the Python comparison server")
    ap.add_argument("--json")
    a = ap.parse_args()
    clients = [int(c) for c in a.clients.split(",")]
    reqs = make_requests(a.db, a.requests, 7)
    tmp = tempfile.mkdtemp(prefix="eki-serve-load-")
    eki, line = start([a.eki, "serve", "--db", a.db, "--visits", os.path.join(tmp, "visits.sqlite"), "--listen", "127.0.0.1:0",
                       "--tiles", "none", "--read-only", "--threads", a.threads])
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    py = None
    if not a.no_python:
        py, pline = start([sys.executable, os.path.join(HERE, "py-bbox-server.py"), a.db], pipe_stdin=True)
        pyport = int(pline)
    results = []
    try:
        for name in ["bbox", "nearest", "search"]:
            load(port, reqs[name][:200], 8, 10)   # warm-up (caches, connections)
            for c in clients:
                r = measured(eki.pid, port, reqs[name], c, a.seconds)
                results.append({"endpoint": name, "server": "eki serve", "clients": c, **r})
                print(f"  {name:8} {c:3} clients: {r['rps']:8.0f} req/s  p50 {r['p50']:6.2f} ms  p99 {r['p99']:6.2f} ms"
                      f"  cpu {r['cpu_ms']:.2f} ms/req ({r['requests']} requests, {r['errors']} errors)", file=sys.stderr, flush=True)
        if py:
            load(pyport, reqs["bbox"][:100], 4, 10)
            for c in clients:
                r = measured(py.pid, pyport, reqs["bbox"], c, a.seconds)
                results.append({"endpoint": "bbox", "server": "python sqlite3", "clients": c, **r})
                print(f"  py-bbox  {c:3} clients: {r['rps']:8.0f} req/s  p50 {r['p50']:6.2f} ms  p99 {r['p99']:6.2f} ms"
                      f"  cpu {r['cpu_ms']:.2f} ms/req ({r['requests']} requests, {r['errors']} errors)", file=sys.stderr, flush=True)
    finally:
        eki.send_signal(signal.SIGTERM)
        eki.wait(timeout=30)
        if py:
            py.stdin.close()
            py.wait(timeout=30)
    load_avg = os.getloadavg()
    print(f"\n{a.db}: {a.requests} requests per row (cap {a.seconds:g} s), loopback, {os.cpu_count()} CPUs, "
          f"load average at the end {load_avg[0]:.1f}\n")
    print("| endpoint | server | clients | requests/s | p50 ms | p99 ms | server CPU ms/request | requests | errors |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|")
    for r in results:
        print(f"| {r['endpoint']} | {r['server']} | {r['clients']} | {r['rps']:.0f} | {r['p50']:.2f} | {r['p99']:.2f} | "
              f"{r['cpu_ms']:.3f} | {r['requests']} | {r['errors']} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
