#!/usr/bin/env python3
"""Writes a synthetic OSM XML 0.6 extract for the OSM importer benchmark.

Shaped like a regional extract written by osmium or the API: double-quoted attributes with
version/timestamp/changeset/uid/user metadata, nodes sorted before ways before relations.

- nodes: about 1 % are stations (railway=station + public_transport=station + train=yes, with
  name, name:ja-Hira, name:en, operator), about 8 % carry other tags (crossings, shops, bus
  stops, platforms), the rest are untagged way nodes;
- ways: one per ~8 nodes, 2-20 consecutive nodes each, roads/buildings/rail tags; one in ~500
  is a station area (railway=station), so its centroid needs a second look at earlier nodes;
- relations: train routes whose stop members are stations, a stop_area per tenth station,
  route_masters and multipolygons.

Deterministic for a given size and seed. Usage:
    gen-osm-extract.py --megabytes 220 --output bench-data/synthetic-220mb.osm
"""
import argparse
import os
import random

OPERATORS = ["東日本旅客鉄道", "東海旅客鉄道", "西日本旅客鉄道", "小田急電鉄", "東京地下鉄", "京王電鉄",
             "東急電鉄", "西武鉄道", "東武鉄道", "京成電鉄", "横浜市交通局", "大阪市高速電気軌道"]
KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ"
KANJI = "東西南北上下中新本大小山川田谷沢原野木林森橋池浜島崎宮前後町村駅台丘坂"
ROMA = ["a", "i", "u", "e", "o", "ka", "ki", "ku", "ke", "ko", "sa", "shi", "su", "ta", "to", "na",
        "no", "ha", "hi", "ma", "mi", "ya", "ra", "ri", "wa"]


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def meta(rng, i):
    return (f'version="{1 + i % 7}" timestamp="20{15 + i % 9:02d}-0{1 + i % 9}-1{i % 10}T0{i % 10}:1{i % 6}:2{i % 10}Z" '
            f'changeset="{40000000 + (i * 7919) % 90000000}" uid="{100000 + (i * 104729) % 9000000}" '
            f'user="mapper{(i * 31) % 5000}"')


def tags(pairs):
    return "".join(f'\n    <tag k="{k}" v="{esc(v)}"/>' for k, v in pairs)


def station_tags(rng):
    n = rng.randint(2, 4)
    name = "".join(rng.choice(KANJI) for _ in range(n))
    hira = "".join(rng.choice(KANA) for _ in range(n * 2))
    roma = "".join(rng.choice(ROMA) for _ in range(n * 2)).capitalize()
    ops = rng.sample(OPERATORS, rng.choice([1, 1, 1, 2]))
    return name, [("name", name), ("name:en", roma), ("name:ja", name), ("name:ja-Hira", hira),
                  ("operator", ";".join(ops)), ("public_transport", "station"), ("railway", "station"),
                  ("train", "yes"), ("wikidata", f"Q{rng.randint(1000000, 99999999)}")]


OTHER_NODE_TAGS = [
    [("highway", "crossing"), ("crossing", "marked")],
    [("highway", "traffic_signals")],
    [("amenity", "restaurant"), ("name", "食堂"), ("cuisine", "japanese"), ("opening_hours", "11:00-21:00")],
    [("shop", "convenience"), ("name", "コンビニ"), ("brand", "Brand"), ("operator", "Some Company")],
    [("highway", "bus_stop"), ("public_transport", "platform"), ("bus", "yes"), ("name", "バス停")],
    [("railway", "platform"), ("public_transport", "platform"), ("train", "yes"), ("name", "ホーム")],
    [("public_transport", "stop_position"), ("railway", "stop"), ("train", "yes")],
    [("natural", "tree")],
]
WAY_TAGS = [
    [("highway", "residential")],
    [("highway", "tertiary"), ("name", "県道"), ("ref", "123"), ("surface", "asphalt")],
    [("building", "yes")],
    [("building", "house"), ("addr:housenumber", "1-2-3")],
    [("railway", "rail"), ("gauge", "1067"), ("electrified", "contact_line"), ("usage", "main")],
    [("landuse", "residential")],
    [("waterway", "stream"), ("name", "川")],
]


