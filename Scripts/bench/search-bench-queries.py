#!/usr/bin/env python3
"""search-bench-queries.py DB N SEED OUT.txt -- sample search queries from a station database.

Picks N random entries of DB (an EkiKit station database with its search index) and takes from
each one piece of its name (1-4 characters), its reading (1-5 kana) or its romaji (2-6 letters,
from the search index), starting at the beginning 60% of the time and anywhere otherwise: what
someone typing into a search bar sends. One query per line. Standard library only.
"""
import random
import sqlite3
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    db, n, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = random.Random(seed)
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    max_fid = con.execute("SELECT max(fid) FROM stations").fetchone()[0]
    queries = []
    while len(queries) < n:
        row = con.execute("""SELECT s.name, s.reading, e.romaji_h FROM stations s JOIN search_entry e ON e.fid = s.fid
                             WHERE s.fid >= ? ORDER BY s.fid LIMIT 1""", (rng.randint(1, max_fid),)).fetchone()
        if row is None:
            continue
        name, reading, romaji = row
        romaji = [r for r in (romaji or "").split("\x01") if r]
        kind = rng.random()
        if kind < 0.45 or (not reading and not romaji):
            text, lo, hi = name, 1, 4
        elif kind < 0.85 and reading:
            text, lo, hi = reading, 1, 5
        elif romaji:
            text, lo, hi = rng.choice(romaji), 2, 6
        else:
            text, lo, hi = reading, 1, 5
        length = min(len(text), rng.randint(lo, hi))
        start = 0 if rng.random() < 0.6 else rng.randint(0, len(text) - length)
        q = text[start:start + length].strip()
        if q:
            queries.append(q)
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(queries) + "\n")
    print("wrote %s: %d queries" % (out, len(queries)))


if __name__ == "__main__":
    main()
