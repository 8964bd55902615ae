#!/usr/bin/env python3
"""Compiles the curated line facts: reads Datasets/line-common-names.csv, checks it, and writes
Sources/EkiKit/Lines/LineCommonNames+Data.swift (the rows as Swift literals).

Checks (the script stops with file:line and a message on the first failure):
- the header is exactly `name,operator_id,class,line,from,to,source`;
- every field is present; class is `conventional` or `shinkansen`; operator_id is an id of
  Datasets/operators.csv;
- source cites where the fact comes from (not empty).

Usage:
    python3 Scripts/gen-line-tables.py            # rewrite the Swift file
    python3 Scripts/gen-line-tables.py --check    # exit 1 when the Swift file is out of date
"""
import argparse
import csv
import hashlib
import io
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSV_PATH = "Datasets/line-common-names.csv"
OPERATORS = "Datasets/operators.csv"
SWIFT_PATH = "Sources/EkiKit/Lines/LineCommonNames+Data.swift"
HEADER = ["name", "operator_id", "class", "line", "from", "to", "source"]


def swift_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(raw):
    text = raw.decode("utf-8")
    with open(os.path.join(ROOT, OPERATORS), encoding="utf-8") as f:
        ids = {row["id"] for row in csv.DictReader(f)}
    rows = list(csv.reader(io.StringIO(text)))
    if rows[0] != HEADER:
        sys.exit(f"{CSV_PATH}:1: the header must be {','.join(HEADER)}")
    out = []
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != len(HEADER):
            sys.exit(f"{CSV_PATH}:{n}: {len(row)} fields, expected {len(HEADER)}")
        r = dict(zip(HEADER, row))
        for k in HEADER:
            if not r[k].strip():
                sys.exit(f"{CSV_PATH}:{n}: {k}: missing")
        if r["class"] not in ("conventional", "shinkansen"):
            sys.exit(f"{CSV_PATH}:{n}: class: '{r['class']}' is not conventional or shinkansen")
        if r["operator_id"] not in ids:
            sys.exit(f"{CSV_PATH}:{n}: operator_id: '{r['operator_id']}' is not an id of {OPERATORS}")
        out.append(r)
    lines = [
        "// GENERATED FILE — do not edit by hand.",
        f"// Made by Scripts/gen-line-tables.py from {CSV_PATH}; to change the table, edit the CSV and run",
        "//     python3 Scripts/gen-line-tables.py",
        "// (`--check` tells whether this file is up to date).",
        "",
        "extension LineCommonNames {",
        f"    /// SHA-256 of the bytes of `{CSV_PATH}` this file was generated from.",
        f"    static let builtInSourceSHA256 = \"{hashlib.sha256(raw).hexdigest()}\"",
        "",
        f"    /// The rows of `{CSV_PATH}`, in file order.",
        "    static let builtIn: [LineCommonName] = [",
    ]
    for r in out:
        lines.append(
            f"        LineCommonName(name: {swift_string(r['name'])}, operatorID: {swift_string(r['operator_id'])}, "
            f"serviceClass: .{r['class']}, line: {swift_string(r['line'])}, from: {swift_string(r['from'])}, "
            f"to: {swift_string(r['to'])}, source: {swift_string(r['source'])}),")
    lines += ["    ]", "}", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    with open(os.path.join(ROOT, CSV_PATH), "rb") as f:
        swift = generate(f.read())
    path = os.path.join(ROOT, SWIFT_PATH)
    if a.check:
        with open(path, encoding="utf-8") as f:
            if f.read() != swift:
                sys.exit(f"{SWIFT_PATH} is out of date: run python3 Scripts/gen-line-tables.py")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(swift)


if __name__ == "__main__":
    main()
