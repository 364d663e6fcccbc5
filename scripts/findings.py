#!/usr/bin/env python3
"""Compiler, sparse and checkpatch findings, compared with the base tree.

  findings.py extract SRCDIR LOG        findings of a build log, one a line
  findings.py new BASELINE CURRENT [ALLOW]
                                        findings CURRENT has beyond BASELINE,
                                        less those ALLOW excuses (default:
                                        scripts/check-allow)

A finding is (file, kind, message) without line numbers, so code moving
within a file does not count as new; the same finding twice counts twice.
"""
import re
import sys
from collections import Counter
from pathlib import Path

LOCATED = re.compile(r"^(?P<path>[^:\s]+):\d+:(?:\d+:)? (?P<kind>warning|error): (?P<msg>.*)$")
ALLOW = Path(__file__).resolve().parent / "check-allow"


def extract(srcdir, log):
    srcdir = srcdir.rstrip("/") + "/"
    for line in Path(log).read_text(errors="replace").splitlines():
        m = LOCATED.match(line.strip())
        if m:
            path = m["path"].removeprefix(srcdir)
            print(f"{path}\t{m['kind']}\t{m['msg']}")


def allowed(allow):
    rules = []
    for line in Path(allow).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            path, msg, _why = line.split("\t", 2)
            rules.append((re.compile(path), re.compile(msg)))
    return rules


def new(baseline, current, allow=ALLOW):
    base = Counter(Path(baseline).read_text().splitlines())
    cur = Counter(Path(current).read_text().splitlines())
    rules = allowed(allow)
    bad = 0
    for finding, count in sorted(cur.items()):
        extra = count - base[finding]
        path, _kind, msg = finding.split("\t", 2)
        if extra <= 0 or any(p.search(path) and m.search(msg) for p, m in rules):
            continue
        bad += 1
        print(f"  new ({extra}x): {path}: {msg}")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "extract":
        extract(sys.argv[2], sys.argv[3])
    else:
        sys.exit(new(*sys.argv[2:5]))
