#!/usr/bin/env python3
"""The map screen of issue 24 in real headless Chromium, at 390x844 (device scale 2, mobile) and
1280x800, on the real N02-23 + station_database database.

Usage: map_screen.py --eki PATH/eki --db STATIONS.gpkg --out DIR --geocoder geocoder_server.py

Servers: `--tiles none --aerial-tiles none` (offline), tiles and aerial photos from a loopback tile
server this script starts, tiles that fail (404), and geocoders that find nothing or fail.
Checks, per viewport: clusters at z5 (47 prefectures on the wide screen; a tap zooms in); the
offline basemap (line strokes, names, 空撮 / 複合 disabled with the reason); the scope rows only
while searching; a map tap hides and shows both bars; no overlap among the shown panels, notices,
bars and Leaflet controls in each state; 京橋 / 大手町 / 三越前 near the top edge keep their callout
through the pan Leaflet makes; 50 pans across 東京 at z15 rebuild no unchanged marker; 小田原 is one
stack of 5 that opens 一覧; 地点 (a phone closes its list after the pick; 404 「見つかりません」 vs
unreachable); ◎ with an emulated position. Once: 空撮 and 複合 load their tiles; failing tiles
switch to the offline map with one notice; every visible string is Japanese with Accept-Language
ja and English with en, API messages included. Prints the first paint at z5 (not asserted).
Screenshots go to DIR. Exits 1 on the first failure.
"""
import base64
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (arguments, DESKTOP, PHONE, OVERLAPS_JS, FREE_SPOT_JS, TEXTS_JS, Server, TileServer, check, chrome, load, no_overlap,
                    settle, tap, tap_element, viewport, wait_for)
from selenium.webdriver.common.by import By

args = arguments()
TOKYO = "#15/35.68124/139.76712"
JAPAN = "#5/37.00000/137.50000"

