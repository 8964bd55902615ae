#!/usr/bin/env python3
"""The map screen in real headless Chromium (Debian chromium + chromium-driver, Selenium).

Usage: map_flow.py --eki PATH/eki --db STATIONS.gpkg --out DIR --geocoder geocoder_server.py

Starts a loopback fake geocoder and `eki serve --tiles none` on an ephemeral port (1280x800 viewport), then checks on
the real N02-23 + station_database database:
  1. the pins in a viewport around 東京駅 are exactly /api/bbox's features (same URL the page asked);
  2. 「一覧」 at 小田原駅 lists the five 小田原 entries first, in /api/nearest order;
  3. 「今日乗下車しました」 on jr-east/c/東京 turns that pin green at once, without a reload;
  4. the three filters (全駅 / 乗下車済駅のみ / 未乗下車駅のみ) show the pins and colours the API gives;
  5. 駅名 前方一致 「小田原」 leaves only 小田原 pins, those of /api/search;
  6. 地点 「小田原城」 (fake geocoder) moves the centre there and changes no station data;
  7. 人吉 (肥薩線 八代–吉松, suspended since the July 2020 flood): its pin is grey and its station
     screen says 休止中 with the date and that 降りつぶし's rules do not count it;
  8. after a server restart the recorded pin is still green.
Screenshots go to DIR (map.png is the one the README shows). Prints one line per check; exits 1
on the first failure.
"""
import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import arguments, DESKTOP, Server, check, chrome, settle as settle_in, viewport
from selenium.webdriver.common.by import By

args = arguments()
visits = os.path.join(args.out, "visits.sqlite")


