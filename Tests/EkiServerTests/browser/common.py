"""Shared by the browser checks: `eki serve` on a loopback port, headless Chromium (Debian's
chromium + chromium-driver through Selenium) at an emulated viewport, a loopback tile server,
and the small waits and probes the checks use."""
import argparse
import json
import os
import signal
import subprocess
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

PHONE = {"name": "390x844", "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
DESKTOP = {"name": "1280x800", "width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}


def arguments():
    """The options every browser script takes (BrowserTests passes them all); makes `--out`."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--eki", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--geocoder", help="the loopback fake geocoder's script (the scripts that search 地点)")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    ap.add_argument("--web", help="serve the page from this folder (eki serve --web)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    return args


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        raise SystemExit(1)


class Server:
    """`eki serve` on 127.0.0.1:0 with the given options; stop() ends it with SIGTERM."""

    def __init__(self, eki, db, visits, out, options, geocoder_port=None, geocoder_path="ok"):
        env = dict(os.environ, EKI_CACHE="", XDG_RUNTIME_DIR=os.path.join(out, "runtime"), XDG_CACHE_HOME=os.path.join(out, "cache"))
        if geocoder_port:
            env.update(EKI_GSI_ENDPOINT=f"http://127.0.0.1:{geocoder_port}/{geocoder_path}", EKI_PROVIDERS="stations,gsi")
        self.p = subprocess.Popen([eki, "serve", "--db", db, "--visits", visits, "--listen", "127.0.0.1:0"] + options,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        line = self.p.stdout.readline()
        check(line.startswith("eki serve: http://127.0.0.1:"), f"eki serve {' '.join(options)}: {line.strip()}")
        self.base = line.split()[2].rstrip("/")

    def api(self, path, lang=None):
        req = urllib.request.Request(self.base + path, headers={"Accept-Language": lang} if lang else {})
        with urllib.request.urlopen(req) as r:
            return json.load(r)

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            self.p.wait(timeout=10)
        return self.p.returncode


class TileServer:
    """Answers /std/{z}/{x}/{y}.png with a PNG and /photo/{z}/{x}/{y}.jpg with a JPEG (the bytes
    given), /fail/... with 404; counts the requests per first path segment."""

    def __init__(self, png, jpeg):
        counts = self.counts = {}

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                kind = self.path.strip("/").split("/")[0]
                counts[kind] = counts.get(kind, 0) + 1
                body, ctype = {"std": (png, "image/png"), "photo": (jpeg, "image/jpeg")}.get(kind, (None, None))
                if body is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, kind, ext):
        return f"http://127.0.0.1:{self.port}/{kind}/{{z}}/{{x}}/{{y}}.{ext}"

    def stop(self):
        self.httpd.shutdown()


def chrome(chromium, chromedriver, lang):
    """Headless Chromium speaking `lang` (--lang and intl.accept_languages)."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900", f"--lang={lang}"]:
        options.add_argument(a)
    options.add_experimental_option("prefs", {"intl.accept_languages": lang})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.set_script_timeout(90)
    return driver


def viewport(driver, v):
    """Emulates the viewport v (PHONE or DESKTOP): CSS size, device scale, mobile."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {k: v[k] for k in ("width", "height", "deviceScaleFactor", "mobile")})


def settle(driver, timeout=15):
    """Waits until the page has no request in flight (body[data-busy=0]) for a moment."""
    end = time.time() + timeout
    quiet = 0
    while time.time() < end:
        busy = driver.execute_script("return document.body && document.body.dataset.busy")
        quiet = quiet + 1 if busy == "0" else 0
        if quiet >= 3:
            return
        time.sleep(0.07)
    raise SystemExit("FAIL the page stayed busy")


def wait_for(driver, script, timeout=8, *args):
    """Polls `script` (returning a value) until it is truthy; returns the last value."""
    end = time.time() + timeout
    value = None
    while time.time() < end:
        value = driver.execute_script(script, *args)
        if value:
            return value
        time.sleep(0.1)
    return value


def load(driver, url):
    """A fresh page load (not a same-document hash change)."""
    driver.get("about:blank")
    driver.get(url)
    settle(driver)


def tap(driver, x, y):
    """A real mouse press and release at CSS pixel (x, y)."""
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})


def tap_element(driver, el):
    r = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]", el)
    tap(driver, r[0], r[1])


# The boxes of every panel, notice, bar and Leaflet control that is shown, and the pairs that
# overlap by more than half a pixel each way, and the boxes reaching outside the window.
OVERLAPS_JS = r"""
const sel = ['#top', '#toolbar', '#notice p', '.panel', '.leaflet-control-zoom', '.leaflet-control-attribution'];
const shown = [];
const visible = (el) => {
  for (let e = el; e; e = e.parentElement) {
    if (e.hidden) return false;
    const s = getComputedStyle(e);
    if (s.display === 'none' || s.visibility === 'hidden') return false;
  }
  return true;
};
for (const s of sel) for (const el of document.querySelectorAll(s)) {
  if (!visible(el)) continue;
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) continue;
  const name = el.id ? '#' + el.id : (el.dataset.topic ? 'notice:' + el.dataset.topic : s);
  shown.push({ name, r: [r.left, r.top, r.right, r.bottom].map((v) => Math.round(v * 10) / 10) });
}
const bad = [];
for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++) {
  const a = shown[i].r, b = shown[j].r;
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]), h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w > 0.5 && h > 0.5) bad.push(`${shown[i].name} ${JSON.stringify(a)} × ${shown[j].name} ${JSON.stringify(b)}`);
}
for (const s of shown) {
  const r = s.r;
  if (r[0] < -0.5 || r[1] < -0.5 || r[2] > innerWidth + 0.5 || r[3] > innerHeight + 0.5) bad.push(`${s.name} ${JSON.stringify(r)} outside the window`);
}
return { shown: shown.map((s) => s.name), bad };
"""


def no_overlap(driver, what):
    o = driver.execute_script(OVERLAPS_JS)
    check(not o["bad"], f"{what}: no overlap among {', '.join(o['shown'])}" + (f" — {o['bad']}" if o["bad"] else ""))
    return o["shown"]


# A point on the bare map: inside #map, on no marker, control, panel or bar, and 24 px from any pin.
FREE_SPOT_JS = r"""
const px = (v) => parseFloat(getComputedStyle(document.documentElement).getPropertyValue(v)) || 0;
const marks = [...document.querySelectorAll('path.pin, .leaflet-marker-icon')].map((e) => e.getBoundingClientRect());
for (let y = px('--top') + 110; y < innerHeight - px('--bottom') - px('--sheet') - 60; y += 17) {
  for (let x = 70; x < innerWidth - px('--pr') - 70; x += 19) {
    if (x < px('--pl') + 70) continue;
    const el = document.elementFromPoint(x, y);
    if (!el || !document.getElementById('map').contains(el)) continue;
    if (el.closest('.leaflet-marker-icon, .leaflet-control, .leaflet-popup') || el.tagName === 'path') continue;
    if (marks.some((r) => x > r.left - 24 && x < r.right + 24 && y > r.top - 24 && y < r.bottom + 24)) continue;
    return [x, y];
  }
}
return null;
"""

# Every string a person sees outside data (elements marked translate="no"): text nodes of shown
# elements, their title / placeholder / aria-label, the options of shown selects, the title.
TEXTS_JS = r"""
const visible = (el) => {
  for (let e = el; e; e = e.parentElement) {
    if (e.hidden) return false;
    const s = getComputedStyle(e);
    if (s.display === 'none' || s.visibility === 'hidden') return false;
  }
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
};
const out = [document.title];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n; (n = walker.nextNode());) {
  const s = n.textContent.trim();
  const el = n.parentElement;
  if (!s || !el || el.closest('[translate="no"], script, style, option') || !visible(el)) continue;
  out.push(s);
}
for (const el of document.querySelectorAll('[title], [placeholder], [aria-label]')) {
  if (el.closest('[translate="no"]') || !visible(el)) continue;
  for (const a of ['title', 'placeholder', 'aria-label']) { const v = el.getAttribute(a); if (v) out.push(v); }
}
for (const sel of document.querySelectorAll('select')) if (visible(sel)) for (const o of sel.options) out.push(o.textContent.trim());
return out.filter(Boolean);
"""
