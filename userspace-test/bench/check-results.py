#!/usr/bin/env python3
"""Check xrc_bench's JSON and print it as Markdown tables.

    check-results.py RESULTS.json [--markdown OUT.md] [--require-all]

Fails (exit 1) when a row that the run's own configuration implies is
missing, or a figure is not a finite number, or a count of trials is
wrong: the tiny run in `make test` must not pass with half a table.
--require-all also fails when a phase was left out (--phases).
"""
import argparse
import json
import math
import sys

SCHEMA = "xrc-rcv-bench/1"
PHASES = ["pairs", "held", "files", "close", "memory"]
PAIR_OPS = ["reg_existing", "unreg_existing", "open_qp", "destroy_open_qp",
            "reg_held", "unreg_held", "reg_new", "unreg_destroy", "create_qp",
            "destroy_qp", "query_port", "reg_unreg_lone", "open_destroy_lone"]
PAIR_RATIOS = ["reg_unreg_vs_open_destroy", "reg_vs_open_qp",
               "unreg_vs_destroy_open_qp", "reg_new_unreg_vs_create_destroy",
               "reg_new_vs_create_qp", "unreg_destroy_vs_destroy_qp",
               "reg_unreg_held_vs_open_destroy", "reg_unreg_vs_open_destroy_lone"]
CLOSE_VARIANTS = ["empty", "reg", "open_qp", "reg_new", "create_qp"]
MEM_VARIANTS = ["reg", "open_qp", "reg_new", "create_qp", "reg_single", "open_qp_single"]


def expected(cfg):
    """Every row id the configuration implies, with its trial count and
    the extra fields it must carry."""
    phases = cfg["phases"].split(",")
    t, ct, mt = cfg["trials"], cfg["close_trials"], cfg["mem_trials"]
    rows = {}
    if "pairs" in phases:
        for r in PAIR_RATIOS:
            rows["ratio." + r] = (t, [])
        for op in PAIR_OPS:
            rows["floor." + op] = (t, [])
            rows["lat." + op] = (t, [])
        rows["lat.floor"] = (t, [])
    probe = ["vs_floor", "vs_floor_p25", "vs_floor_p75", "floor_us", "vs_first"]
    if "held" in phases:
        for n in cfg["held"]:
            rows[f"held.{n}"] = (t, probe)
    if "files" in phases:
        for k in cfg["files"]:
            rows[f"files.{k}"] = (t, probe)
    if "close" in phases:
        for i, n in enumerate(cfg["close"]):
            for v in CLOSE_VARIANTS:
                extra = [] if v == "empty" else ["per_reg_us", "per_reg_vs_smallest_n"]
                if v != "empty" and i > 0:
                    extra.append("marginal_us")
                rows[f"close.{v}.{n}"] = (ct, extra)
            rows[f"close_ratio.reg_vs_open_qp.{n}"] = (ct, [])
            rows[f"close_ratio.reg_new_vs_create_qp.{n}"] = (ct, [])
    if "memory" in phases:
        for v in MEM_VARIANTS:
            extra = ["meminfo_sunreclaim_bytes"]
            if v.endswith("_single"):
                extra += ["files", "qpn_bits"]
            rows["mem." + v] = (mt, extra)
        rows["mem_ratio.reg_vs_open_qp"] = (mt, [])
        rows["mem_ratio.reg_vs_open_qp_single"] = (mt, [])
        rows["mem_ratio.reg_new_vs_create_qp"] = (mt, [])
    return phases, rows


