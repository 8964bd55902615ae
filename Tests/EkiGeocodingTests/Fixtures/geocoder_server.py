#!/usr/bin/env python3
"""Loopback HTTP server for EkiGeocodingTests: recorded geocoder answers and deliberate misbehaviour.

Usage: geocoder_server.py [SAMPLES_DIR]
Binds 127.0.0.1 on an ephemeral port, prints the port on stdout, and exits when stdin closes
(so a test stops it by closing the pipe; SIGTERM may be blocked in a child of Swift Testing,
which is why signals are unblocked first). A line `log` on stdin is answered with one line on
stdout: the JSON list of the requests so far, as /_log gives it.

The first path segment chooses the behaviour; the provider's own path follows it, e.g.
/ok/address-search/AddressSearch?q=... or /s429/120/search?q=...

  ok              GSI features or Nominatim places (by path), small inline bodies
  empty           []
  echo            one result whose title is the decoded q
  samples         recorded bodies from SAMPLES_DIR: GSI q=函館工業 -> ypm_q_hakodate-kogyo.json,
                  other q -> ypm_q_empty.json; /search -> search_jsonv2_addressdetails.json
                  (400 unless format=jsonv2, accept-language=ja and countrycodes=jp)
  file/<dir>/<name>.json   that recorded body as is
  slow/<seconds>  sleeps, then answers like ok
  s<code>         that status, e.g. s500, s403, s400 (JSON error body)
  s<code>once     that status on the first request of the process, then ok
  s429/<n>        429 with Retry-After: n;  s429once/<n> the same once, then ok
  html            200 text/html block page
  html404         404 with a long HTML page titled "404 Not Found"
  error/<text>    200 application/json {"error": "<text>"} (a service's own error object)
  badjson         200 application/json, truncated
  huge            5 MiB with Content-Length;  hugestream  5 MiB, no length (close-delimited)
  gzip            ok, gzip-encoded;  gzipbomb  5 MiB of zeros, gzip-encoded (about 5 KiB)
  redirect-file   302 to file:///etc/passwd;  redirect-ok  302 to /ok/...;  redirect-loop  302 to itself
  ua              403 unless the User-Agent starts with EkiKit/
  _log            JSON list of the requests so far (method, path, query, ua, accept_encoding, t)
"""
import gzip
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())
signal.signal(signal.SIGTERM, signal.SIG_DFL)

SAMPLES = sys.argv[1] if len(sys.argv) > 1 else None
LOCK = threading.Lock()
LOG = []
SEEN = set()
FIVE_MIB = 5 * 1024 * 1024

GSI_OK = [
    {"geometry": {"coordinates": [139.155, 35.2564], "type": "Point"}, "type": "Feature",
     "properties": {"addressCode": "", "title": "小田原駅"}},
    {"geometry": {"coordinates": [139.1534, 35.2509], "type": "Point"}, "type": "Feature",
     "properties": {"addressCode": "", "title": "小田原城"}},
]
NOMINATIM_OK = [
    {"place_id": 1, "lat": "35.2564", "lon": "139.1550", "name": "小田原駅",
     "display_name": "小田原駅, 小田原市, 神奈川県, 日本",
     "boundingbox": ["35.2514", "35.2614", "139.1500", "139.1600"]},
]


