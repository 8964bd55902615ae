#!/usr/bin/env python3
"""Compiles the operator table: reads Datasets/operators.csv, checks it, and writes
Sources/EkiKit/Derive/OperatorTable+Data.swift (the table as Swift literals).

Checks (the script stops with file:line and a message on the first failure):
- the header is exactly `id,name,short_name,kana,english,aliases,successor,corporate_number,note`;
- ids are lower-case ASCII words joined by `-`, and unique;
- name, short_name and kana are present; kana is hiragana (and ー);
- successor names an existing id, and no successor chain loops;
- corporate_number is 13 digits with a valid check digit (法人番号), and unique;
- no match key (the operatorKey fold of an id, name, short name, English part or alias) belongs to
  two operators; within one operator repeats are allowed.

Usage:
    python3 Scripts/gen-operator-table.py              # rewrite the Swift file
    python3 Scripts/gen-operator-table.py --check      # exit 1 when the Swift file is out of date
    python3 Scripts/gen-operator-table.py --output /tmp/x.swift [--csv other.csv]
"""
import argparse
import csv
import hashlib
import io
import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSV_PATH = "Datasets/operators.csv"
SWIFT_PATH = "Sources/EkiKit/Derive/OperatorTable+Data.swift"
HEADER = ["id", "name", "short_name", "kana", "english", "aliases", "successor",
          "corporate_number", "note"]
ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
KANA_RE = re.compile(r"^[\u3041-\u3096\u309D\u309Eー]+$")


class TableError(Exception):
    pass


def operator_key(s):
    """The same fold as TextFold.operatorKey: NFKC (then NFC), 株式会社/(株) removed, spaces
    (incl. U+3000) removed, ASCII lower-cased."""
    t = unicodedata.normalize("NFC", unicodedata.normalize("NFKC", s))
    for affix in ("株式会社", "(株)", "㈱"):
        t = t.replace(affix, "")
    out = []
    for ch in t:
        if ch in (" ", "\t", "\u3000"):
            continue
        out.append(ch.lower() if "A" <= ch <= "Z" else ch)
    return "".join(out)


def corporate_number_is_valid(n):
    """法人番号: 13 digits; the first is a check digit over the other 12 (weights 1, 2 from the
    right): check = 9 - (sum mod 9)."""
    if not re.fullmatch(r"[0-9]{13}", n):
        return False
    base = [int(c) for c in n[1:]]
    total = sum(d * (1 if i % 2 == 0 else 2) for i, d in enumerate(reversed(base)))
    return int(n[0]) == 9 - total % 9


def split_list(field):
    return [part.strip() for part in field.split(";") if part.strip()]


