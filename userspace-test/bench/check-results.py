#!/usr/bin/env python3
"""Check xrc_bench's JSON and print it as Markdown tables.

    check-results.py RESULTS.json [--markdown OUT.md] [--svg OUT.svg] [--require-all]

Fails (exit 1) when a row that the run's own configuration implies is
missing, or a figure is not a finite number, or a count of trials is
wrong: the tiny run in `make test` must not pass with half a table.
A slab figure that is not positive fails a full run only: over the tiny
run's few objects it is noise.
--require-all also fails when a phase was left out (--phases).
--svg writes the cost-growth plot (memory and time per registration
against registrations per node, from the mpi rows) as a small SVG.
"""
import argparse
import json
import math
import sys

SCHEMA = "xrc-rcv-bench/1"
PHASES = ["pairs", "held", "files", "close", "memory", "scale", "mpi", "emul"]
PAIR_OPS = ["reg_existing", "unreg_existing", "open_qp", "destroy_open_qp",
            "reg_held", "unreg_held", "reg_new", "unreg_destroy", "create_qp",
            "destroy_qp", "query_port", "reg_unreg_lone", "open_destroy_lone"]
PAIR_RATIOS = ["reg_unreg_vs_open_destroy", "reg_vs_open_qp",
               "unreg_vs_destroy_open_qp", "reg_new_unreg_vs_create_destroy",
               "reg_new_vs_create_qp", "unreg_destroy_vs_destroy_qp",
               "reg_unreg_held_vs_open_destroy", "reg_unreg_vs_open_destroy_lone"]
CLOSE_VARIANTS = ["empty", "reg", "open_qp", "reg_new", "create_qp"]
MEM_VARIANTS = ["reg", "open_qp", "reg_new", "create_qp", "reg_single", "open_qp_single"]
SCALE_KINDS = ["reg_unreg", "open_destroy"]
SCALE_MODES = ["files2", "threads2", "handles2"]
MPI_KINDS = ["reg", "open_qp"]
EMUL_ROWS = ["ratio.reg_unreg", "ratio.reg_unreg_held", "lat.kernel", "lat.emul",
             "lat.kernel_held", "lat.emul_held"]


