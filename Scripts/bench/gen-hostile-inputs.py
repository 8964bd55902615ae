#!/usr/bin/env python3
"""Writes the hostile inputs of the import limits benchmark (bench-limits.sh) into a folder:

- csv-50mb-field.csv        a generic CSV whose second row has a 50 MB station name;
- csv-1gib-line.csv         a generic CSV whose second row is one line of 1 GiB (short fields,
                            no line break);
- gtfs-bomb-1gib-stops.zip  a GTFS zip of about 2 MB whose stops.txt inflates to 1 GiB of
                            repeated rows (deflate, level 9);
- gtfs-1gib-line.zip        a GTFS zip of about 1 MB whose stops.txt holds one 1 GiB line.

Files already present are kept. Usage: gen-hostile-inputs.py DIR
"""
import os
import sys
import zipfile

GIB = 1 << 30
CHUNK = 1 << 20


def write_csv_field(path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("id,name,lat,lon\n1,")
        f.write("a" * (50 * 1000 * 1000))
        f.write(",35.69,139.70\n2,新宿,35.690,139.700\n")


def write_csv_line(path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("id,name,lat,lon\n")
        piece = "1," * (CHUNK // 2)
        for _ in range(GIB // CHUNK):
            f.write(piece)


def small_feed_files(z):
    z.writestr("agency.txt", "agency_id,agency_name,agency_url,agency_timezone\nA,Bench,https://example.org,Asia/Tokyo\n")
    z.writestr("routes.txt", "route_id,agency_id,route_long_name,route_type\nR,A,Line,2\n")
    z.writestr("trips.txt", "route_id,service_id,trip_id\nR,S,T\n")
    z.writestr("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,6:00:00,6:00:00,S1,1\n")


def write_gtfs(path, stops_chunks):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        small_feed_files(z)
        with z.open("stops.txt", "w", force_zip64=True) as f:
            for chunk in stops_chunks():
                f.write(chunk)


def bomb_chunks():
    yield b"stop_id,stop_name,stop_lat,stop_lon\n"
    row = b"S1,Station,35.0,139.0\n"
    chunk = row * (CHUNK // len(row))
    for _ in range(GIB // len(chunk)):
        yield chunk


def line_chunks():
    yield b"stop_id,stop_name,stop_lat,stop_lon\n"
    chunk = b"x" * CHUNK
    for _ in range(GIB // CHUNK):
        yield chunk


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    jobs = [("csv-50mb-field.csv", write_csv_field), ("csv-1gib-line.csv", write_csv_line),
            ("gtfs-bomb-1gib-stops.zip", lambda p: write_gtfs(p, bomb_chunks)),
            ("gtfs-1gib-line.zip", lambda p: write_gtfs(p, line_chunks))]
    for name, job in jobs:
        path = os.path.join(out, name)
        if not os.path.exists(path):
            job(path + ".part")
            os.rename(path + ".part", path)
        print(f"{name}: {os.path.getsize(path)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