def read_rows(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TableError(f"{path}: not UTF-8 ({e})")
    if text.startswith("\ufeff"):
        raise TableError(f"{path}:1: starts with a byte-order mark; write plain UTF-8")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows = []
    try:
        header = next(reader)
        if header != HEADER:
            raise TableError(f"{path}:1: header must be {','.join(HEADER)}")
        while True:
            line = reader.line_num + 1
            try:
                rec = next(reader)
            except StopIteration:
                break
            if len(rec) != len(HEADER):
                raise TableError(f"{path}:{line}: {len(rec)} fields, expected {len(HEADER)}")
            rows.append((line, dict(zip(HEADER, (v.strip() for v in rec)))))
    except csv.Error as e:
        raise TableError(f"{path}:{reader.line_num}: {e}")
    return rows, hashlib.sha256(raw).hexdigest()


def check(path, rows):
    ids = {}
    numbers = {}
    for line, r in rows:
        where = f"{path}:{line}"
        if not ID_RE.match(r["id"]):
            raise TableError(f"{where}: id {r['id']!r} is not lower-case ASCII words joined by -")
        if r["id"] in ids:
            raise TableError(f"{where}: id {r['id']} repeats line {ids[r['id']]}")
        ids[r["id"]] = line
        for col in ("name", "short_name", "kana"):
            if not r[col]:
                raise TableError(f"{where}: {col} is empty")
        if not KANA_RE.match(r["kana"]):
            raise TableError(f"{where}: kana {r['kana']!r} is not hiragana")
        n = r["corporate_number"]
        if n:
            if not corporate_number_is_valid(n):
                raise TableError(f"{where}: corporate_number {n} is not 13 digits with a valid check digit")
            if n in numbers:
                raise TableError(f"{where}: corporate_number {n} repeats line {numbers[n]}")
            numbers[n] = line
        for col in ("name", "short_name", "kana", "english", "aliases", "note"):
            if any(ord(c) < 0x20 for c in r[col]):
                raise TableError(f"{where}: {col} contains a control character")
    succ = {r["id"]: r["successor"] for _, r in rows}
    for line, r in rows:
        s = r["successor"]
        if s and s not in succ:
            raise TableError(f"{path}:{line}: successor {s} is not an id in the table")
        seen = {r["id"]}
        while s:
            if s in seen:
                raise TableError(f"{path}:{line}: successor chain of {r['id']} loops at {s}")
            seen.add(s)
            s = succ[s]
    owner = {}
    for line, r in rows:
        names = [r["id"], r["name"], r["short_name"]] + split_list(r["english"]) + split_list(r["aliases"])
        for name in names:
            key = operator_key(name)
            if not key:
                raise TableError(f"{path}:{line}: {name!r} folds to an empty key")
            if key in owner and owner[key][0] != r["id"]:
                other_id, other_line = owner[key]
                raise TableError(f"{path}:{line}: {name!r} (key {key}) also names {other_id} (line {other_line})")
            owner.setdefault(key, (r["id"], line))


def swift_string(s):
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def swift_optional(s):
    return swift_string(s) if s else "nil"


def swift_list(items):
    return "[" + ", ".join(swift_string(x) for x in items) + "]"


def render(rows, digest):
    lines = [
        "// GENERATED FILE — do not edit by hand.",
        f"// Made by Scripts/gen-operator-table.py from {CSV_PATH}; to change the table, edit the CSV and run",
        "//     python3 Scripts/gen-operator-table.py",
        "// (`--check` tells whether this file is up to date). OperatorTableTests fails when they drift.",
        "",
        "extension OperatorTable {",
        f"    /// Rows of `{CSV_PATH}` this file was generated from.",
        f"    static let builtInRowCount = {len(rows)}",
        f"    /// SHA-256 of the bytes of `{CSV_PATH}` this file was generated from.",
        f"    static let builtInSourceSHA256 = \"{digest}\"",
        "",
        f"    /// The rows of `{CSV_PATH}`, in file order.",
        "    static let builtInOperators: [Operator] = [",
    ]
    for _, r in rows:
        lines.append(
            "        Operator("
            f"id: {swift_string(r['id'])}, name: {swift_string(r['name'])}, "
            f"shortName: {swift_string(r['short_name'])}, kana: {swift_string(r['kana'])},\n"
            f"                 english: {swift_list(split_list(r['english']))}, "
            f"aliases: {swift_list(split_list(r['aliases']))},\n"
            f"                 successor: {swift_optional(r['successor'])}, "
            f"corporateNumber: {swift_optional(r['corporate_number'])},\n"
            f"                 note: {swift_optional(r['note'])}),"
        )
    lines += ["    ]", "}", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--csv", default=os.path.join(ROOT, CSV_PATH), help=f"input (default {CSV_PATH})")
    ap.add_argument("--output", default=os.path.join(ROOT, SWIFT_PATH), help=f"output (default {SWIFT_PATH})")
    ap.add_argument("--check", action="store_true", help="do not write; exit 1 when the output differs")
    args = ap.parse_args()
    try:
        rows, digest = read_rows(args.csv)
        check(args.csv, rows)
    except (TableError, OSError) as e:
        print(f"gen-operator-table: {e}", file=sys.stderr)
        return 1
    text = render(rows, digest)
    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print(f"gen-operator-table: {args.output} is out of date; run python3 Scripts/gen-operator-table.py",
                  file=sys.stderr)
            return 1
        print(f"{args.output} is up to date ({len(rows)} operators)")
        return 0
    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {args.output} ({len(rows)} operators)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