def goals(cfg):
    """The goal table: (label, row id, extra field or None, op, goal)."""
    held, close = cfg["held"][-1], cfg["close"][-1]
    return [
        (f"slab per registration / per OPEN_QP handle ({cfg['mem_regs']} in one file)",
         "mem_ratio.reg_vs_open_qp", None, "<=", 0.15),
        ("slab for a file's only registration / its only OPEN_QP handle",
         "mem_ratio.reg_vs_open_qp_single", None, "<=", 0.25),
        ("REG + UNREG of an existing QP / OPEN_QP + DESTROY_QP",
         "ratio.reg_unreg_vs_open_destroy", None, "<=", 0.50),
        (f"REG+UNREG with {held} held / with {cfg['held'][0]} held", f"held.{held}", "vs_first",
         "<=", 1.10),
        (f"close() of {close} registrations / of {close} OPEN_QP handles",
         f"close_ratio.reg_vs_open_qp.{close}", None, "<=", 0.40),
        ("REG+UNREG throughput, 2 files on 2 vCPUs / 1 file, against OPEN_QP+DESTROY_QP's",
         "scale_ratio.files2", None, ">=", 1.0),
        ("the same, 2 threads of one file / 1 thread, against OPEN_QP+DESTROY_QP's",
         "scale_ratio.threads2", None, ">=", 1.0),
    ]


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
    if "scale" in phases:
        st = cfg["scale_trials"]
        for k in SCALE_KINDS:
            for m in ["1"] + SCALE_MODES:
                rows[f"scale.thr.{k}.{m}"] = (st, [])
            for m in SCALE_MODES:
                rows[f"scale.{k}.{m}"] = (st, [])
        for m in SCALE_MODES:
            rows[f"scale_ratio.{m}"] = (st, [])
    if "mpi" in phases:
        mt2 = cfg["mpi_trials"]
        for n in cfg["mpi_qps"]:
            for k in MPI_KINDS:
                rows[f"mpi.{k}.time.{n}"] = (mt2, ["regs", "per_reg_us"])
                rows[f"mpi.{k}.bytes.{n}"] = (mt2, ["regs", "total_mb", "meminfo_sunreclaim_bytes"])
                rows[f"mpi.{k}.close.{n}"] = (mt2, ["regs", "per_reg_us"])
            for w in ["time", "bytes", "close"]:
                rows[f"mpi_ratio.{w}.{n}"] = (mt2, [])
    if "emul" in phases:
        for r in EMUL_ROWS:
            rows["emul." + r] = (t, [])
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
        # A slab delta over a handful of objects is within the guest's own
        # slab churn: at tiny sizes only its presence is checked.
        if (r["id"].startswith(("mem.", "mpi.")) and r["unit"] == "bytes" and finite(r.get("median"))
                and r["median"] <= 0 and not cfg.get("tiny")):
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
    lsm = f"; LSMs {sysi['lsm']}" if sysi.get("lsm") else ""
    out.append(f"Kernel `{sysi.get('kernel')}` ({sysi.get('cpus')} vCPUs, TCG, clocksource "
               f"{sysi.get('clocksource')}{lsm}); {cfg['trials']} trials x {cfg['batch']} commands; "
               f"medians, [p25, p75]; run took {doc.get('wall_s', 0):.0f} s in the guest.")
    out.append("")

    def table(head, lines):
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "|".join("---" if i == 0 else "--:" for i in range(len(head))) + "|")
        out.extend("| " + " | ".join(l) + " |" for l in lines)
        out.append("")

    def spread(r, nd=2):
        return f"{f(r['median'], nd)} [{f(r['p25'], nd)}, {f(r['p75'], nd)}]"

    lines = []
    for label, rid, extra, op, goal in goals(cfg):
        r = rows.get(rid)
        if r is None:
            continue
        v = r.get(extra) if extra else r["median"]
        met = finite(v) and (v <= goal if op == "<=" else v >= goal)
        val = f(v) if extra else spread(r)
        lines.append([label, val, f"{op} {goal:.2f}", "met" if met else "**not met**"])
    if lines:
        out.append("**The goals**" + (" (tiny sizes on the debug kernel: the figures mean "
                                                  "nothing, the rows only prove the paths run)"
                                                  if cfg.get("tiny") else ""))
        out.append("")
        table(["figure", "here", "goal", ""], lines)

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
    sel = [r for r in doc["rows"] if r["section"] in ("scale", "emul")]
    if sel:
        out.append("**Throughput on 2 vCPUs** (thousand pairs per second of all workers; scaling = "
                   "with two / with one, in the same trial) **and the OFED-style userspace "
                   f"emulation** ({cfg.get('emul_transport', '')})")
        out.append("")
        table(["what", "median [p25, p75]"],
              [[r["label"].strip() + ("" if r["unit"] == "x" else f" ({r['unit']})"), spread(r)]
               for r in sel])
    g = growth(doc)
    if g:
        out.append(f"**MPI-shaped: {cfg['mpi_procs']} ranks, each taking the same N shared receive "
                   "QPs, created by whichever rank comes first** (all ranks' wall time; slab bytes "
                   "per registration, QPs included; close() of all ranks)")
        out.append("")
        lines = []
        for n, regs, d in g:
            lines.append([f"{n} ({regs:,})", *(spread(d[k]["time"], 1) for k in MPI_KINDS),
                          *(f"{f(d[k]['bytes']['total_mb'], 1)}" for k in MPI_KINDS),
                          *(spread(d[k]["close"], 1) for k in MPI_KINDS),
                          f(rows[f"mpi_ratio.time.{n}"]["median"]),
                          f(rows[f"mpi_ratio.bytes.{n}"]["median"]),
                          f(rows[f"mpi_ratio.close.{n}"]["median"])])
        table(["N (registrations)", "REG ms", "OPEN_QP ms", "REG slab MB", "OPEN_QP slab MB",
               "REG close ms", "OPEN_QP close ms", "time ratio", "slab ratio", "close ratio"], lines)
        out.append("**Cost growth** per registration against registrations per node (from the rows above)")
        out.append("")
        table(["registrations", "REG bytes", "OPEN_QP bytes", "REG us", "OPEN_QP us",
               "REG close us", "OPEN_QP close us"],
              [[f"{regs:,}", *(f(d[k]["bytes"]["median"], 0) for k in MPI_KINDS),
                *(f(d[k]["time"]["per_reg_us"]) for k in MPI_KINDS),
                *(f(d[k]["close"]["per_reg_us"]) for k in MPI_KINDS)] for n, regs, d in g])
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