def generate(path, megabytes, seed):
    rng = random.Random(seed)
    target = megabytes * 1_000_000
    # ~205 bytes per node on average including its share of ways and relations.
    nodes = max(1000, target // 205)
    stations = []  # (id, name)
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as f:
        w = f.write
        w('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="eki gen-osm-extract.py">\n')
        w('  <bounds minlat="34.5" minlon="138.5" maxlat="36.5" maxlon="140.5"/>\n')
        for i in range(1, nodes + 1):
            lat = 34.5 + rng.random() * 2
            lon = 138.5 + rng.random() * 2
            head = f'  <node id="{i}" {meta(rng, i)} lat="{lat:.7f}" lon="{lon:.7f}"'
            r = rng.random()
            if r < 0.01:
                name, t = station_tags(rng)
                stations.append((i, name))
                w(f"{head}>{tags(t)}\n  </node>\n")
            elif r < 0.09:
                w(f"{head}>{tags(rng.choice(OTHER_NODE_TAGS))}\n  </node>\n")
            else:
                w(f"{head}/>\n")
        way_id = 0
        station_ways = 0
        i = 1
        while i < nodes:
            way_id += 1
            n = rng.randint(2, 20)
            refs = list(range(i, min(nodes, i + n) + 1))
            i += max(1, n // 2 + 6)
            body = "".join(f'\n    <nd ref="{r}"/>' for r in refs)
            if way_id % 500 == 0 and len(refs) >= 4:
                station_ways += 1
                name, t = station_tags(rng)
                body += tags(t + [("building", "train_station")])
            else:
                body += tags(rng.choice(WAY_TAGS))
            w(f'  <way id="{way_id}" {meta(rng, way_id)}>{body}\n  </way>\n')
        rel_id = 0
        for s in range(0, len(stations), 10):
            rel_id += 1
            sid, name = stations[s]
            members = f'\n    <member type="node" ref="{sid}" role=""/>'
            members += f'\n    <member type="node" ref="{min(nodes, sid + 1)}" role="platform"/>'
            w(f'  <relation id="{rel_id}" {meta(rng, rel_id)}>{members}'
              f'{tags([("name", name), ("public_transport", "stop_area"), ("type", "public_transport")])}\n  </relation>\n')
        for s in range(0, len(stations), 25):
            rel_id += 1
            stops = stations[s:s + 25]
            members = "".join(f'\n    <member type="node" ref="{sid}" role="stop"/>' for sid, _ in stops)
            members += "".join(f'\n    <member type="way" ref="{rng.randint(1, way_id)}" role=""/>' for _ in range(40))
            hs = rel_id % 20 == 0
            t = [("name", f"{'新幹線' if hs else '線'}{rel_id}"), ("operator", rng.choice(OPERATORS)),
                 ("route", "train"), ("type", "route")] + ([("service", "high_speed")] if hs else [])
            w(f'  <relation id="{rel_id}" {meta(rng, rel_id)}>{members}{tags(t)}\n  </relation>\n')
        for m in range(way_id // 200):
            rel_id += 1
            members = "".join(f'\n    <member type="way" ref="{rng.randint(1, way_id)}" role="outer"/>' for _ in range(3))
            w(f'  <relation id="{rel_id}" {meta(rng, rel_id)}>{members}'
              f'{tags([("landuse", "forest"), ("type", "multipolygon")])}\n  </relation>\n')
        w("</osm>\n")
    size = os.path.getsize(path)
    print(f"wrote {path}: {size / 1e6:.1f} MB, {nodes} nodes ({len(stations)} station nodes, "
          f"{len(stations) / nodes:.2%}), {way_id} ways ({station_ways} station areas), {rel_id} relations")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--megabytes", type=int, default=220, help="approximate size in MB (10^6 bytes)")
    p.add_argument("--output", required=True)
    p.add_argument("--seed", type=int, default=2024)
    a = p.parse_args()
    generate(a.output, a.megabytes, a.seed)


if __name__ == "__main__":
    main()