geocoder = subprocess.Popen([sys.executable, args.geocoder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
gport = int(geocoder.stdout.readline())
servers, drivers = [], []


def serve(options, name, geocoder_path="ok"):
    web = ["--web", args.web] if args.web else []
    s = Server(args.eki, args.db, os.path.join(args.out, f"visits-{name}.sqlite"), args.out, options + web, gport, geocoder_path)
    servers.append(s)
    return s


def browser(lang):
    d = chrome(args.chromium, args.chromedriver, lang)
    drivers.append(d)
    return d


def shot(d, name):
    d.save_screenshot(os.path.join(args.out, name))


def js(d, script, *a):
    return d.execute_script(script, *a)


def segment(d, group, value):
    d.find_element(By.CSS_SELECTOR, f'#{group} button[data-value="{value}"]').click()
    time.sleep(0.15)
    settle(d)


def css_px(d, name):
    return js(d, f"return parseFloat(getComputedStyle(document.documentElement).getPropertyValue('{name}'))")


def focus_search(d):
    d.find_element(By.ID, "q").click()
    time.sleep(0.1)


def blur_search(d):
    js(d, "document.activeElement.blur()")
    time.sleep(0.1)


def offline_checks(d, base, v):
    """Everything that needs no tiles, on the `--tiles none --aerial-tiles none` server."""
    tag = v["name"]
    # First paint at z5 and clusters.
    load(d, base + "/" + JAPAN)
    paint = js(d, "return window.eki.state.firstPaintMs")
    print(f"     first paint at z5 ({tag}): {paint:.0f} ms after navigation start (goal ≤ 1000 ms)", flush=True)
    clusters = js(d, "return window.eki.clusters()")
    prefs = {c["prefecture"] for c in clusters}
    drawn = len(d.find_elements(By.CSS_SELECTOR, ".cluster"))
    if v is DESKTOP:
        check(len(prefs) == 47 and drawn == len(clusters) and js(d, "return window.eki.pins().length") == 0,
              f"{tag} z5: {len(clusters)} clusters drawn, in {len(prefs)} prefectures, no pins")
    else:
        check(drawn == len(clusters) > 0, f"{tag} z5: {len(clusters)} clusters drawn in {len(prefs)} prefectures (the phone sees part of Japan)")
    label = d.find_elements(By.CSS_SELECTOR, ".cluster span")[0].get_attribute("textContent")
    check(re.fullmatch(r"\d+/\d+", label) is not None, f"{tag} a cluster is labelled visited/total: {label}")
    shot(d, f"clusters-{tag}.png")
    no_overlap(d, f"{tag} z5")
    # A tap on the biggest cluster zooms to its bbox.
    big = max(clusters, key=lambda c: c["total"])
    el = d.find_element(By.CSS_SELECTOR, f'.cluster[data-id="{big["id"]}"]')
    z0 = js(d, "return window.eki.map.getZoom()")
    tap_element(d, el)
    time.sleep(0.6)
    settle(d)
    z1 = js(d, "return window.eki.map.getZoom()")
    check(z1 > z0, f"{tag} a tap on the {big['prefecture']} cluster ({big['visited']}/{big['total']}) zooms {z0} → {z1}")

    # 東京駅 z15 on the offline basemap.
    load(d, base + "/" + TOKYO)
    bm = wait_for(d, "const b = window.eki.basemap(); return b.lines > 0 && b.names > 0 && b")
    names = [e.text for e in d.find_elements(By.CSS_SELECTOR, ".station-name")]
    check(bool(bm) and bm["lines"] > 400 and "東京" in names and "京橋" in names,
          f"{tag} --tiles none: {bm and bm['lines']} line strokes, {len(names)} station names (東京, 京橋 …), prefecture outlines {bm and bm['prefectures']}")
    titles = js(d, "return ['map', 'aerial', 'hybrid'].map((v) => { const b = document.querySelector(`#mode [data-value=${v}]`); return [b.disabled, b.title]; })")
    check(titles[1][0] and titles[2][0] and "--aerial-tiles" in titles[1][1] and titles[0][1],
          f"{tag} 地図 says {titles[0][1]!r}; 空撮 disabled: {titles[1][1]!r}; 複合 disabled: {titles[2][1]!r}")
    shot(d, f"offline-{tag}.png")

    # Bars: scope rows only while searching; a tap on the bare map hides and shows both.
    scopes = lambda: js(d, "return getComputedStyle(document.querySelector('.scopes')).display")
    check(scopes() == "none", f"{tag} scope rows hidden while the search field is not in use")
    no_overlap(d, f"{tag} map")
    focus_search(d)
    check(scopes() != "none", f"{tag} scope rows shown while the field has the focus")
    no_overlap(d, f"{tag} searching")
    blur_search(d)
    spot = js(d, FREE_SPOT_JS)
    check(spot is not None, f"{tag} a bare spot of the map at {spot}")
    top0 = css_px(d, "--top")
    tap(d, *spot)
    hidden = wait_for(d, "return document.body.classList.contains('bars-hidden') && getComputedStyle(document.getElementById('top')).visibility === 'hidden'", 3)
    check(bool(hidden) and css_px(d, "--top") == 0 and css_px(d, "--bottom") == 0, f"{tag} a map tap hides both bars (--top {top0:.0f} → 0)")
    no_overlap(d, f"{tag} bars hidden")
    time.sleep(0.3)
    tap(d, *spot)
    shown = wait_for(d, "return !document.body.classList.contains('bars-hidden')", 3)
    check(bool(shown) and css_px(d, "--top") == top0, f"{tag} a second tap shows them again")

    # Callouts of pins near the top edge stay open while Leaflet pans to fit them.
    load(d, base + "/" + TOKYO)
    for name in ["京橋", "大手町", "三越前"]:
        js(d, "window.eki.map.closePopup(); window.eki.map.setView([35.68124, 139.76712], 15, { animate: false })")
        settle(d)
        key = js(d, """const top = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--top'));
            const m = [...window.eki.markers.values()].find((m) => m.features.length === 1 && m.feature.properties.name === arguments[0]);
            const p = window.eki.map.latLngToContainerPoint(m.getLatLng());
            window.eki.map.panBy([p.x - innerWidth / 2, p.y - (top + 28)], { animate: false });
            return m.feature.properties.key""", name)
        settle(d)
        before = js(d, "return window.eki.markerIds()")
        el = d.find_element(By.CSS_SELECTOR, f'path.pin[data-key="{key}"]')
        c0 = js(d, "const c = window.eki.map.getCenter(); return [c.lat, c.lng]")
        loads = js(d, "return window.eki.state.loads")
        tap_element(d, el)
        time.sleep(0.8)
        settle(d)
        c1 = js(d, "const c = window.eki.map.getCenter(); return [c.lat, c.lng]")
        moved = js(d, "return window.eki.map.latLngToContainerPoint(arguments[0]).distanceTo(window.eki.map.latLngToContainerPoint(arguments[1]))", c0, c1)
        popup = d.find_elements(By.CSS_SELECTOR, ".leaflet-popup-content")
        after = js(d, "return window.eki.markerIds()")
        same = before[f"{key}|pin"] == after.get(f"{key}|pin")
        reloaded = js(d, "return window.eki.state.loads") > loads
        check(moved > 20 and reloaded and len(popup) == 1 and name in popup[0].text and same,
              f"{tag} {key} at the top edge: the map panned {moved:.0f} px and reloaded its pins, the callout is still open, same marker")
        if name == "京橋":
            shot(d, f"callout-{tag}.png")

    # 50 pans across 東京 at z15: no unchanged marker is made again.
    load(d, base + "/" + TOKYO)
    r = d.execute_async_script(r"""
        const done = arguments[arguments.length - 1];
        (async () => {
          const eki = window.eki, map = eki.map;
          const next = (n) => new Promise((res) => { const iv = setInterval(() => {
            if (eki.state.loads > n && document.body.dataset.busy === '0') { clearInterval(iv); res(); } }, 10); });
          let rebuilt = 0, made = 0, added = 0, kept = 0;
          for (let i = 0; i < 50; i++) {
            const before = eki.markerIds(), c0 = eki.created().pins, n = eki.state.loads;
            const dx = (i % 10 < 5 ? 1 : -1) * 150, dy = (Math.floor(i / 10) % 2 ? -1 : 1) * 70;
            map.panBy([dx, dy], { animate: false });
            await next(n);
            const after = eki.markerIds();
            for (const k in after) { if (k in before) { kept++; if (before[k] !== after[k]) rebuilt++; } else added++; }
            made += eki.created().pins - c0;
          }
          done({ rebuilt, made, added, kept });
        })();""")
    check(r["rebuilt"] == 0 and r["made"] == r["added"] and r["kept"] >= 50,
          f"{tag} 50 pans at z15: {r['kept']} markers kept, 0 rebuilt, {r['made']} made = {r['added']} new places")

    # 小田原: one stack of five that opens 一覧 with them.
    five = [k for k in odawara_keys]
    load(d, base + f"/#17/{odawara[0]:.5f}/{odawara[1]:.5f}")
    stacks = js(d, "return window.eki.stacks()")
    mine = [s for s in stacks if set(s) == set(five)]
    check(len(mine) == 1, f"{tag} 小田原 z17: one stack of {len(five)} ({', '.join(sorted(five))})")
    el = [e for e in d.find_elements(By.CSS_SELECTOR, ".stack") if set(e.get_attribute("data-keys").split()) == set(five)][0]
    check(el.find_element(By.CSS_SELECTOR, ".badge").text == "5", f"{tag} its badge says 5")
    tap_element(d, el)
    time.sleep(0.3)
    settle(d)
    rows = [e.get_attribute("data-key") for e in d.find_elements(By.CSS_SELECTOR, "#list-rows li")]
    check(js(d, "return !document.getElementById('list').hidden") and sorted(rows) == sorted(five),
          f"{tag} tapping the stack opens 一覧 with its five: {d.find_element(By.ID, 'list-title').text}")
    time.sleep(0.4)
    settle(d)
    clear = js(d, """const keys = arguments[0];
        const st = [...document.querySelectorAll('.stack')].find((e) => e.dataset.keys.split(' ').sort().join(' ') === keys);
        if (!st) return null;
        const a = st.getBoundingClientRect(), b = document.getElementById('list').getBoundingClientRect();
        const t = document.getElementById('toolbar').getBoundingClientRect();
        const hit = (r) => a.left < r.right && r.left < a.right && a.top < r.bottom && r.top < a.bottom;
        return !hit(b) && !hit(t) && a.top > document.getElementById('top').getBoundingClientRect().bottom""", " ".join(sorted(five)))
    check(bool(clear), f"{tag} the stack stays in sight beside or above 一覧")
    no_overlap(d, f"{tag} 一覧 (stack)")
    shot(d, f"odawara-stack-{tag}.png")
    d.find_element(By.CSS_SELECTOR, '#list-rows li[data-key="hakone-tozan/c/小田原"]').click()
    settle(d)
    check(d.find_element(By.ID, "st-operator").text == "箱根登山鉄道", f"{tag} the row opens the station screen (箱根登山鉄道)")
    no_overlap(d, f"{tag} 一覧 + station screen")
    focus_search(d)
    no_overlap(d, f"{tag} 一覧 + station screen + scope rows")
    blur_search(d)
    shot(d, f"station-{tag}.png")
    d.find_element(By.ID, "station-close").click()
    segment(d, "mode", "map")

    # A notice (more pins than shown) beside 一覧.
    load(d, base + "/#12/35.68124/139.76712")
    segment(d, "mode", "list")
    check(len(d.find_elements(By.CSS_SELECTOR, '#notice p[data-topic="pins"]')) == 1, f"{tag} z12 東京: the pin-cap notice is shown")
    no_overlap(d, f"{tag} 一覧 + notice")
    segment(d, "mode", "map")
    if d.find_elements(By.ID, "lines-open"):  # the 路線 panel, where it is built
        d.find_element(By.ID, "lines-open").click()
        settle(d)
        check(js(d, "return !document.getElementById('lines').hidden"), f"{tag} 路線 opens its panel")
        no_overlap(d, f"{tag} 路線 + notice")
        d.find_element(By.ID, "lines-close").click()
        settle(d)

    # 地点: the list of candidates; a phone closes it after the pick.
    load(d, base + "/" + TOKYO)
    focus_search(d)
    segment(d, "scope", "place")
    q = d.find_element(By.ID, "q")
    q.clear()
    q.send_keys("小田原城\n")
    time.sleep(0.3)
    settle(d)
    check(js(d, "return !document.getElementById('list').hidden"), f"{tag} 地点 小田原城: the candidates in 一覧")
    d.find_element(By.CSS_SELECTOR, '#list-rows li[data-title="小田原城"]').click()
    time.sleep(0.4)
    settle(d)
    c = js(d, "const c = window.eki.map.getCenter(); return [c.lat, c.lng]")
    closed = js(d, "return document.getElementById('list').hidden")
    check(abs(c[0] - 35.2509) < 1e-4 and abs(c[1] - 139.1534) < 1e-4 and closed == (v is PHONE),
          f"{tag} picked 小田原城: centre {c[0]:.4f}, {c[1]:.4f}; the list {'closed' if closed else 'stays beside the map'}")
    d.find_element(By.ID, "clear").click()
    settle(d)
    if not closed:
        segment(d, "mode", "map")

    # ◎ with an emulated position: a you-are-here marker, the map centred there.
    d.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["geolocation"]})
    d.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 35.2564, "longitude": 139.1553, "accuracy": 30})
    d.find_element(By.ID, "locate").click()
    here = wait_for(d, "return window.eki.state.here && document.querySelector('path.here') && window.eki.state.here", 5)
    c = wait_for(d, """const c = window.eki.map.getCenter();
        return Math.abs(c.lat - 35.2564) < 1e-3 && Math.abs(c.lng - 139.1553) < 1e-3 && [c.lat, c.lng]""", 5) or [0, 0]
    settle(d)
    check(bool(here) and abs(c[0] - 35.2564) < 1e-3 and abs(c[1] - 139.1553) < 1e-3,
          f"{tag} ◎: a you-are-here marker at {here and here['lat']}, {here and here['lon']} (±{here and here['accuracy']} m), centred")
    d.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})


