#!/usr/bin/env python3
"""One flipped bit in an R-tree node, many times over (a measurement, not a test).

Each trial copies DB, flips one random bit inside the cells of one random node of
rtree_stations_geom (its cell count included), and runs `eki bbox` over the node's area and
`eki nearest -k 3` at one of its cells, on the copy and on DB. Each command is counted as
"same" (the copy answers as DB does), "plain error" (exit non-zero naming the damage),
"other error", or "DIFFERENT ANSWER exit 0" (printed with the bit, for a person to look at).

    Scripts/bench/rtree-damage.py EKI DB [TRIALS [SEED]]
    Scripts/bench/rtree-damage.py .build/debug/eki n02.gpkg 300 2
"""
import random
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile

eki, src = sys.argv[1], sys.argv[2]
trials = int(sys.argv[3]) if len(sys.argv) > 3 else 100
random.seed(int(sys.argv[4]) if len(sys.argv) > 4 else 1)

nodes = sqlite3.connect(src).execute("SELECT nodeno, data FROM rtree_stations_geom_node").fetchall()
raw = open(src, "rb").read()
copy = tempfile.mkdtemp(prefix="rtree-damage.") + "/copy.gpkg"


def run(db, box, point):
    a = subprocess.run([eki, "bbox", "--db", db, box, "--format", "csv"], capture_output=True, text=True)
    b = subprocess.run([eki, "nearest", "--db", db, "--lat", point[1], "--lon", point[0], "-k", "3",
                        "--format", "csv"], capture_output=True, text=True)
    return [(a.returncode, a.stdout, a.stderr), (b.returncode, b.stdout, b.stderr)]


counts = {}
for _ in range(trials):
    nodeno, blob = random.choice(nodes)
    n = struct.unpack(">H", blob[2:4])[0]
    cells = [struct.unpack(">qffff", blob[4 + i * 24:28 + i * 24]) for i in range(n)]
    box = "%f,%f,%f,%f" % (min(c[1] for c in cells), min(c[3] for c in cells),
                           max(c[2] for c in cells), max(c[4] for c in cells))
    k = random.randrange(n)
    point = ("%f" % ((cells[k][1] + cells[k][2]) / 2), "%f" % ((cells[k][3] + cells[k][4]) / 2))
    before = run(src, box, point)
    at = raw.find(blob)
    offset, bit = random.randrange(2, 4 + n * 24), 1 << random.randrange(8)
    data = bytearray(raw)
    data[at + offset] ^= bit
    open(copy, "wb").write(data)
    for was, now in zip(before, run(copy, box, point)):
        if now == was:
            kind = "same"
        elif now[0] != 0 and "is damaged" in now[2]:
            kind = "plain error"
        elif now[0] != 0:
            kind = "other error"
        else:
            kind = "DIFFERENT ANSWER exit 0"
            print("node %d (%d cells), byte %d of its blob, bit %d" % (nodeno, n, offset, bit))
        counts[kind] = counts.get(kind, 0) + 1
shutil.rmtree(copy.rsplit("/", 1)[0])
for kind, n in sorted(counts.items()):
    print(n, kind)
