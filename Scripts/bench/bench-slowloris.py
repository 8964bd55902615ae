#!/usr/bin/env python3
"""Availability of `eki serve` under slow and idle clients, on loopback only.

Usage: bench-slowloris.py [--eki .build/release/eki] [--db stations.gpkg] [--slow 600] [--idle 600]
                          [--burst 2000] [--probes 10] [--seconds 12] [-- extra eki serve options]

Starts `eki serve --listen 127.0.0.1:0` (on the sample database unless --db), then holds open
  --slow   connections that send a request head one byte every second and never finish it
           (slowloris: each byte resets the server's inactivity timer),
  --idle   connections that send nothing,
and, while they are open, sends --probes probes (GET /api/session on a new connection, one every
--seconds / --probes seconds) and times each answer; then --burst connections at once, each
sending one GET /api/session, and counts the answers. Prints the probes answered within 1 s, their
worst latency, the connections the server held open and its resident memory (from /proc).
Raises this process's open-files limit to what the connections need (the hard limit must allow
it: `ulimit -Hn`).

Measured (2 shared cores, debug build `--eki .build/debug/eki`, the sample database, loopback):
  bench-slowloris.py --eki .build/debug/eki --seconds 10
    slowloris 600/600 and idle 600/600 connected; 1200 still open at the end; the server had
    accepted 1200 of them, 49.6 MB resident (46.2 MB before)
    probes: 10 of 10 answered within 1 s; answered 10; worst 4.8 ms, median 1.0 ms
    burst: 2000 of 2000 connections at once answered in 0.39 s
  the same with the limits the server had before (512 connections, backlog 256, timeout 30 s):
    the server had accepted 512; probes: 0 of 10 answered within 1 s
  past the connection limit, --slow 2500 --idle 2500 --burst 0 --probes 20 --seconds 20:
    probes at 1 and 7 s got no answer, at 13 s one after 1.9 s; from 16 s on (the 2,500 idle
    connections closed by the 15 s timeout) every one within 3 ms; 58.4 MB resident
"""
import argparse
import os
import re
import resource
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time

signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def start_server(eki, db, extra):
    folder = tempfile.mkdtemp(prefix="eki-slowloris-")
    if db is None:
        db = os.path.join(folder, "stations.gpkg")
        subprocess.run([eki, "import", "--db", db, os.path.join(ROOT, "Datasets/n02-odawara-tokyo.csv")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    proc = subprocess.Popen([eki, "serve", "--db", db, "--visits", os.path.join(folder, "visits.sqlite"),
                             "--listen", "127.0.0.1:0", "--tiles", "none"] + extra,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return proc, int(m.group(1))
        if not line and proc.poll() is not None:
            break
    proc.kill()
    sys.exit("bench-slowloris: eki serve did not print its URL")


def connect_many(port, n, deadline):
    """n non-blocking connections to 127.0.0.1:port; those connected by the deadline."""
    socks, sel = [], selectors.DefaultSelector()
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        sel.register(s, selectors.EVENT_WRITE)
    pending = n
    while pending and time.time() < deadline:
        for key, _ in sel.select(timeout=0.1):
            sel.unregister(key.fileobj)
            pending -= 1
            if key.fileobj.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                socks.append(key.fileobj)
            else:
                key.fileobj.close()
    for key in list(sel.get_map().values()):
        key.fileobj.close()
    return socks


def probe(port, timeout=5.0):
    """Seconds until a whole answer to GET /api/session on a new connection; None if none came."""
    start = time.time()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(max(0.01, timeout - (time.time() - start)))
            s.sendall(f"GET /api/session HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        return time.time() - start if data.startswith(b"HTTP/1.1 200") else None
    except OSError:
        return None


def server_state(pid):
    """(sockets the server holds open, resident MB) from /proc: accepted connections and its
    listening socket, not those still waiting in the listen backlog."""
    rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    sockets = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            sockets += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass
    return sockets, rss


def burst(port, n, timeout=10.0):
    """n connections at once, each one GET /api/session: how many got a whole 200 answer."""
    deadline = time.time() + timeout
    socks = connect_many(port, n, deadline)
    request = f"GET /api/session HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    sel = selectors.DefaultSelector()
    got = {}
    for s in socks:
        try:
            s.send(request)
            sel.register(s, selectors.EVENT_READ)
            got[s] = b""
        except OSError:
            s.close()
    answered = 0
    while got and time.time() < deadline:
        for key, _ in sel.select(timeout=0.1):
            s = key.fileobj
            try:
                chunk = s.recv(65536)
            except OSError:
                chunk = b""
            if chunk:
                got[s] += chunk
                continue
            if got[s].startswith(b"HTTP/1.1 200"):
                answered += 1
            sel.unregister(s)
            s.close()
            del got[s]
    for s in got:
        s.close()
    return answered


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--eki", default=os.path.join(ROOT, ".build/release/eki"))
    ap.add_argument("--db")
    ap.add_argument("--slow", type=int, default=600)
    ap.add_argument("--idle", type=int, default=600)
    ap.add_argument("--burst", type=int, default=2000)
    ap.add_argument("--probes", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=12)
    ap.add_argument("extra", nargs="*")
    a = ap.parse_args()
    need = a.slow + a.idle + a.burst + 64
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    proc, port = start_server(a.eki, a.db, a.extra)
    try:
        time.sleep(0.3)
        sockets_start, rss_start = server_state(proc.pid)
        slow = connect_many(port, a.slow, time.time() + 10)
        head = f"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode()
        idle = connect_many(port, a.idle, time.time() + 10)
        sent = [0] * len(slow)
        latencies, times = [], []
        t0 = time.time()
        step = a.seconds / max(1, a.probes)
        next_probe = time.time() + 1
        next_byte = time.time()
        # One byte of each slow connection's head every second, spread over the second.
        while len(latencies) < a.probes:
            now = time.time()
            if now >= next_byte:
                for i, s in enumerate(slow):
                    try:
                        s.send(head[sent[i] % len(head):sent[i] % len(head) + 1] if sent[i] < len(head) else b"x")
                        sent[i] += 1
                    except OSError:
                        pass
                next_byte = now + 1
            if now >= next_probe:
                latencies.append(probe(port))
                times.append(now - t0)
                next_probe = time.time() + step
            time.sleep(0.01)
        sockets, rss = server_state(proc.pid)
        held = sockets - sockets_start
        alive = 0
        for s in slow + idle:
            try:
                alive += 1 if s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b"" else 0
            except BlockingIOError:
                alive += 1
            except OSError:
                pass
        answered = [t for t in latencies if t is not None]
        within = sum(1 for t in answered if t <= 1.0)
        print(f"slowloris {len(slow)}/{a.slow} and idle {len(idle)}/{a.idle} connected; "
              f"{alive} still open at the end; the server had accepted {held} of them, {rss:.1f} MB resident "
              f"({rss_start:.1f} MB before)")
        print(f"probes: {within} of {a.probes} answered within 1 s; "
              f"answered {len(answered)}; worst {max(answered) * 1000 if answered else float('nan'):.1f} ms, "
              f"median {sorted(answered)[len(answered) // 2] * 1000 if answered else float('nan'):.1f} ms")
        print("each probe (s after the connections opened: ms, - for none):",
              ", ".join(f"{t:.0f}: {'-' if l is None else f'{l * 1000:.0f}'}" for t, l in zip(times, latencies)))
        for s in slow + idle:
            s.close()
        if a.burst:
            time.sleep(0.5)
            start = time.time()
            n = burst(port, a.burst)
            print(f"burst: {n} of {a.burst} connections at once answered in {time.time() - start:.2f} s")
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