def layer_checks(d, base, v, tiles):
    tag = v["name"]
    load(d, base + "/" + TOKYO)
    ok = wait_for(d, "const t = window.eki.tiles(); return t.map.shown && t.map.loads > 0 && t", 6)
    check(bool(ok) and ok["map"]["errors"] == 0, f"{tag} 地図: {ok and ok['map']['loads']} tiles from the loopback tile server")
    segment(d, "mode", "aerial")
    ok = wait_for(d, "const t = window.eki.tiles(); return t.aerial.shown && !t.map.shown && t.aerial.loads > 0 && t", 6)
    attribution = d.find_element(By.CSS_SELECTOR, ".leaflet-control-attribution").text
    check(bool(ok) and "Test photos" in attribution and not js(d, "return window.eki.basemap().lines"),
          f"{tag} 空撮: {ok and ok['aerial']['loads']} aerial tiles, attribution shown, no overlay")
    segment(d, "mode", "hybrid")
    bm = wait_for(d, "const b = window.eki.basemap(); return b.lines > 0 && b.names > 0 && window.eki.tiles().aerial.shown && b", 6)
    check(bool(bm), f"{tag} 複合: aerial tiles + {bm and bm['lines']} line strokes + {bm and bm['names']} station names")
    shot(d, f"hybrid-{tag}.png")
    no_overlap(d, f"{tag} 複合")
    segment(d, "mode", "map")
    check(js(d, "return window.eki.tiles().map.shown && !window.eki.tiles().aerial.shown && !window.eki.basemap().lines"),
          f"{tag} back to 地図: tiles, no overlay")