def growth(doc):
    """[(N, registrations, {kind: {time|bytes|close: row}})] of the mpi rows."""
    rows = {r["id"]: r for r in doc["rows"]}
    out = []
    for n in doc["config"].get("mpi_qps", []):
        d = {k: {w: rows.get(f"mpi.{k}.{w}.{n}") for w in ("time", "bytes", "close")} for k in MPI_KINDS}
        if all(r for k in d.values() for r in k.values()):
            out.append((n, int(d["reg"]["time"]["regs"]), d))
    return out


def svg(doc):
    """Two panels, log-x: slab bytes and microseconds per registration."""
    g = growth(doc)
    w, h, pad = 360, 260, 55
    colors = {"reg": "#1f77b4", "open_qp": "#d62728"}
    names = {"reg": "REG (registration)", "open_qp": "OPEN_QP handle"}
    panels = [("slab bytes per registration", lambda d: d["bytes"]["median"]),
              ("us per registration (all ranks' wall time)", lambda d: d["time"]["per_reg_us"]),
              ("close() us per registration", lambda d: d["close"]["per_reg_us"])]
    xs = [math.log10(regs) for _, regs, _ in g]
    x0, x1 = math.floor(min(xs)), math.ceil(max(xs))
    x1 = x1 if x1 > x0 else x0 + 1
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * len(panels)}" height="{h + 30}" '
         'font-family="sans-serif" font-size="11">',
         f'<rect width="100%" height="100%" fill="white"/>',
         f'<text x="8" y="{h + 22}">{doc["system"].get("kernel")}: {doc["config"]["mpi_procs"]} ranks x N '
         'shared QPs; x: registrations per node (log)</text>']
    for i, (title, get) in enumerate(panels):
        ox = i * w
        vals = [get(d[k]) for _, _, d in g for k in MPI_KINDS if finite(get(d[k]))]
        ymax = max(vals) * 1.15 if vals else 1
        px = lambda x: ox + pad + (x - x0) / (x1 - x0) * (w - pad - 15)
        py = lambda y: h - 35 - y / ymax * (h - 70)
        o.append(f'<text x="{ox + pad}" y="18" font-weight="bold">{title}</text>')
        o.append(f'<line x1="{px(x0)}" y1="{py(0)}" x2="{px(x1)}" y2="{py(0)}" stroke="black"/>')
        o.append(f'<line x1="{px(x0)}" y1="{py(0)}" x2="{px(x0)}" y2="{py(ymax)}" stroke="black"/>')
        for e in range(x0, x1 + 1):
            o.append(f'<text x="{px(e)}" y="{py(0) + 14}" text-anchor="middle">1e{e}</text>')
        for j in range(5):
            y = ymax * j / 4
            o.append(f'<text x="{px(x0) - 4}" y="{py(y) + 4}" text-anchor="end">{y:.3g}</text>')
        for k in MPI_KINDS:
            pts = [(px(math.log10(regs)), py(get(d[k]))) for _, regs, d in g if finite(get(d[k]))]
            o.append('<polyline fill="none" stroke-width="2" stroke="{}" points="{}"/>'.format(
                colors[k], " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)))
            o.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colors[k]}"/>' for x, y in pts)
        for j, k in enumerate(MPI_KINDS):
            o.append(f'<text x="{ox + pad + 10}" y="{36 + 14 * j}" fill="{colors[k]}">{names[k]}</text>')
    o.append("</svg>")
    return "\n".join(o) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--markdown", help="also write the Markdown tables here")
    ap.add_argument("--svg", help="also write the cost-growth plot here")
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
    if a.svg:
        if not growth(doc):
            print("check-results: no mpi rows to plot", file=sys.stderr)
            return 1
        with open(a.svg, "w") as fh:
            fh.write(svg(doc))
    print(f"check-results: {len(doc['rows'])} rows, all present and finite: {a.results}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
