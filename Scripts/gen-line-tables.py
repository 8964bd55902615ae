#!/usr/bin/env python3
"""Compiles the curated line facts: reads Datasets/line-common-names.csv,
Datasets/line-definitions.csv and Datasets/operator-types.csv, checks them, and writes Sources/EkiKit/Lines/LineCommonNames+Data.swift
and Sources/EkiKit/Lines/OperatorTypes+Data.swift (the rows as Swift literals).

Checks (the script stops with file:line and a message on the first failure):
- the header is exactly `name,operator_id,class,line,from,to,source`;
- every field is present; class is `conventional` or `shinkansen`; operator_id is an id of
  Datasets/operators.csv;
- source cites where the fact comes from (not empty);
- line-definitions.csv: the header is exactly `kind,operator_id,class,name,line,from,to,since,source`;
  kind is `alias`, `part` (names its line), `closed`, `ends` (an `ends` row gives from and to; a `closed`
  row gives both, for a closed section, or neither, for a whole line), `branch` (from: the junction,
  to: the branch's end) or `whole` (no line, from or to); operator_id is an operators.csv id; class as above; name and
  source are present; since is empty or YYYY, YYYY-MM or YYYY-MM-DD;
- operator-types.csv: the header is exactly `operator_id,type,source`, ids are operators.csv ids
  and unique, type is one of TYPES below.

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
TYPES_CSV = "Datasets/operator-types.csv"
TYPES_SWIFT = "Sources/EkiKit/Lines/OperatorTypes+Data.swift"
TYPES_HEADER = ["operator_id", "type", "source"]
DEFS_CSV = "Datasets/line-definitions.csv"
DEFS_SWIFT = "Sources/EkiKit/Lines/LineDefinitions+Data.swift"
DEFS_HEADER = ["kind", "operator_id", "class", "name", "line", "from", "to", "since", "source"]
TYPES = ["JR", "大手私鉄", "準大手私鉄", "公営", "第三セクター", "中小私鉄", "路面電車", "モノレール・新交通", "ケーブルカー"]


def swift_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def read_table(raw, path, header):
    """The operator ids of operators.csv and the records of the CSV `raw` (bytes), whose first
    record must be `header` (`path` names the file in the error)."""
    with open(os.path.join(ROOT, OPERATORS), encoding="utf-8") as f:
        ids = {row["id"] for row in csv.DictReader(f)}
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8"))))
    if rows[0] != header:
        sys.exit(f"{path}:1: the header must be {','.join(header)}")
    return ids, rows


def generate(raw):
    ids, rows = read_table(raw, CSV_PATH, HEADER)
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


def generate_types(raw):
    ids, rows = read_table(raw, TYPES_CSV, TYPES_HEADER)
    seen = set()
    lines = [
        "// GENERATED FILE — do not edit by hand.",
        f"// Made by Scripts/gen-line-tables.py from {TYPES_CSV}; to change the table, edit the CSV and run",
        "//     python3 Scripts/gen-line-tables.py",
        "// (`--check` tells whether this file is up to date).",
        "",
        "extension OperatorTypes {",
        f"    /// The rows of `{TYPES_CSV}`, in file order: operator id, type, source.",
        "    static let builtIn: [(operatorID: String, type: String, source: String)] = [",
    ]
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != 3 or not all(x.strip() for x in row):
            sys.exit(f"{TYPES_CSV}:{n}: expected 3 fields, all present")
        i, t, src = row
        if i not in ids:
            sys.exit(f"{TYPES_CSV}:{n}: operator_id: '{i}' is not an id of {OPERATORS}")
        if i in seen:
            sys.exit(f"{TYPES_CSV}:{n}: operator_id: '{i}' is listed twice")
        if t not in TYPES:
            sys.exit(f"{TYPES_CSV}:{n}: type: '{t}' is not one of {', '.join(TYPES)}")
        seen.add(i)
        lines.append(f"        ({swift_string(i)}, {swift_string(t)}, {swift_string(src)}),")
    lines += ["    ]", "}", ""]
    return "\n".join(lines)


def generate_definitions(raw):
    import re
    ids, rows = read_table(raw, DEFS_CSV, DEFS_HEADER)
    lines = [
        "// GENERATED FILE — do not edit by hand.",
        f"// Made by Scripts/gen-line-tables.py from {DEFS_CSV}; to change the table, edit the CSV and run",
        "//     python3 Scripts/gen-line-tables.py",
        "// (`--check` tells whether this file is up to date).",
        "",
        "extension LineDefinitions {",
        f"    /// SHA-256 of the bytes of `{DEFS_CSV}` this file was generated from.",
        f"    static let builtInSourceSHA256 = \"{hashlib.sha256(raw).hexdigest()}\"",
        "",
        f"    /// The rows of `{DEFS_CSV}`, in file order.",
        "    static let builtIn: [LineDefinition] = [",
    ]
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != len(DEFS_HEADER):
            sys.exit(f"{DEFS_CSV}:{n}: {len(row)} fields, expected {len(DEFS_HEADER)}")
        r = dict(zip(DEFS_HEADER, row))
        for k in ("kind", "operator_id", "class", "name", "source"):
            if not r[k].strip():
                sys.exit(f"{DEFS_CSV}:{n}: {k}: missing")
        if r["kind"] not in ("alias", "part", "closed", "ends", "branch", "whole"):
            sys.exit(f"{DEFS_CSV}:{n}: kind: '{r['kind']}' is not alias, part, closed, ends, branch or whole")
        if r["kind"] == "branch" and not (r["from"].strip() and r["to"].strip()):
            sys.exit(f"{DEFS_CSV}:{n}: a branch row needs from (the junction) and to (the branch's end)")
        if r["kind"] == "whole" and (r["line"].strip() or r["from"].strip() or r["to"].strip()):
            sys.exit(f"{DEFS_CSV}:{n}: a whole row has no line, from or to")
        if r["kind"] == "part" and not r["line"].strip():
            sys.exit(f"{DEFS_CSV}:{n}: a part row names its line")
        if r["kind"] == "ends" and not (r["from"].strip() and r["to"].strip()):
            sys.exit(f"{DEFS_CSV}:{n}: an ends row needs from and to")
        if bool(r["from"].strip()) != bool(r["to"].strip()):
            sys.exit(f"{DEFS_CSV}:{n}: from and to go together")
        if r["kind"] in ("alias", "part") and r["from"].strip():
            sys.exit(f"{DEFS_CSV}:{n}: an alias or part row has no from and to")
        if r["class"] not in ("conventional", "shinkansen"):
            sys.exit(f"{DEFS_CSV}:{n}: class: '{r['class']}' is not conventional or shinkansen")
        if r["operator_id"] not in ids:
            sys.exit(f"{DEFS_CSV}:{n}: operator_id: '{r['operator_id']}' is not an id of {OPERATORS}")
        if r["since"] and not re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", r["since"]):
            sys.exit(f"{DEFS_CSV}:{n}: since: '{r['since']}' is not YYYY, YYYY-MM or YYYY-MM-DD")
        lines.append(
            f"        LineDefinition(kind: .{r['kind']}, operatorID: {swift_string(r['operator_id'])}, "
            f"serviceClass: .{r['class']}, name: {swift_string(r['name'])}, line: {swift_string(r['line'])}, "
            f"from: {swift_string(r['from'])}, to: {swift_string(r['to'])}, since: {swift_string(r['since'])}, source: {swift_string(r['source'])}),")
    lines += ["    ]", "}", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    outputs = []
    with open(os.path.join(ROOT, CSV_PATH), "rb") as f:
        outputs.append((SWIFT_PATH, generate(f.read())))
    with open(os.path.join(ROOT, TYPES_CSV), "rb") as f:
        outputs.append((TYPES_SWIFT, generate_types(f.read())))
    with open(os.path.join(ROOT, DEFS_CSV), "rb") as f:
        outputs.append((DEFS_SWIFT, generate_definitions(f.read())))
    for rel, swift in outputs:
        path = os.path.join(ROOT, rel)
        if a.check:
            with open(path, encoding="utf-8") as f:
                if f.read() != swift:
                    sys.exit(f"{rel} is out of date: run python3 Scripts/gen-line-tables.py")
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(swift)


if __name__ == "__main__":
    main()