def ok_body(path, title=None):
    if path.endswith("/search"):
        places = [dict(p) for p in NOMINATIM_OK]
        if title is not None:
            places[0]["display_name"] = title
        return places
    features = [json.loads(json.dumps(f)) for f in GSI_OK]
    if title is not None:
        features = features[:1]
        features[0]["properties"]["title"] = title
    return features


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json; charset=utf-8", headers=(), length=True):
        if not isinstance(body, bytes):
            body = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for k, v in headers:
            self.send_header(k, v)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urlsplit(self.path)
        parts = url.path.split("/")
        scenario = parts[1] if len(parts) > 1 else ""
        arg = parts[2] if len(parts) > 2 else ""
        if scenario == "_log":
            with LOCK:
                return self.send(200, list(LOG))
        query = parse_qs(url.query, keep_blank_values=True)
        q = query.get("q", [""])[0]
        with LOCK:
            LOG.append({"method": "GET", "path": url.path, "query": url.query, "q": q,
                        "ua": self.headers.get("User-Agent", ""),
                        "accept_encoding": self.headers.get("Accept-Encoding", ""), "t": time.time()})
            first = url.path not in SEEN if scenario.endswith("once") else False
            SEEN.add(url.path)
        path = url.path

        if scenario == "ok":
            return self.send(200, ok_body(path))
        if scenario == "empty":
            return self.send(200, [])
        if scenario == "echo":
            return self.send(200, ok_body(path, title=q))
        if scenario == "samples":
            return self.samples(path, query, q)
        if scenario == "file":
            name = url.path.split("/file/", 1)[1].split(".json", 1)[0] + ".json"
            return self.sample_file(name)
        if scenario == "slow":
            time.sleep(float(arg or 5))
            return self.send(200, ok_body(path))
        if scenario.startswith("s") and scenario[1:4].isdigit():
            code = int(scenario[1:4])
            if scenario.endswith("once") and not first:
                return self.send(200, ok_body(path))
            headers = [("Retry-After", arg)] if code == 429 and arg.isdigit() else []
            return self.send(code, {"error": {"code": code, "message": "deliberate %d" % code}}, headers=headers)
        if scenario == "html":
            return self.send(200, b"<!DOCTYPE html><html><body><h1>Access blocked</h1></body></html>",
                             content_type="text/html; charset=utf-8")
        if scenario == "html404":
            page = b"<html><head><title>404 Not Found</title><style>" + b"p{}" * 2000 + b"</style></head><body><h1>Not Found</h1></body></html>"
            return self.send(404, page, content_type="text/html")
        if scenario == "error":
            return self.send(200, {"error": unquote(arg)})
        if scenario == "badjson":
            return self.send(200, b'[{"geometry":{"coordinates":[139.1,35.2],')
        if scenario == "huge":
            return self.send(200, b"[" + b" " * (FIVE_MIB - 2) + b"]")
        if scenario == "hugestream":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            chunk = b" " * 65536
            for _ in range(FIVE_MIB // len(chunk)):
                try:
                    self.wfile.write(chunk)
                except OSError:
                    return
            return
        if scenario == "gzip":
            body = gzip.compress(json.dumps(ok_body(path), ensure_ascii=False).encode())
            return self.send(200, body, headers=[("Content-Encoding", "gzip")])
        if scenario == "gzipbomb":
            return self.send(200, gzip.compress(b"0" * FIVE_MIB), headers=[("Content-Encoding", "gzip")])
        if scenario == "redirect-file":
            return self.send(302, b"", headers=[("Location", "file:///etc/passwd")])
        if scenario == "redirect-ok":
            target = "/ok" + url.path[len("/redirect-ok"):] + "?" + url.query
            return self.send(302, b"", headers=[("Location", target)])
        if scenario == "redirect-loop":
            return self.send(302, b"", headers=[("Location", self.path)])
        if scenario == "ua":
            if self.headers.get("User-Agent", "").startswith("EkiKit/"):
                return self.send(200, ok_body(path))
            return self.send(403, b"<html>stock User-Agent refused</html>", content_type="text/html")
        return self.send(404, {"error": "unknown scenario %r" % scenario})

    def samples(self, path, query, q):
        if path.endswith("/address-search/AddressSearch"):
            return self.sample_file("gsi/ypm_q_hakodate-kogyo.json" if q == "函館工業" else "gsi/ypm_q_empty.json")
        if path.endswith("/search"):
            want = {"format": "jsonv2", "accept-language": "ja", "countrycodes": "jp"}
            if any(query.get(k, [None])[0] != v for k, v in want.items()):
                return self.send(400, {"error": {"code": 400, "message": "missing %r" % want}})
            return self.sample_file("nominatim/search_jsonv2_addressdetails.json")
        return self.send(404, {"error": "no sample for " + path})

    def sample_file(self, name):
        if SAMPLES is None:
            return self.send(404, {"error": "no samples directory"})
        with open(os.path.join(SAMPLES, name), "rb") as f:
            return self.send(200, f.read())


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):
            return             # the client hung up on purpose (size limit, timeout)
        super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    for line in sys.stdin:     # ends at EOF: the test closed our stdin
        if line.strip() == "log":
            with LOCK:
                print(json.dumps(LOG, ensure_ascii=False), flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
