#!/usr/bin/env python3
"""A visit's photo on the station screen, in real headless Chromium (Debian chromium +
chromium-driver, Selenium).

Usage: photo_card.py --eki PATH/eki --db STATIONS.gpkg --out DIR

Records two visits of jr-east/c/東京 with `eki visit add` (one with a memo, one without), starts
`eki serve --tiles none` (1280x800), opens 東京 from 一覧 and checks:
  1. each visit is a card: the memo first, white, up to 3 lines; 「メモを追加」 on the one without;
  2. 「写真を追加」 with a PNG made here (Python's zlib) uploads it: the card's background is the
     photo's thumbnail (/api/photos/{id}/thumb, 200 image/jpeg) under a dark gradient, the memo
     above the date line, and the stored photo is 1,600 px wide, ≤ 1 MiB (`eki visit photo list`);
  3. 「写真を削除」 removes it: the card has no photo and the server none.
Screenshots go to DIR (photo-card.png). Prints one line per check; exits 1 on the first failure.
"""
import json
import os
import struct
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import arguments, DESKTOP, Server, check, chrome, settle, viewport, wait_for
from selenium.webdriver.common.by import By

args = arguments()
visits = os.path.join(args.out, "visits.sqlite")
MEMO = "東海道線の始発に乗った。丸の内駅舎のドームを見上げてから 9番線へ。"


def eki(*a):
    r = subprocess.run([args.eki, *a, "--db", args.db, "--visits", visits], capture_output=True, text=True)
    check(r.returncode == 0, f"eki {' '.join(a)}: {(r.stdout or r.stderr).strip()}")
    return r.stdout


def png(width, height):
    """An RGB gradient PNG (8-bit, no filter), as bytes."""
    rows = b"".join(b"\x00" + bytes(v for x in range(width) for v in (x * 255 // width, y * 255 // height, 160))
                    for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


eki("visit", "add", "jr-east/c/東京", "--date", "2019-08-13", "--kind", "board", "--note", MEMO)
eki("visit", "add", "jr-east/c/東京", "--date", "2020-01-02")
photo = os.path.join(args.out, "marunouchi.png")
with open(photo, "wb") as f:
    f.write(png(2000, 1500))

server = Server(args.eki, args.db, visits, args.out, ["--tiles", "none", "--aerial-tiles", "none"])
driver = chrome(args.chromium, args.chromedriver, "ja")
viewport(driver, DESKTOP)
js = driver.execute_script

CARDS_JS = r"""
return [...document.querySelectorAll('#st-visits .visit-card')].map((li) => {
  const memo = li.querySelector('.visit-memo'), meta = li.querySelector('.visit-meta'), add = li.querySelector('.add-memo');
  const cs = memo && getComputedStyle(memo);
  return {
    memo: memo ? memo.textContent : null, addMemo: add ? add.textContent : null, meta: meta.textContent,
    memoColor: cs ? cs.color : null, clamp: cs ? cs.webkitLineClamp : null,
    memoAbove: memo ? memo.getBoundingClientRect().bottom <= meta.getBoundingClientRect().top : null,
    background: getComputedStyle(li).backgroundImage, photo: li.classList.contains('has-photo'),
  };
});
"""

try:
    driver.get(server.base + "/#16/35.68124/139.76712")
    settle(driver)
    driver.find_element(By.CSS_SELECTOR, '#mode button[data-value="list"]').click()
    settle(driver)
    driver.find_element(By.CSS_SELECTOR, '#list-rows li[data-key="jr-east/c/東京"]').click()
    settle(driver)
    check(driver.find_element(By.ID, "st-name").text == "東京", "station screen shows 東京")
    cards = wait_for(driver, "const c = (() => {" + CARDS_JS + "})(); return c.length === 2 && c;", 10) or js(CARDS_JS)
    check(len(cards) == 2, f"two visit cards: {[c['meta'] for c in cards]}")
    first, second = cards
    check(first["memo"] == MEMO and first["memoColor"] == "rgb(255, 255, 255)" and first["clamp"] == "3",
          f"the memo first, white, at most 3 lines: {first['memo']!r} {first['memoColor']} clamp {first['clamp']}")
    check(first["memoAbove"] and first["meta"].startswith("2019-08-13"), f"the memo above the date line {first['meta']!r}")
    check(second["memo"] is None and second["addMemo"] == "メモを追加", "「メモを追加」 on the visit without a memo")
    check(not first["photo"], "no photo yet: the plain dark card")

    # 2. Add the photo from the visit's detail.
    driver.find_elements(By.CSS_SELECTOR, "#st-visits .visit-card")[0].click()
    settle(driver)
    full = driver.find_element(By.CSS_SELECTOR, "#st-visits .visit-detail .visit-memo-full").text
    check(full == MEMO, "the detail shows the whole memo")
    driver.find_element(By.CSS_SELECTOR, "#st-visits .visit-detail .photo-input").send_keys(photo)
    time.sleep(0.3)
    settle(driver, 30)
    cards = wait_for(driver, "const c = (() => {" + CARDS_JS + "})(); return c[0] && c[0].photo && c;", 20) or js(CARDS_JS)
    first = cards[0]
    listed = json.loads(eki("visit", "photo", "list", "1", "--format", "json"))
    check(len(listed) == 1 and listed[0]["width"] == 1600 and listed[0]["height"] == 1200 and listed[0]["bytes"] <= 1 << 20,
          f"the stored photo: {listed}")
    pid = listed[0]["id"]
    check(first["photo"] and f"/api/photos/{pid}/thumb" in first["background"] and "linear-gradient" in first["background"],
          f"the card's background is the photo under a dark gradient: {first['background'][:120]}…")
    check(first["memo"] == MEMO and first["memoAbove"] and first["memoColor"] == "rgb(255, 255, 255)",
          "the memo stays first and white, above the date line, over the photo")
    thumb = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        fetch(arguments[0]).then((r) => r.blob().then((b) => done([r.status, r.headers.get('content-type'), b.size])))""", f"/api/photos/{pid}/thumb")
    check(thumb[0] == 200 and thumb[1] == "image/jpeg" and thumb[2] > 0, f"the thumbnail loads: {thumb}")
    driver.save_screenshot(os.path.join(args.out, "photo-card.png"))

    # 3. Remove it.
    driver.find_elements(By.CSS_SELECTOR, "#st-visits .visit-card")[0].click()
    settle(driver)
    driver.find_element(By.CSS_SELECTOR, "#st-visits .visit-detail .remove-photo").click()
    time.sleep(0.3)
    settle(driver)
    cards = js(CARDS_JS)
    check(not cards[0]["photo"] and cards[0]["memo"] == MEMO, "「写真を削除」: the card has no photo, the memo stays")
    check(json.loads(eki("visit", "photo", "list", "1", "--format", "json")) == [], "and the server has none")
    print("all checks passed")
finally:
    driver.quit()
    server.stop()
