#!/usr/bin/env python3
"""The viewport endpoint written the way one would without EkiKit: Python's http.server and sqlite3
over the same GeoPackage's R-tree, for comparison with `eki serve` in serve-load.py.

Usage: py-bbox-server.py STATIONS.gpkg   (binds 127.0.0.1 on a free port, prints the port)

GET /api/bbox?bbox=minLon,minLat,maxLon,maxLat&limit=N answers a FeatureCollection with `total`
and, with a limit, the N open entries nearest the box centre (haversine), with the same
properties as `eki serve` (without the visit log). Stops when stdin closes.
"""
import json
import math
import signal
import sqlite3
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())
DB = sys.argv[1]
local = threading.local()

SQL = """SELECT s.key, s.name, s.reading, s.latin_name, s.operator, s.operator_id, s.class, s.lines, s.prefecture,
                s.open, (SELECT json_group_array(o.dataset || ':' || o.source_id) FROM station_sources o WHERE o.station_fid = s.fid),
                s.lon, s.lat
         FROM rtree_stations_geom r JOIN stations s ON s.fid = r.id
         WHERE r.minx <= ? AND r.maxx >= ? AND r.miny <= ? AND r.maxy >= ?
           AND s.lon BETWEEN ? AND ? AND s.lat BETWEEN ? AND ? AND s.open = 1"""


def db():
    if not hasattr(local, "db"):
        local.db = sqlite3.connect(f"file:{DB}?mode=ro", uri=True, check_same_thread=False)
    return local.db


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(a))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # One write per answer and no Nagle delay: otherwise headers and body go out as two
    # segments and every keep-alive request waits 40 ms for a delayed ACK.
    wbufsize = 1 << 20
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, obj):
        body = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        u = urlsplit(self.path)
        q = parse_qs(u.query)
        if u.path != "/api/bbox":
            return self.answer(404, {"error": "not_found"})
        try:
            w, s, e, n = (float(x) for x in q["bbox"][0].split(","))
            limit = int(q["limit"][0]) if "limit" in q else None
        except (KeyError, ValueError):
            return self.answer(400, {"error": "bad_request"})
        rows = db().execute(SQL, (e, w, n, s, w, e, s, n)).fetchall()
        total = len(rows)
        if limit is not None:
            clat, clon = (s + n) / 2, (w + e) / 2
            rows.sort(key=lambda r: (haversine(clat, clon, r[12], r[11]), r[0]))
            rows = rows[:limit]
        else:
            rows.sort(key=lambda r: r[0])
        features = [{"type": "Feature", "id": r[0], "geometry": {"type": "Point", "coordinates": [r[11], r[12]]},
                     "properties": {"key": r[0], "name": r[1], "reading": r[2], "latin_name": r[3], "operator": r[4],
                                    "operator_id": r[5], "class": r[6], "lines": json.loads(r[7]), "prefecture": r[8],
                                    "open": bool(r[9]), "sources": json.loads(r[10])}} for r in rows]
        self.answer(200, {"type": "FeatureCollection", "total": total, "features": features})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