def texts(d):
    return js(d, TEXTS_JS)


def language_checks(d, base, lang):
    """Every visible string in the page's language: map, scope rows, 一覧, station screen with a
    visit (its kind) and an API error, a 404 notice."""
    load(d, base + "/" + TOKYO)
    check(js(d, "return document.documentElement.lang") == lang and js(d, "return window.eki.config.lang") == lang,
          f"Accept-Language {lang}: <html lang={lang}>, config.lang {lang}")
    seen = texts(d)
    focus_search(d)
    seen += texts(d)
    blur_search(d)
    segment(d, "mode", "list")
    seen += texts(d)
    if d.find_elements(By.ID, "lines-open"):
        d.find_element(By.ID, "lines-open").click()
        settle(d)
        seen += texts(d)
        segment(d, "mode", "list")
    d.find_element(By.CSS_SELECTOR, '#list-rows li[data-key="jr-east/c/東京"]').click()
    settle(d)
    d.find_element(By.ID, "visit-date").send_keys("2019-08-13")
    d.find_element(By.CSS_SELECTOR, '#visit-kind option[value="board"]').click()
    d.find_element(By.ID, "record-date").click()
    time.sleep(0.3)
    settle(d)
    kinds = [li.get_attribute("data-kind") for li in d.find_elements(By.CSS_SELECTOR, "#st-visits li")]
    visit = d.find_element(By.CSS_SELECTOR, "#st-visits li").text
    want = {"ja": "乗車", "en": "Boarded"}[lang]
    check("board" in kinds and want in visit and "board" not in visit, f"{lang}: the visit's kind reads {visit!r}")
    date = d.find_element(By.ID, "visit-date")
    date.clear()
    date.send_keys("2019-02-30")
    d.find_element(By.ID, "record-date").click()
    time.sleep(0.3)
    settle(d)
    err = d.find_element(By.ID, "record-error").text
    want = {"ja": "日付「2019-02-30」は存在しません", "en": "invalid date '2019-02-30'"}[lang]
    check(err.startswith(want), f"{lang}: the API's message is shown: {err!r}")
    seen += texts(d)
    for b in d.find_elements(By.CSS_SELECTOR, "#st-visits .delete-visit"):
        b.click()
        settle(d)
    d.find_element(By.ID, "station-close").click()
    segment(d, "mode", "map")
    seen = sorted(set(seen))
    if lang == "ja":
        allowed = {"EkiKit"}
        bad = [s for s in seen if any(w not in allowed for w in re.findall(r"[A-Za-z]{3,}", s))]
    else:
        bad = [s for s in seen if re.search(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]", s)]
    check(not bad, f"{lang}: all {len(seen)} visible strings are {'Japanese' if lang == 'ja' else 'English'}" + (f" — not: {bad}" if bad else ""))
    print("     e.g. " + " | ".join(s for s in seen if not re.search(r"\d", s))[:400], flush=True)


def place_answers(d, lang):
    """地点 when the services answer none (404) and when they fail (502): different notices."""
    for path, want in [("empty", {"ja": "「どこでもない町」は見つかりません", "en": "“どこでもない町” not found"}),
                       ("s500", {"ja": "地点検索サービスに接続できません", "en": "The place search service is unreachable"})]:
        s = serve(["--tiles", "none", "--aerial-tiles", "none"], path, geocoder_path=path)
        load(d, s.base + "/" + TOKYO)
        focus_search(d)
        segment(d, "scope", "place")
        q = d.find_element(By.ID, "q")
        q.send_keys("どこでもない町\n")
        time.sleep(0.3)
        settle(d)
        n = wait_for(d, "const p = document.querySelector('#notice p[data-topic=search]'); return p && p.textContent", 3)
        check(bool(n) and n.startswith(want[lang]), f"地点 with a geocoder answering {path}: {n!r}")
        s.stop()


try:
    # The five 小田原 entries and their centre (real data).
    offline = serve(["--tiles", "none", "--aerial-tiles", "none"], "offline")
    found = offline.api("/api/search?" + urllib.parse.urlencode({"q": "小田原", "by": "name", "limit": 20}))
    odawara_f = [f for f in found["features"] if f["properties"]["name"] == "小田原"]
    odawara_keys = [f["properties"]["key"] for f in odawara_f]
    check(len(odawara_keys) == 5, f"five 小田原 entries: {odawara_keys}")
    odawara = (sum(f["geometry"]["coordinates"][1] for f in odawara_f) / 5, sum(f["geometry"]["coordinates"][0] for f in odawara_f) / 5)

    ja = browser("ja")
    for v in [PHONE, DESKTOP]:
        viewport(ja, v)
        offline_checks(ja, offline.base, v)

    # A PNG and a JPEG made by Chromium itself, for the loopback tile server.
    ja.get("about:blank")
    png, jpeg = (base64.b64decode(js(ja, """const c = document.createElement('canvas'); c.width = c.height = 256;
        const x = c.getContext('2d'); x.fillStyle = arguments[0]; x.fillRect(0, 0, 256, 256);
        return c.toDataURL(arguments[1], 0.7).split(',')[1]""", colour, kind)) for colour, kind in
                 [("#e8e4d8", "image/png"), ("#4f6f46", "image/jpeg")])
    tiles = TileServer(png, jpeg)
    online = serve(["--tiles", tiles.url("std", "png"), "--tile-attribution", '<span translate="no">Test tiles</span>',
                    "--aerial-tiles", tiles.url("photo", "jpg"), "--aerial-attribution", '<span translate="no">Test photos</span>'], "online")
    for v in [PHONE, DESKTOP]:
        viewport(ja, v)
        layer_checks(ja, online.base, v, tiles)
    check(tiles.counts.get("std", 0) > 0 and tiles.counts.get("photo", 0) > 0,
          f"the tile server answered {tiles.counts.get('std')} map and {tiles.counts.get('photo')} aerial requests")

    # Tiles that fail: one notice, the offline basemap, the reason on 地図.
    failing = serve(["--tiles", tiles.url("fail", "png"), "--aerial-tiles", "none"], "failing")
    load(ja, failing.base + "/" + TOKYO)
    n = wait_for(ja, "const p = document.querySelector('#notice p[data-topic=\"tiles-map\"]'); return p && p.textContent", 6)
    state = js(ja, "return [window.eki.tiles().map, window.eki.basemap(), document.querySelector('#mode [data-value=map]').title]")
    wait_for(ja, "return window.eki.basemap().lines > 0", 4)
    check(n == "地図タイルを読み込めません。オフライン地図に切り替えました" and state[0]["failed"] and not state[0]["shown"]
          and js(ja, "return window.eki.basemap().lines") > 0 and state[2],
          f"failing tiles ({state[0]['errors']} tileerror, {state[0]['loads']} tileload): notice {n!r}, offline basemap, 地図 says {state[2]!r}")
    check(len(ja.find_elements(By.CSS_SELECTOR, "#notice p")) == 1, "the tile notice is shown once")
    no_overlap(ja, "1280x800 failing tiles + notice")
    shot(ja, "tiles-failed.png")

    viewport(ja, PHONE)
    place_answers(ja, "ja")
    viewport(ja, DESKTOP)
    language_checks(ja, online.base, "ja")

    en = browser("en")
    viewport(en, DESKTOP)
    language_checks(en, online.base, "en")
    shot(en, "english.png")
    viewport(en, PHONE)
    place_answers(en, "en")

    icon = urllib.request.urlopen(offline.base + "/favicon.svg")
    check(icon.status == 200 and icon.headers["Content-Type"].startswith("image/svg+xml")
          and ja.find_elements(By.CSS_SELECTOR, 'link[rel="icon"][href="/favicon.svg"]'), "favicon.svg served and linked")
    tiles.stop()
    print("all checks passed", flush=True)
finally:
    for d in drivers:
        d.quit()
    for s in servers:
        s.stop()
    geocoder.stdin.close()
    geocoder.wait(timeout=10)