geocoder = subprocess.Popen([sys.executable, args.geocoder], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
gport = int(geocoder.stdout.readline())


def start_server():
    web = ["--web", args.web] if args.web else []
    s = Server(args.eki, args.db, visits, args.out, ["--tiles", "none", "--aerial-tiles", "none"] + web, gport)
    return s, s.base + "/"


def stop_server(s):
    check(s.stop() == 0, "eki serve stopped cleanly on SIGTERM")


def api(path):
    with urllib.request.urlopen(base.rstrip("/") + path) as r:
        return json.load(r)


server, base = start_server()
driver = chrome(args.chromium, args.chromedriver, "ja")
viewport(driver, DESKTOP)


def settle(timeout=15):
    settle_in(driver, timeout)


def js(script, *a):
    return driver.execute_script(script, *a)


def pins():
    return js("return window.eki.pins()")


def shot(name):
    driver.save_screenshot(os.path.join(args.out, name))


def click_segment(group, value):
    if group in ("scope", "match"):  # the scope rows show while the search field is in use
        driver.find_element(By.ID, "q").click()
    driver.find_element(By.CSS_SELECTOR, f'#{group} button[data-value="{value}"]').click()
    time.sleep(0.2)
    settle()


try:
    # 1. 東京駅: the pins are /api/bbox's features for the URL the page asked.
    driver.get(base + "#16/35.68124/139.76712")
    settle()
    url = js("return window.eki.state.lastURL")
    fc = api(url)
    keys = [p["key"] for p in pins()]
    check(keys == [f["properties"]["key"] for f in fc["features"]] and len(keys) > 10,
          f"東京駅 view: {len(keys)} pins = {url} ({fc['total']} in view)")
    dom = driver.find_elements(By.CSS_SELECTOR, "path.pin")
    stacked = [k for e in driver.find_elements(By.CSS_SELECTOR, ".stack") for k in e.get_attribute("data-keys").split()]
    check(len(dom) + len(stacked) == len(keys) and sorted([e.get_attribute("data-key") for e in dom] + stacked) == sorted(keys)
          and all(e.get_attribute("class").count("pin-unvisited") for e in dom),
          f"{len(dom)} red pins and {len(stacked)} entries in stacks drawn, none visited yet")
    check("jr-east/c/東京" in keys and "jr-central/s/東京" in keys, "東京's entries are among them")
    shot("tokyo.png")

    # 2. 一覧 at 小田原駅: the five 小田原 entries first, in /api/nearest order from the centre.
    odawara = api("/api/search?" + urllib.parse.urlencode({"q": "小田原", "by": "name", "limit": 20}))
    five = [f for f in odawara["features"] if f["properties"]["name"] == "小田原"]
    check(len(five) == 5, "five 小田原 entries in the database")
    lat = sum(f["geometry"]["coordinates"][1] for f in five) / 5
    lon = sum(f["geometry"]["coordinates"][0] for f in five) / 5
    driver.get(base + f"#17/{lat:.5f}/{lon:.5f}")
    settle()
    click_segment("mode", "list")
    rows = [e.get_attribute("data-key") for e in driver.find_elements(By.CSS_SELECTOR, "#list-rows li")]
    c = js("const c = window.eki.map.getCenter(); return [c.lat, c.lng]")
    nearest = api("/api/nearest?" + urllib.parse.urlencode({"lat": f"{c[0]:.7f}", "lon": f"{c[1]:.7f}", "k": 5}))
    nk = [f["properties"]["key"] for f in nearest["features"]]
    check(rows[:5] == nk and all(k.endswith("/小田原") for k in nk), f"一覧 at 小田原: first five {rows[:5]}")
    shot("odawara-list.png")
    click_segment("mode", "map")

    # 3. Record a visit from the station screen: the pin turns green at once.
    driver.get(base + "#16/35.68124/139.76712")
    settle()
    loads = js("return window.eki.state.loads")
    click_segment("mode", "list")
    driver.find_element(By.CSS_SELECTOR, '#list-rows li[data-key="jr-east/c/東京"]').click()
    settle()
    check(driver.find_element(By.ID, "st-name").text == "東京", "station screen shows 東京")
    driver.find_element(By.ID, "today").click()
    settle()
    green = [p["key"] for p in pins() if p["visited"]]
    drawn = js("""const k = 'jr-east/c/東京';
        const pin = document.querySelector(`path.pin[data-key="${k}"]`);
        if (pin) return pin.classList.contains('pin-visited');
        const stack = [...document.querySelectorAll('.stack')].find((e) => e.dataset.keys.split(' ').includes(k));
        return !!stack && stack.dataset.visited === '1'""")
    check(green == ["jr-east/c/東京"] and drawn and js("return window.eki.state.loads") == loads,
          "「今日乗下車しました」: jr-east/c/東京 is green, without a reload")
    check(driver.find_element(By.ID, "st-completed").text.startswith("済"), "the station screen says 済")
    shot("tokyo-visited.png")
    driver.find_element(By.ID, "station-close").click()
    click_segment("mode", "map")

    # 4. The three filters: the pins and colours the API gives.
    for value, colour in [("visited", True), ("unvisited", False), ("all", None)]:
        click_segment("filter", value)
        url = js("return window.eki.state.lastURL")
        fc = api(url)
        got = pins()
        want = [(f["properties"]["key"], f["properties"]["visited"]) for f in fc["features"]]
        check([(p["key"], p["visited"]) for p in got] == want and "filter=" + value in url
              and (colour is None or all(p["visited"] == colour for p in got)),
              f"filter {value}: {len(got)} pins = {url.split('&filter')[0][:40]}…, total {fc['total']}")
    # The README's picture: central Tokyo, 一覧 open beside the pins.
    driver.get(base + "#14/35.68124/139.76712")
    settle()
    click_segment("mode", "list")
    shot("map.png")
    click_segment("mode", "map")

    # 5. 駅名 前方一致 「小田原」: only 小田原 pins, those of /api/search.
    click_segment("scope", "name")
    click_segment("match", "prefix")
    q = driver.find_element(By.ID, "q")
    q.clear()
    q.send_keys("小田原\n")
    time.sleep(0.3)
    settle()
    url = js("return window.eki.state.lastURL")
    fc = api(url)
    got = pins()
    check(len(got) >= 5 and all(p["name"].startswith("小田原") for p in got)
          and [p["key"] for p in got] == [f["properties"]["key"] for f in fc["features"]],
          f"駅名 前方一致 小田原: {len(got)} pins, all 小田原…")
    shot("search-odawara.png")
    driver.find_element(By.ID, "clear").click()
    settle()

    # 6. 地点 「小田原城」: the centre moves there; no station data changes.
    before = api("/api/stats")
    click_segment("scope", "place")
    q.clear()
    q.send_keys("小田原城\n")
    time.sleep(0.3)
    settle()
    driver.find_element(By.CSS_SELECTOR, '#list-rows li[data-title="小田原城"]').click()
    time.sleep(0.3)
    settle()
    c = js("const c = window.eki.map.getCenter(); return [c.lat, c.lng]")
    check(abs(c[0] - 35.2509) < 1e-4 and abs(c[1] - 139.1534) < 1e-4, f"地点 小田原城: centre {c[0]:.5f}, {c[1]:.5f}")
    check(api("/api/stats") == before and js("return window.eki.state.search") is None,
          "地点 changed no station data and no search filter")
    shot("place-odawara-castle.png")

    # 7. A suspended station: a grey pin, and its status on the station screen.
    driver.find_element(By.ID, "clear").click()
    click_segment("scope", "name")
    click_segment("mode", "map")
    driver.get("about:blank")
    driver.get(base + "#16/32.21614/130.75381")
    settle()
    # (人吉 and くま川鉄道's 人吉温泉 share a place: one stack, its dot grey for the suspended one.)
    grey = js("""const k = 'jr-kyushu/c/人吉';
        const pin = document.querySelector(`path.pin[data-key="${k}"]`);
        if (pin) return [pin.classList.contains('pin-suspended'), pin.getAttribute('fill')];
        const stack = [...document.querySelectorAll('.stack')].find((e) => e.dataset.keys.split(' ').includes(k));
        if (!stack) return null;
        return [stack.dataset.suspended === '1', stack.querySelector('.stack-dot').style.background.includes('rgb(154, 160, 166)')]""")
    shot("hitoyoshi-map.png")
    check(grey in ([True, "#9aa0a6"], [True, True]), f"人吉's pin is grey (suspended): {grey}")
    click_segment("mode", "list")
    driver.find_element(By.CSS_SELECTOR, '#list-rows li[data-key="jr-kyushu/c/人吉"]').click()
    settle()
    status = driver.find_element(By.ID, "st-status")
    check(status.is_displayed() and status.text == "休止中（2020-07-04から）、数えない（降りつぶしのルール）",
          f"the station screen gives 人吉's status: {status.text!r}")
    shot("hitoyoshi-suspended.png")
    driver.find_element(By.ID, "station-close").click()
    click_segment("mode", "map")

    # 8. Restart: the visit is still there.
    stop_server(server)
    server, base = start_server()
    driver.get(base + "#16/35.68124/139.76712")
    settle()
    check([p["key"] for p in pins() if p["visited"]] == ["jr-east/c/東京"], "after a restart jr-east/c/東京 is still green")
    print("all checks passed", flush=True)
finally:
    driver.quit()
    server.stop()
    geocoder.stdin.close()
    geocoder.wait(timeout=10)
