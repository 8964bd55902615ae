#!/usr/bin/env python3
"""Compiles the variant kanji table: reads Datasets/kanji-variants.csv, checks it, and writes
Sources/EkiKit/Fold/KanjiVariants+Data.swift (the pairs as Swift literals).

Checks (the script stops with file:line and a message on the first failure):
- the header is exactly `variant,standard,source`;
- variant and standard are one CJK ideograph each, and differ;
- a variant appears once, and no standard form is itself a variant (no chains: one lookup
  folds a name);
- NFKC leaves both characters as they are (the fold applies NFKC first, so a pair that NFKC
  already joins does not belong here);
- source cites where the pair comes from (not empty).

Usage:
    python3 Scripts/gen-kanji-variants.py            # rewrite the Swift file
    python3 Scripts/gen-kanji-variants.py --check    # exit 1 when the Swift file is out of date
"""
import argparse
import csv
import os
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSV_PATH = "Datasets/kanji-variants.csv"
SWIFT_PATH = "Sources/EkiKit/Fold/KanjiVariants+Data.swift"
HEADER = ["variant", "standard", "source"]


class TableError(Exception):
    pass


def is_ideograph(ch):
    c = ord(ch)
    return (0x3400 <= c <= 0x4DBF or 0x4E00 <= c <= 0x9FFF or 0xF900 <= c <= 0xFAFF
            or 0x20000 <= c <= 0x3FFFF)


def read_rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    if text.startswith("\ufeff"):
        raise TableError(f"{CSV_PATH}:1: starts with a byte-order mark; write plain UTF-8")
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if header != HEADER:
        raise TableError(f"{CSV_PATH}:1: header must be {','.join(HEADER)}, found {header}")
    rows = []
    for n, row in enumerate(reader, start=2):
        if len(row) != len(HEADER):
            raise TableError(f"{CSV_PATH}:{n}: expected {len(HEADER)} fields, found {len(row)}")
        rows.append((n, dict(zip(HEADER, row))))
    return rows


def check(rows):
    variants = {}
    for n, r in rows:
        v, s = r["variant"], r["standard"]
        for field in ("variant", "standard"):
            ch = r[field]
            if len(ch) != 1 or not is_ideograph(ch):
                raise TableError(f"{CSV_PATH}:{n}: {field} must be one CJK ideograph, found {ch!r}")
            if unicodedata.normalize("NFKC", ch) != ch:
                raise TableError(f"{CSV_PATH}:{n}: {field} {ch} is changed by NFKC; the fold already handles it")
        if v == s:
            raise TableError(f"{CSV_PATH}:{n}: variant and standard are the same character {v}")
        if v in variants:
            raise TableError(f"{CSV_PATH}:{n}: variant {v} already listed on line {variants[v]}")
        variants[v] = n
        if not r["source"].strip():
            raise TableError(f"{CSV_PATH}:{n}: source is empty; cite where the pair comes from")
    for n, r in rows:
        if r["standard"] in variants:
            raise TableError(f"{CSV_PATH}:{n}: standard {r['standard']} is itself a variant (line {variants[r['standard']]})")


def swift_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(rows):
    out = [
        "// GENERATED FILE — do not edit by hand.",
        f"// Made by Scripts/gen-kanji-variants.py from {CSV_PATH}; to change the table, edit the CSV and run",
        "//     python3 Scripts/gen-kanji-variants.py",
        "// (`--check` tells whether this file is up to date). TextFoldTests fails when they drift.",
        "",
        "extension KanjiVariants {",
        "    /// The rows of `Datasets/kanji-variants.csv`: (variant, standard form, source).",
        "    static let rows: [(variant: Unicode.Scalar, standard: Unicode.Scalar, source: String)] = [",
    ]
    for _, r in rows:
        v, s = r["variant"], r["standard"]
        out.append(f'        ("\\u{{{ord(v):X}}}", "\\u{{{ord(s):X}}}", {swift_string(r["source"])}),   // {v} → {s}')
    out += ["    ]", "}", ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 when the Swift file is out of date")
    args = ap.parse_args()
    try:
        rows = read_rows(os.path.join(ROOT, CSV_PATH))
        check(rows)
    except TableError as e:
        print(e, file=sys.stderr)
        return 1
    text = render(rows)
    path = os.path.join(ROOT, SWIFT_PATH)
    if args.check:
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        if current != text:
            print(f"{SWIFT_PATH} is out of date: run python3 Scripts/gen-kanji-variants.py", file=sys.stderr)
            return 1
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
