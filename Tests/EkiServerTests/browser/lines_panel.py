#!/usr/bin/env python3
"""The 路線 panel in real headless Chromium, at 1280x800 and 390x844 (device scale 2, mobile), on
the real N02-23 + station_database database, served with `--tiles none`.

Usage: lines_panel.py --eki PATH/eki --db STATIONS.gpkg --out DIR [--web DIR]

Checks: the tree is /api/lines' types and operators in order; 東海道新幹線 sits under JR → JR東海
with /api/lines' n/m; choosing it lists /api/line's 17 stations in order (東京 … 新大阪) with red
dots, draws its stroke and its 17 stations inside the part of the map the panel leaves free; a
station row opens the station screen, which lists 東海道新幹線 with /api/station's n/m; recording
a visit there turns the row green and the n/m to 1/17 in the panel, the station screen and the
tree; 乗下車済駅のみ keeps the lines of /api/lines?filter=visited; closing the panel removes the
line from the map; a station screen's line link opens the line (on a phone the station sheet
gives way to it); every visible word is Japanese, and English with Accept-Language en; no panel,
bar or Leaflet control overlaps another in each state.
Screenshots go to DIR. Exits 1 on the first failure.
"""
import os
import re
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import arguments, DESKTOP, PHONE, TEXTS_JS, Server, check, chrome, load, no_overlap, settle, viewport, wait_for
from selenium.webdriver.common.by import By

args = arguments()
TOKYO = "#15/35.68124/139.76712"
LINE_NAME, OPERATOR = "東海道新幹線", "jr-central"
drivers = []
server = Server(args.eki, args.db, os.path.join(args.out, "visits-lines.sqlite"), args.out,
                ["--tiles", "none", "--aerial-tiles", "none"] + (["--web", args.web] if args.web else []))


def js(d, script, *a):
    return d.execute_script(script, *a)


def shot(d, name):
    d.save_screenshot(os.path.join(args.out, name))


def wait_panel(d, loads):
    """Waits until the panel has drawn `loads` answers and has nothing in flight."""
    ok = wait_for(d, "return window.eki.lines.state.loads >= arguments[0] && document.getElementById('lines').dataset.busy === '0'",
                  10, loads)
    check(bool(ok), f"the 路線 panel drew answer {loads}")
    settle(d)


def loads(d):
    return js(d, "return window.eki.lines.state.loads")


def api_line(lid):
    return server.api("/api/line?" + urllib.parse.urlencode({"id": lid}))


def find_line(tree):
    for t in tree["types"]:
        for o in t["operators"]:
            for ln in o["lines"]:
                if o["id"] == OPERATOR and ln["name"] == LINE_NAME:
                    return t, o, ln
    return None, None, None


# Where the line's station markers are on the screen, and the map part no bar or panel covers.
MARKERS_JS = r"""
const px = (v) => parseFloat(getComputedStyle(document.documentElement).getPropertyValue(v)) || 0;
const free = [px('--pl'), px('--top'), innerWidth - px('--pr'), innerHeight - px('--bottom') - px('--sheet')];
const pts = [...document.querySelectorAll('path.line-station')].map((e) => {
  const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; });
return { free, pts, strokes: document.querySelectorAll('path.line-stroke').length,
         outside: pts.filter(([x, y]) => x < free[0] || x > free[2] || y < free[1] || y > free[3]).length };
"""


def line_on_map(d, n, what):
    m = js(d, MARKERS_JS)
    check(m["strokes"] == 1 and len(m["pts"]) == n and m["outside"] == 0,
          f"{what}: the stroke and {len(m['pts'])} station markers drawn, all inside the free map {[round(v) for v in m['free']]}")


def station_rows(d):
    return js(d, "return [...document.querySelectorAll('#lines-stations li[data-key]')].map((li) => "
                 "[li.dataset.key, li.querySelector('.name').textContent, li.classList.contains('visited')])")


