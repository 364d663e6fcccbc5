#!/usr/bin/env python3
"""The rxe benchmark's ratios, from the RXE-BENCH lines of one guest run.

    bench-report.py RAW OUTDIR    writes OUTDIR/results.json and results.md

XRC against RC: for each message size, the ratio XRC/RC of bandwidth and
of message rate in each trial (the two ran back to back in that trial),
then the median and quartiles of those ratios. The MPI shape: for each
P and N, each kind's memory less the baseline's (kind none: the same
processes with no QP), median over the runs, as the drop of MemAvailable
and as the growth of Slab + VmallocUsed; then XRC's over RC's.
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path


def fields(line):
    return dict(w.split("=", 1) for w in line.split()[2:] if "=" in w)


def quartiles(xs):
    xs = sorted(xs)
    if len(xs) < 2:
        return xs[0], xs[0], xs[0]      # callers pass at least one
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], statistics.median(xs), q[2]


KINDS = ("rc", "rc-srq", "xrc", "xrc-send")


def main(raw, outdir):
    bw = defaultdict(dict)      # (size, trial) -> kind -> (MBps, Mpps)
    mem = defaultdict(lambda: defaultdict(list))  # (P, N) -> kind -> [fields]
    for line in Path(raw).read_text().splitlines():
        words = line.split()
        what = words[1] if len(words) > 1 else ""
        f = fields(line)
        if what == "bw":
            bw[(int(f["size"]), int(f["trial"]))][f["kind"]] = (
                float(f["MBps"]), float(f["Mpps"]))
        elif what == "mem":
            mem[(int(f["P"]), int(f["N"]))][f["kind"]].append(
                {k: int(v) for k, v in f.items() if k.endswith("_kb")})

    result = {"xrc_vs_rc": [], "mpi_shape": []}
    for size in sorted({s for s, _ in bw}):
        trials = [v for (s, _), v in sorted(bw.items()) if s == size
                  and "RC" in v and "XRC" in v]
        row = {"size": size, "trials": len(trials)}
        for i, name in ((0, "bandwidth"), (1, "message_rate")):
            ratios = [t["XRC"][i] / t["RC"][i] for t in trials if t["RC"][i] > 0]
            if not ratios:
                continue
            q1, med, q3 = quartiles(ratios)
            row[name] = {"median": med, "q1": q1, "q3": q3,
                         "rc_median": statistics.median(t["RC"][i] for t in trials),
                         "xrc_median": statistics.median(t["XRC"][i] for t in trials)}
        if "bandwidth" in row and "message_rate" in row:
            result["xrc_vs_rc"].append(row)
    # What the connections took: each kind less the baseline of the same
    # P and N (the processes' contexts, PDs, CQs), median over the runs
    for (p, n), kinds in sorted(mem.items()):
        if "none" not in kinds:
            continue
        base_used = statistics.median(r["used_kb"] for r in kinds["none"])
        base_kernel = statistics.median(r["slab_kb"] + r["vmalloc_kb"] for r in kinds["none"])
        row = {"P": p, "N": n, "runs": len(kinds["none"])}
        for k in KINDS:
            if k in kinds:
                row[f"{k}_kb"] = statistics.median(r["used_kb"] for r in kinds[k]) - base_used
                row[f"{k}_kernel_kb"] = statistics.median(
                    r["slab_kb"] + r["vmalloc_kb"] for r in kinds[k]) - base_kernel
        for x in ("xrc", "xrc-send"):
            for r in ("rc", "rc-srq"):
                for unit in ("kb", "kernel_kb"):
                    a, b = row.get(f"{x}_{unit}"), row.get(f"{r}_{unit}")
                    if a is not None and b and b > 0:
                        row[f"{x}/{r}_{unit}"] = a / b
        result["mpi_shape"].append(row)

    out = Path(outdir)
    (out / "results.json").write_text(json.dumps(result, indent=1) + "\n")
    md = ["| size | trials | XRC/RC bandwidth, median [q1, q3] | XRC/RC message rate | RC, XRC MB/s (medians) |",
          "|--:|--:|---|---|---|"]
    for r in result["xrc_vs_rc"]:
        b, m = r["bandwidth"], r["message_rate"]
        md.append(f"| {r['size']} B | {r['trials']} | {b['median']:.2f} [{b['q1']:.2f}, {b['q3']:.2f}] "
                  f"| {m['median']:.2f} [{m['q1']:.2f}, {m['q3']:.2f}] "
                  f"| {b['rc_median']:.2f}, {b['xrc_median']:.2f} |")

    def ratio(r, key):
        v = r.get(key)
        return "-" if v is None else f"{v:.3f}"
    md += ["", "Memory above the baseline (MemAvailable's drop), MB, and ratios; "
           "in brackets, Slab + VmallocUsed growth ratios", "",
           "| P | N | runs | RC | RC+SRQ | XRC recv side | XRC + send QPs "
           "| XRC recv / RC | XRC+send / RC | XRC+send / RC+SRQ |",
           "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    for r in result["mpi_shape"]:
        mb = lambda k: "-" if r.get(k) is None else f"{r[k] / 1024:.1f}"
        md.append(f"| {r['P']} | {r['N']} | {r['runs']} | {mb('rc_kb')} | {mb('rc-srq_kb')} "
                  f"| {mb('xrc_kb')} | {mb('xrc-send_kb')} "
                  f"| {ratio(r, 'xrc/rc_kb')} [{ratio(r, 'xrc/rc_kernel_kb')}] "
                  f"| {ratio(r, 'xrc-send/rc_kb')} [{ratio(r, 'xrc-send/rc_kernel_kb')}] "
                  f"| {ratio(r, 'xrc-send/rc-srq_kb')} [{ratio(r, 'xrc-send/rc-srq_kernel_kb')}] |")
    (out / "results.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0 if result["xrc_vs_rc"] and result["mpi_shape"] else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
