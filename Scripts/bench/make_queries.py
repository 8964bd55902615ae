#!/usr/bin/env python3
"""make_queries.py POINTS.csv QUERIES SEED K OUTDIR -- the peers' query set, for eki-bench.

Writes, little-endian, with the peer benchmark's own generators (peercommon.py, imported from
PEERS_DIR) so that both sides answer exactly the same queries:
  queries.bin   int32 nq, int32 nw; nq x (lat, lon, minlon, minlat, maxlon, maxlat) float64,
                then nw x the same for the warm-up set (seed + 1000003, as bench_peers.py)
  bbox_ref.bin  per query: int32 count, count x int32 ids (sorted) -- Rtree/libspatialindex,
                the peers' bbox reference (double coordinates)
  knn_ref.bin   nq x K int32 -- scipy cKDTree on unit vectors (the peers' fastest exact kNN,
                great-circle order)
"""
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.environ.get("PEERS_DIR", "."))
import peercommon as pc  # noqa: E402

WARMUP = 200


def main():
    points, nq, seed, k, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    os.makedirs(out, exist_ok=True)
    pts = pc.read_points_csv(points)
    lat = np.asarray(pts["lat"]); lon = np.asarray(pts["lon"]); ids = np.asarray(pts["id"], dtype=np.int64)
    qlat, qlon = pc.gen_query_centres(nq, seed)
    wlat, wlon = pc.gen_query_centres(WARMUP, seed + 1_000_003)
    with open(os.path.join(out, "queries.bin"), "wb") as f:
        f.write(struct.pack("<ii", nq, WARMUP))
        for la, lo in list(zip(qlat.tolist(), qlon.tolist())) + list(zip(wlat.tolist(), wlon.tolist())):
            f.write(struct.pack("<6d", la, lo, *pc.viewport(la, lo)))
    from rtree import index
    p = index.Property(); p.dimension = 2
    idx = index.Index(((int(i), (lo_, la_, lo_, la_), None) for i, la_, lo_ in zip(ids, lat, lon)), properties=p)
    with open(os.path.join(out, "bbox_ref.bin"), "wb") as f:
        for la, lo in zip(qlat.tolist(), qlon.tolist()):
            r = sorted(idx.intersection(pc.viewport(la, lo)))
            f.write(struct.pack("<i", len(r)))
            f.write(np.asarray(r, dtype="<i4").tobytes())
    from scipy.spatial import cKDTree
    def xyz(la, lo):
        la = np.radians(la); lo = np.radians(lo); c = np.cos(la)
        return np.column_stack((c * np.cos(lo), c * np.sin(lo), np.sin(la)))
    tree = cKDTree(xyz(lat, lon))
    _, nn = tree.query(xyz(np.asarray(qlat), np.asarray(qlon)), k)
    with open(os.path.join(out, "knn_ref.bin"), "wb") as f:
        f.write(ids[np.atleast_2d(nn)].astype("<i4").tobytes())
    print("wrote %s: %d queries, %d warm-up, k=%d" % (out, nq, WARMUP, k))


if __name__ == "__main__":
    main()
