#!/usr/bin/env python3
"""gen-search-stations.py N SEED OUT.csv -- deterministic synthetic stations for the search benchmark.

Writes a generic CSV (id,name,reading,lat,lon,operator,line,class) that `eki import --profile
generic` reads. Names are built like Japanese place names from a fixed vocabulary with readings
(an optional direction prefix, one or two place words, an optional suffix such as 駅前, 口,
ヶ丘), so that prefix and partial queries hit realistic numbers of entries: common pieces (新,
山, 駅前) match many, rare combinations few. 30 operators with 20 lines each; 3% of rows are
Shinkansen. Points: 70% Gaussian around 40 city centres (sigma 0.02-0.25 deg), 30% uniform over
lon 129-146, lat 31-45. Python standard library only; the same N and SEED give the same file.
"""
import os
import random
import sys

PREFIXES = [("新", "しん"), ("東", "ひがし"), ("西", "にし"), ("南", "みなみ"), ("北", "きた"), ("上", "かみ"),
            ("下", "しも"), ("中", "なか"), ("大", "おお"), ("小", "こ"), ("本", "ほん"), ("奥", "おく")]
WORDS = [("横浜", "よこはま"), ("小田", "おだ"), ("高田", "たかだ"), ("長野", "ながの"), ("松本", "まつもと"), ("山田", "やまだ"),
         ("中野", "なかの"), ("吉田", "よしだ"), ("石川", "いしかわ"), ("富士", "ふじ"), ("桜木", "さくらぎ"), ("青葉", "あおば"),
         ("若松", "わかまつ"), ("千代", "ちよ"), ("春日", "かすが"), ("大宮", "おおみや"), ("日野", "ひの"), ("金沢", "かなざわ"),
         ("藤沢", "ふじさわ"), ("船橋", "ふなばし"), ("市川", "いちかわ"), ("岡山", "おかやま"), ("広島", "ひろしま"), ("福田", "ふくだ"),
         ("西原", "にしはら"), ("東山", "ひがしやま"), ("緑", "みどり"), ("梅田", "うめだ"), ("天王", "てんのう"), ("住吉", "すみよし"),
         ("栄", "さかえ"), ("元町", "もとまち"), ("宮前", "みやまえ"), ("桜井", "さくらい"), ("柳川", "やながわ"), ("浅野", "あさの"),
         ("三田", "みた"), ("清水", "しみず"), ("白石", "しろいし"), ("鶴見", "つるみ"), ("亀山", "かめやま"), ("竹田", "たけだ"),
         ("芦田", "あしだ"), ("川口", "かわぐち"), ("森", "もり"), ("原", "はら"), ("関", "せき"), ("霞", "かすみ"),
         ("四谷", "よつや"), ("島田", "しまだ"), ("浜松", "はままつ"), ("秋津", "あきつ"), ("八幡", "やはた"), ("稲荷", "いなり"),
         ("平野", "ひらの"), ("田原", "たはら"), ("赤坂", "あかさか"), ("今池", "いまいけ"), ("瀬戸", "せと"), ("鳥居", "とりい"),
         ("鹿島", "かしま"), ("熊野", "くまの"), ("白浜", "しらはま"), ("大津", "おおつ"), ("寒川", "さむかわ"), ("舞子", "まいこ")]
SUFFIXES = [("駅前", "えきまえ"), ("口", "ぐち"), ("台", "だい"), ("町", "まち"), ("公園", "こうえん"), ("中央", "ちゅうおう"),
            ("東口", "ひがしぐち"), ("温泉", "おんせん"), ("港", "みなと"), ("学園前", "がくえんまえ"), ("市役所前", "しやくしょまえ"),
            ("ヶ丘", "がおか"), ("センター", "せんたー"), ("ニュータウン", "にゅーたうん")]
CITIES = [(43.06, 141.35), (38.26, 140.87), (35.68, 139.77), (35.44, 139.64), (35.17, 136.91), (34.70, 135.50),
          (34.69, 135.20), (35.01, 135.77), (34.39, 132.46), (33.59, 130.40), (32.80, 130.71), (31.60, 130.56),
          (36.56, 136.66), (36.70, 137.21), (37.90, 139.02), (36.39, 139.06), (35.86, 139.65), (35.61, 140.12),
          (34.97, 138.38), (34.71, 137.73), (35.39, 136.72), (34.66, 133.92), (34.34, 134.05), (33.84, 132.77),
          (33.56, 133.53), (34.07, 134.55), (35.47, 133.05), (35.50, 134.24), (34.23, 135.17), (34.69, 135.83),
          (35.00, 135.87), (34.73, 136.51), (36.65, 138.19), (35.66, 138.57), (36.37, 140.47), (36.56, 139.88),
          (37.75, 140.47), (39.72, 140.10), (40.82, 140.74), (39.70, 141.15)]
PLACES = ["北陸", "東海", "山陽", "房総", "湘南", "信濃", "甲斐", "伊豆", "紀州", "阿波", "日向", "出雲", "越後", "陸奥", "筑紫"]


def operators():
    out = []
    for i in range(30):
        base = PLACES[i % len(PLACES)]
        kind = ["鉄道", "電鉄", "交通", "急行", "高速鉄道"][i % 5]
        name = ("JR" + base) if i < 3 else base + kind + ("" if i < 15 else str(i))
        brand = "JR" if i < 3 else base
        lines = [brand + WORDS[(i * 7 + j * 3) % len(WORDS)][0] + "線" for j in range(20)]
        out.append((name, lines, base + "新幹線"))
    return out


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    ops = operators()
    sigmas = [rng.uniform(0.02, 0.25) for _ in CITIES]
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write("id,name,reading,lat,lon,operator,line,class\n")
        buf = []
        for i in range(n):
            parts = []
            if rng.random() < 0.25:
                parts.append(rng.choice(PREFIXES))
            parts.append(rng.choice(WORDS))
            if rng.random() < 0.35:
                parts.append(rng.choice(WORDS))
            if rng.random() < 0.3:
                parts.append(rng.choice(SUFFIXES))
            name = "".join(p[0] for p in parts)
            reading = "".join(p[1] for p in parts)
            if rng.random() < 0.7:
                c = rng.randrange(len(CITIES))
                lat = min(45.5, max(24.0, rng.gauss(CITIES[c][0], sigmas[c])))
                lon = min(146.0, max(122.9, rng.gauss(CITIES[c][1], sigmas[c])))
            else:
                lat, lon = rng.uniform(31, 45), rng.uniform(129, 146)
            op, lines, shinkansen = ops[rng.randrange(len(ops))]
            if rng.random() < 0.03:
                line, cls = shinkansen, "shinkansen"
            else:
                line, cls = rng.choice(lines), "conventional"
            buf.append("%d,%s,%s,%.7f,%.7f,%s,%s,%s\n" % (i + 1, name, reading, lat, lon, op, line, cls))
            if len(buf) >= 100000:
                f.write("".join(buf))
                buf = []
        f.write("".join(buf))
    os.replace(tmp, out)
    print("wrote %s: %d rows, %d bytes" % (out, n, os.path.getsize(out)))


if __name__ == "__main__":
    main()