def language(seen, lang):
    """Every string outside data (translate="no") in the page's language, as map_screen.py checks it
    (command-line options such as --aerial-tiles are not words)."""
    seen = sorted(set(seen))
    if lang == "ja":
        bad = [s for s in seen if any(w != "EkiKit" for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"--[a-z-]+", "", s)))]
    else:
        bad = [s for s in seen if re.search(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]", s)]
    check(not bad, f"{lang}: the {len(seen)} visible strings with the 路線 panel open are {'Japanese' if lang == 'ja' else 'English'}"
          + (f" — not: {bad}" if bad else ""))


def text(d, sel):
    return js(d, "const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null", sel)


try:
    start = time.time()
    tree = server.api("/api/lines")
    jr, central, shinkansen = find_line(tree)
    check(shinkansen is not None and jr["type"] == "JR" and central["name"] == "JR東海",
          f"/api/lines: {LINE_NAME} under {jr and jr['type']} → {central and central['name']}, {shinkansen and shinkansen['visited']}/{shinkansen and shinkansen['total']}")
    lid = shinkansen["id"]
    line = api_line(lid)
    keys = [s["key"] for s in line["stations"]]
    names = [s["name"] for s in line["stations"]]
    check(len(keys) == 17 and line["total"] == 17 and names[0] == "東京" and names[-1] == "新大阪" and line["visited"] == 0,
          f"/api/line?id={lid}: {len(keys)} stations {names[0]} … {names[-1]}, {line['visited']}/{line['total']}")

    # --- 1280x800 ------------------------------------------------------------------------------
    d = chrome(args.chromium, args.chromedriver, "ja")
    drivers.append(d)
    viewport(d, DESKTOP)
    load(d, server.base + "/" + TOKYO)
    d.find_element(By.ID, "lines-open").click()
    wait_panel(d, 1)
    types = js(d, "return [...document.querySelectorAll('#lines-tree > details')].map((e) => e.dataset.type)")
    check(types == [t["type"] for t in tree["types"]], f"the tree's types are /api/lines' in order: {' / '.join(types)}")
    ops = js(d, "return [...document.querySelectorAll('#lines-tree details[data-type=JR] > details')].map((e) => "
                "e.querySelector('summary .name').textContent)")
    check(ops == [o["name"] for o in jr["operators"]], f"JR's operators in order: {'、'.join(ops)}")
    row = f'#lines-tree details[data-type="JR"] details[data-operator="{OPERATOR}"] li[data-id="{lid}"]'
    want = f"{shinkansen['visited']}/{shinkansen['total']}"
    check(text(d, row + " .name") == LINE_NAME and text(d, row + " .nm") == want, f"JR → JR東海 → {LINE_NAME} {want}")
    no_overlap(d, "1280x800 路線 tree")
    seen = js(d, TEXTS_JS)
    d.find_element(By.CSS_SELECTOR, f'#lines-tree details[data-operator="{OPERATOR}"] > summary').click()
    n = loads(d)
    d.find_element(By.CSS_SELECTOR, row).click()
    wait_panel(d, n + 1)
    rows = station_rows(d)
    check([r[0] for r in rows] == keys and not any(r[2] for r in rows),
          f"{LINE_NAME}: {len(rows)} rows in /api/line's order ({' → '.join(r[1] for r in rows)}), all red")
    check(text(d, "#lines-title") == LINE_NAME and text(d, "#lines-count") == "0/17", "the title says 東海道新幹線 0/17")
    time.sleep(0.4)  # the fit's animation
    line_on_map(d, 17, "1280x800")
    no_overlap(d, "1280x800 路線 line")
    shot(d, "lines-tokaido-1280.png")
    seen += js(d, TEXTS_JS)

    # A station row opens the station screen; it lists the line with n/m.
    d.find_element(By.CSS_SELECTOR, '#lines-stations li[data-key="jr-central/s/東京"]').click()
    settle(d)
    st = server.api("/api/station?" + urllib.parse.urlencode({"key": "jr-central/s/東京"}))
    stats = {s["id"]: s for s in st["properties"]["line_stats"]}
    link = f'#st-lines a.st-line[data-id="{lid}"]'
    check(text(d, "#st-name") == "東京" and text(d, link) == LINE_NAME and lid in stats
          and text(d, link + " + .nm") == f"{stats[lid]['visited']}/{stats[lid]['total']}" == "0/17",
          f"station screen of jr-central/s/東京: {LINE_NAME} 0/17 (of {len(stats)} line)")
    no_overlap(d, "1280x800 路線 line + station screen")
    seen += js(d, TEXTS_JS)
    language(seen, "ja")

    # Recording a visit: 1/17 in the panel, the station screen and (after 戻る) the tree.
    n = loads(d)
    d.find_element(By.ID, "today").click()
    settle(d)
    wait_panel(d, n + 1)
    rows = station_rows(d)
    after = api_line(lid)
    check(after["visited"] == 1 and text(d, "#lines-count") == "1/17"
          and [r[0] for r in rows if r[2]] == ["jr-central/s/東京"],
          f"after 「今日乗下車しました」: the panel says 1/17 (/api/line {after['visited']}/{after['total']}), 東京's dot green")
    check(text(d, link + " + .nm") == "1/17", "the station screen says 東海道新幹線 1/17")
    shot(d, "lines-tokaido-visited-1280.png")
    n = loads(d)
    d.find_element(By.ID, "lines-back").click()
    wait_panel(d, n + 1)
    check(text(d, row + " .nm") == "1/17", "back in the tree: JR → JR東海 → 東海道新幹線 1/17")
    n = loads(d)
    d.find_element(By.CSS_SELECTOR, '#filter button[data-value="visited"]').click()
    wait_panel(d, n + 1)
    got = js(d, "return [...document.querySelectorAll('#lines-tree li[data-id]')].map((li) => li.dataset.id)")
    want = [ln["id"] for t in server.api("/api/lines?filter=visited")["types"] for o in t["operators"] for ln in o["lines"]]
    check(got == want and lid in got, f"乗下車済駅のみ: the tree keeps the {len(got)} lines of /api/lines?filter=visited, {LINE_NAME} among them")
    n = loads(d)
    d.find_element(By.CSS_SELECTOR, '#filter button[data-value="all"]').click()
    wait_panel(d, n + 1)
    check(len(js(d, "return document.querySelectorAll('#lines-tree li[data-id]')")) == len(
          [1 for t in tree["types"] for o in t["operators"] for ln in o["lines"]]), "全駅: every line again")
    d.find_element(By.ID, "lines-close").click()
    time.sleep(0.2)
    check(js(d, "return document.querySelectorAll('path.line-stroke, path.line-station').length") == 0
          and js(d, "return document.getElementById('lines').hidden"), "closing the panel removes the line from the map")

    # The station screen's link opens the line; 一覧 takes the panel's place.
    n = loads(d)
    d.find_element(By.CSS_SELECTOR, link).click()
    wait_panel(d, n + 1)
    check(js(d, "return document.getElementById('lines').dataset.line") == lid and len(station_rows(d)) == 17,
          "the station screen's link opens 東海道新幹線 in the panel")
    d.find_element(By.CSS_SELECTOR, '#mode button[data-value="list"]').click()
    settle(d)
    check(js(d, "return document.getElementById('lines').hidden && !document.getElementById('list').hidden"
                " && document.querySelectorAll('path.line-stroke').length === 0"), "一覧 closes the 路線 panel and its line")
    d.find_element(By.ID, "lines-open").click()
    time.sleep(0.2)
    check(js(d, "return !document.getElementById('lines').hidden && document.getElementById('list').hidden"),
          "路線 closes 一覧")

    # --- 390x844 -------------------------------------------------------------------------------
    viewport(d, PHONE)
    load(d, server.base + "/" + TOKYO)
    d.find_element(By.ID, "lines-open").click()
    wait_panel(d, 1)
    no_overlap(d, "390x844 路線 tree")
    shot(d, "lines-tree-390.png")
    js(d, "window.eki.openStation('jr-central/s/東京')")
    settle(d)
    check(text(d, link + " + .nm") == "1/17", "390x844 station screen: 東海道新幹線 1/17")
    no_overlap(d, "390x844 station screen (路線 open)")
    n = loads(d)
    d.find_element(By.CSS_SELECTOR, link).click()
    wait_panel(d, n + 1)
    check(js(d, "return document.getElementById('station').hidden") and len(station_rows(d)) == 17,
          "390x844: the link closes the station sheet and shows the line's 17 stations")
    time.sleep(0.4)
    line_on_map(d, 17, "390x844")
    no_overlap(d, "390x844 路線 line")
    shot(d, "lines-tokaido-390.png")
    d.find_element(By.CSS_SELECTOR, '#lines-stations li[data-key="jr-central/s/品川"]').click()
    settle(d)
    check(text(d, "#st-name") == "品川" and js(d, "return getComputedStyle(document.getElementById('lines')).display") == "none",
          "390x844: a row opens the station sheet in the panel's place")
    no_overlap(d, "390x844 station sheet over the line")
    d.find_element(By.ID, "lines-open").click()
    time.sleep(0.2)
    check(js(d, "return document.getElementById('station').hidden && getComputedStyle(document.getElementById('lines')).display !== 'none'")
          and len(station_rows(d)) == 17, "390x844: 路線 with the station sheet open: the sheet gives way to the line as it was")
    d.find_element(By.ID, "lines-open").click()
    time.sleep(0.2)
    check(js(d, "return document.getElementById('lines').hidden && document.querySelectorAll('path.line-stroke').length === 0"),
          "390x844: 路線 again closes the panel and its line")

    # --- English ---------------------------------------------------------------------------------
    e = chrome(args.chromium, args.chromedriver, "en")
    drivers.append(e)
    viewport(e, DESKTOP)
    load(e, server.base + "/" + TOKYO)
    e.find_element(By.ID, "lines-open").click()
    wait_panel(e, 1)
    words = [text(e, "#lines-open"), text(e, "#lines-title"),
             text(e, '#lines-tree details[data-type="大手私鉄"] > summary .name')]
    check(words == ["Lines", "Lines", "Major private railways"], f"English: {words}")
    seen = js(e, TEXTS_JS)
    e.find_element(By.CSS_SELECTOR, f'#lines-tree details[data-operator="{OPERATOR}"] > summary').click()
    n = loads(e)
    e.find_element(By.CSS_SELECTOR, row).click()
    wait_panel(e, n + 1)
    e.find_element(By.CSS_SELECTOR, '#lines-stations li[data-key="jr-central/s/東京"]').click()
    settle(e)
    check(text(e, link + " + .nm") == "1/17" and text(e, "#lines-count") == "1/17", "English: 東海道新幹線 1/17 in the panel and the station screen")
    seen += js(e, TEXTS_JS)
    language(seen, "en")
    shot(e, "lines-tokaido-en-1280.png")
    print(f"lines panel checks took {time.time() - start:.1f} s", flush=True)
    print("all checks passed", flush=True)
finally:
    for drv in drivers:
        drv.quit()
    server.stop()