def finite(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def check(doc, require_all):
    errors = []
    if doc.get("schema") != SCHEMA:
        errors.append(f"schema is {doc.get('schema')!r}, want {SCHEMA!r}")
        return errors
    cfg = doc["config"]
    phases, want = expected(cfg)
    if require_all:
        errors += [f"phase {p} was not run" for p in PHASES if p not in phases]
    have = {r["id"]: r for r in doc["rows"]}
    if len(have) != len(doc["rows"]):
        errors.append("duplicate row ids")
    for rid, (n, extras) in want.items():
        r = have.get(rid)
        if r is None:
            errors.append(f"missing row {rid}")
            continue
        for k in ["median", "p25", "p75", "min", "max"]:
            if not finite(r.get(k)):
                errors.append(f"{rid}: {k} is {r.get(k)!r}")
        if r.get("n") != n:
            errors.append(f"{rid}: {r.get('n')} trials, want {n}")
        if finite(r.get("median")) and r["unit"] in ("us", "ms") and r["median"] <= 0:
            errors.append(f"{rid}: a time of {r['median']}")
        if r["id"].startswith("mem.") and finite(r.get("median")) and r["median"] <= 0:
            errors.append(f"{rid}: {r['median']} bytes")
        for e in extras:
            if not finite(r.get(e)):
                errors.append(f"{rid}: {e} is {r.get(e)!r}")
    errors += [f"unexpected row {rid}" for rid in have if rid not in want]
    if "memory" in phases:
        for v in MEM_VARIANTS:
            if not doc.get("slab", {}).get(v):
                errors.append(f"slab breakdown for {v} is empty")
    return errors


def f(x, nd=2):
    return "-" if not finite(x) else f"{x:.{nd}f}"


def markdown(doc):
    cfg, rows = doc["config"], {r["id"]: r for r in doc["rows"]}
    out = []
    sysi = doc.get("system", {})
    out.append(f"Kernel `{sysi.get('kernel')}` ({sysi.get('cpus')} vCPUs, TCG, clocksource "
               f"{sysi.get('clocksource')}); {cfg['trials']} trials x {cfg['batch']} commands; "
               f"medians, [p25, p75]; run took {doc.get('wall_s', 0):.0f} s in the guest.")
    out.append("")

    def table(head, lines):
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "|".join("---" if i == 0 else "--:" for i in range(len(head))) + "|")
        out.extend("| " + " | ".join(l) + " |" for l in lines)
        out.append("")

    def spread(r, nd=2):
        return f"{f(r['median'], nd)} [{f(r['p25'], nd)}, {f(r['p75'], nd)}]"

    sel = [r for r in doc["rows"] if r["section"] == "ratio"]
    if sel:
        out.append("**Series against mainline** (ratio of times measured side by side; < 1: the series is faster)")
        out.append("")
        table(["comparison", "ratio"], [[r["label"].strip(), spread(r)] for r in sel])
    sel = [r for r in doc["rows"] if r["section"] == "floor"]
    if sel:
        fl = rows.get("lat.floor")
        out.append("**Against the floor**: one UNREG of a number the file does not hold "
                   f"({f(fl['median'], 1) if fl else '-'} us here)")
        out.append("")
        table(["command", "x floor", "us"],
              [[r["label"], spread(r), f(rows.get("lat." + r["id"].split(".", 1)[1], {}).get("median"), 1)]
               for r in sel])
    for sec, what in (("held", "registrations held by the file"), ("files", "files holding the QP")):
        sel = [r for r in doc["rows"] if r["section"] == sec]
        if not sel:
            continue
        out.append(f"**REG+UNREG against {what}** (x floor = pair / 2 floors of an empty file, "
                   "measured interleaved; flat means the last column stays near 1)")
        out.append("")
        table([what.split()[0], "REG+UNREG us", "x floor", f"vs first"],
              [[r["id"].split(".", 1)[1], spread(r, 1),
                f"{f(r.get('vs_floor'))} [{f(r.get('vs_floor_p25'))}, {f(r.get('vs_floor_p75'))}]",
                f(r.get("vs_first"))] for r in sel])
    if "close.reg." + str(cfg["close"][0]) in rows:
        out.append("**close() of a file** (ms; per registration = (close - close of an empty file) / N; "
                   "linear means the last column stays put)")
        out.append("")
        lines = []
        for n in cfg["close"]:
            for v in CLOSE_VARIANTS[1:]:
                r = rows.get(f"close.{v}.{n}")
                if r:
                    lines.append([f"{n}: {r['label'].split(': ', 1)[1]}", spread(r, 1),
                                  f(r.get("per_reg_us")), f(r.get("marginal_us"))])
            for rid, name in ((f"close_ratio.reg_vs_open_qp.{n}", "ratio REGs / OPEN_QP handles"),
                              (f"close_ratio.reg_new_vs_create_qp.{n}", "ratio REG(NEW) / CREATE_QP")):
                if rid in rows:
                    lines.append([f"{n}: **{name}**", spread(rows[rid]), "", ""])
        table(["N: what the file holds", "close ms", "us per reg", "us per reg from the previous N"],
              lines)
    sel = [r for r in doc["rows"] if r["section"] == "memory"]
    if sel:
        out.append(f"**Kernel memory** (slab object bytes per item: over {cfg['mem_regs']} in one file, "
                   f"or one in each of {cfg['single_files']} files; meminfo SUnreclaim as a cross-check)")
        out.append("")
        table(["what", "bytes (or ratio)", "SUnreclaim bytes"],
              [[r["label"].strip(), spread(r, 0 if r["unit"] == "bytes" else 2),
                f(r.get("meminfo_sunreclaim_bytes"), 0)] for r in sel])
        slab = doc.get("slab", {})
        lines = []
        for v in MEM_VARIANTS:
            parts = [f"{name} {d['objs_per_reg']:.2f} ({d['bytes_per_reg']:.0f} B)"
                     for name, d in sorted(slab.get(v, {}).items(), key=lambda kv: -kv[1]["bytes_per_reg"])]
            lines.append([v, ", ".join(parts)])
        table(["item", "slab caches: objects per item (bytes)"], lines)
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--markdown", help="also write the Markdown tables here")
    ap.add_argument("--require-all", action="store_true", help="every phase must have run")
    a = ap.parse_args()
    try:
        with open(a.results) as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as e:
        print(f"check-results: {a.results}: {e}", file=sys.stderr)
        return 1
    try:
        errors = check(doc, a.require_all)
    except (KeyError, TypeError) as e:
        errors = [f"malformed document: {e!r}"]
    if errors:
        for e in errors:
            print(f"check-results: FAIL: {e}", file=sys.stderr)
        print(f"check-results: {len(errors)} problem(s) in {a.results}", file=sys.stderr)
        return 1
    md = markdown(doc)
    print(md)
    if a.markdown:
        with open(a.markdown, "w") as fh:
            fh.write(md + "\n")
    print(f"check-results: {len(doc['rows'])} rows, all present and finite: {a.results}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
