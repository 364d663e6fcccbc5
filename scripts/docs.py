#!/usr/bin/env python3
"""The figures of Documentation/, made from committed runs.

    docs.py add RUN_DIR [--kernel K] [--commit C] [--date D] [--plan "STAGES"]
                        [--kernel-release-file F]
    docs.py generate
    docs.py check

A run is what one `make bench`, `make bench-tiny` or `make test` left in
$CACHE/build: a bench's results.json (and, from a full bench,
verbs-emul.txt), or make test's summary files (<stage>.txt, key=value
lines, and wall_seconds). RUN_DIR is such a directory: $CACHE/build/bench,
$CACHE/build/bench-tiny or $CACHE/build/summary (or a directory holding
results.json and a summary/ directory).

`add` copies the run's files into Documentation/runs/<date>-<kernel>/
with meta.txt (date, kernel release, base, commit, what made it), then
regenerates. `generate` rewrites the generated sections of
Documentation/performance.md and Documentation/testing.md, between
<!-- generated: NAME begin --> and <!-- generated: NAME end -->, from every
committed run, newest first. `check` fails (exit 1) when a page or a
run's growth.svg differs from what `generate` would write.

The bench's tables are userspace-test/bench/check-results.py's, and a
results.json it finds incomplete is refused, so a page shows what
`make bench` printed. Stdlib only.
"""
import argparse
import datetime
import difflib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
SUMMARY_KEYS = ("result", "seconds", "cpu_seconds")
PAGES = {"performance": "performance.md", "testing": "testing.md"}


def load_check_results():
    """userspace-test/bench/check-results.py as a module (its name has a dash)."""
    path = TOP / "userspace-test" / "bench" / "check-results.py"
    spec = importlib.util.spec_from_file_location("check_results", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


CR = load_check_results()


# --- reading ---------------------------------------------------------------

def read_kv(path):
    """Space-separated key=value words, as in verbs-emul.txt (bench.sh reads
    it with tr ' ' '\\n'); the first value of a key wins."""
    out = {}
    for word in Path(path).read_text().split():
        if "=" in word:
            k, v = word.split("=", 1)
            out.setdefault(k, v)
    return out


def read_meta(path):
    """meta.txt: one key=value per line; values may contain spaces."""
    meta = {}
    for line in Path(path).read_text().splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            meta[k.strip()] = v.strip()
    return meta


def read_stage(path):
    """A summary/<stage>.txt: (result, seconds, cpu_seconds, counts) where
    result is the last result= and counts the other keys, first value each."""
    result = seconds = cpu = None
    counts = {}
    for line in Path(path).read_text().splitlines():
        if not re.match(r"^[A-Za-z0-9_.-]+=", line):
            continue
        k, v = line.split("=", 1)
        if k == "result":
            result = v
        elif k == "seconds":
            seconds = int(v)
        elif k == "cpu_seconds":
            cpu = int(v)
        else:
            counts.setdefault(k, v)
    return result, seconds, cpu, counts


class Run:
    """One directory of Documentation/runs/."""

    def __init__(self, path):
        self.path = Path(path)
        self.id = self.path.name
        self.meta = read_meta(self.path / "meta.txt")
        rj = self.path / "results.json"
        self.bench = json.loads(rj.read_text()) if rj.exists() else None
        ve = self.path / "verbs-emul.txt"
        self.verbs = read_kv(ve) if ve.exists() else None
        sd = self.path / "summary"
        self.stages = sorted(p.stem for p in sd.glob("*.txt")) if sd.is_dir() else []
        wall = sd / "wall_seconds"
        self.wall = int(wall.read_text().split()[0]) if wall.exists() else None

    def stage_order(self):
        plan = self.meta.get("plan", "").split()
        known = [s for s in plan if s in self.stages]
        return known + [s for s in self.stages if s not in known]

    def sort_key(self):
        return (self.meta.get("date", ""), self.id)


def runs(root):
    d = root / "Documentation" / "runs"
    found = [Run(p) for p in d.iterdir() if (p / "meta.txt").exists()] if d.is_dir() else []
    return sorted(found, key=Run.sort_key, reverse=True)


# --- rendering -------------------------------------------------------------

def duration(s):
    """As scripts/summary.sh prints it."""
    return f"{s // 60}m{s % 60:02d}s" if s >= 60 else f"{s}s"


def provenance(run, what):
    m = run.meta
    return (f"From the run in [`runs/{run.id}/`](runs/{run.id}/): {what}, "
            f"{m.get('date', '?')}; kernel `{m.get('kernel', '?')}`; "
            f"base {m.get('base', '?')}; commit `{m.get('commit', '?')}`.")


def performance_section(run):
    doc = run.bench
    tiny = bool(doc["config"].get("tiny"))
    lsm = active_lsm(doc)
    what = "`make bench-tiny`" if tiny else f"`make bench{f' BENCH_LSM={lsm}' if lsm else ''}`"
    out = [f"### {run.id}", "", provenance(run, what), ""]
    if lsm:
        out += [f"The guest booted with `lsm={lsm}`: every QP handle gets a security blob, and "
                "each registration opens a handle of its own (the layer's labelled mode).", ""]
    if tiny:
        out += ["Tiny sizes on the debug kernel (KASAN, lockdep, kmemleak): the rows "
                "prove that every path runs; the figures are not a measurement.", ""]
    out.append(CR.markdown(doc).rstrip())
    out.append("")
    if run.verbs:
        v = run.verbs
        out += ["**Through libibverbs, against the emulation over `ibv_open_qp()`**", "",
                "| REG+UNREG of an existing QP | us per pair |", "|---|--:|",
                f"| ibv_reg_xrc_rcv_qp + ibv_unreg_xrc_rcv_qp | {v.get('verbs_us', '-')} |",
                f"| emulation: ibv_open_qp + ibv_destroy_qp, global tree | {v.get('emul_us', '-')} |",
                f"| ratio (median [q1, q3] of {v.get('trials', '-')} trials of "
                f"{v.get('pairs', '-')} pairs) | {v.get('ratio', '-')} "
                f"[{v.get('ratio_q1', '-')}, {v.get('ratio_q3', '-')}] |", ""]
    if CR.growth(doc):
        out += [f"![cost per registration against registrations per node](runs/{run.id}/growth.svg)", ""]
    return "\n".join(out)


def testing_section(run):
    out = [f"### {run.id}", "", provenance(run, "`make test`"), "",
           "| stage | result | wall | CPU | counts |", "|---|---|--:|--:|---|"]
    passed = failed = total_s = total_cpu = 0
    for stage in run.stage_order():
        result, seconds, cpu, counts = read_stage(run.path / "summary" / f"{stage}.txt")
        if result == "passed":
            passed += 1
        else:
            failed += 1
            result = result or "not run"
        total_s += seconds or 0
        total_cpu += cpu or 0
        shown = " ".join(f"`{k}={v}`" for k, v in counts.items())
        out.append(f"| `{stage}` | {result} | {duration(seconds) if seconds is not None else '-'} "
                   f"| {duration(cpu) if cpu is not None else '-'} | {shown} |")
    wall = run.wall if run.wall is not None else total_s
    note = f" (the stages' times add up to {duration(total_s)}: lanes overlap)" if wall < total_s else ""
    out.append(f"| total | | {duration(wall)} | {duration(total_cpu)} | {note.strip()} |")
    out += ["", f"**{passed} passed, {failed} failed**", ""]
    return "\n".join(out)


def sections(root):
    """{page name: generated text} from every committed run, newest first."""
    rs = runs(root)
    perf = [performance_section(r) for r in rs if r.bench is not None]
    test = [testing_section(r) for r in rs if r.stages]
    return {"performance": "\n".join(perf), "testing": "\n".join(test)}


def svgs(root):
    """{path: text} of the growth plot of each run whose bench has mpi rows."""
    return {r.path / "growth.svg": CR.svg(r.bench) for r in runs(root)
            if r.bench is not None and CR.growth(r.bench)}


def splice(text, name, body):
    begin, end = f"<!-- generated: {name} begin -->", f"<!-- generated: {name} end -->"
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        raise SystemExit(f"docs: no '{begin}' ... '{end}' in the page")
    inner = "\n" + (body.rstrip() + "\n" if body.strip() else "")
    return text[:i + len(begin)] + inner + text[j:]


def expected_files(root):
    """{path: the text generate would write}."""
    out = {}
    for name, body in sections(root).items():
        page = root / "Documentation" / PAGES[name]
        out[page] = splice(page.read_text(), name, body)
    out.update(svgs(root))
    return out


# --- commands --------------------------------------------------------------

def generate(root):
    for path, text in expected_files(root).items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(f"docs: wrote {path.relative_to(root)}")
    return 0


def check(root):
    bad = 0
    for path, text in expected_files(root).items():
        have = path.read_text() if path.exists() else ""
        if have != text:
            bad += 1
            rel = str(path.relative_to(root))
            sys.stdout.writelines(difflib.unified_diff(
                have.splitlines(True), text.splitlines(True), rel, rel + " (generated)"))
    if bad:
        print(f"docs: {bad} file(s) differ from their runs: run `make docs`", file=sys.stderr)
        return 1
    print(f"docs: the generated sections agree with {len(runs(root))} committed run(s)")
    return 0


def makefile_var(root, name):
    m = re.search(rf"^{name}\s*:?=\s*(.*)$", (root / "Makefile").read_text(), re.M)
    return m.group(1).strip() if m else "?"


def git_commit(root):
    try:
        return subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty",
                               "--abbrev=12"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# The LSMs a bench run may have been made under (scripts/bench.sh BENCH_LSM)
LABELLING_LSMS = ("selinux",)


def active_lsm(doc):
    """The labelling LSM the bench guest ran with, if any."""
    active = doc.get("system", {}).get("lsm", "").split(",")
    return next((m for m in LABELLING_LSMS if m in active), None)


def add(root, a):
    src = Path(a.run_dir)
    if not src.is_dir():
        raise SystemExit(f"docs: {src}: not a directory")
    bench = src / "results.json"
    sumdir = src / "summary" if (src / "summary").is_dir() else src
    # make test's stage files: every <stage>.txt of a directory test.sh
    # wrote (wall_seconds, or a result= line), those of stages cut short too
    txt = [p for p in sorted(sumdir.glob("*.txt")) if p.name not in ("verbs-emul.txt", "meta.txt")]
    is_summary = (sumdir / "wall_seconds").exists() or any(
        l.startswith("result=") for p in txt for l in p.read_text().splitlines())
    stages = txt if is_summary else []
    if not bench.exists() and not stages:
        raise SystemExit(f"docs: {src} has neither results.json nor summary <stage>.txt files")
    doc = None
    if bench.exists():
        doc = json.loads(bench.read_text())
        errors = CR.check(doc, False)
        if errors:
            raise SystemExit("docs: refusing an incomplete bench run:\n  " + "\n  ".join(errors))
    inputs = ([bench] if doc else []) + stages
    when = a.date or datetime.datetime.fromtimestamp(
        max(p.stat().st_mtime for p in inputs), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    kernel = a.kernel
    if not kernel and doc:
        kernel = doc.get("system", {}).get("kernel")
    if not kernel and a.kernel_release_file and Path(a.kernel_release_file).exists():
        kernel = Path(a.kernel_release_file).read_text().strip()
    if not kernel:
        raise SystemExit("docs: which kernel ran? give --kernel")
    lsm = active_lsm(doc) if doc else None
    bench_cmd = "make bench-tiny" if doc and doc["config"].get("tiny") else "make bench"
    made_by = [bench_cmd + (f" BENCH_LSM={lsm}" if lsm else "")] if doc else []
    made_by += ["make test"] if stages else []
    meta = {"date": when, "kernel": kernel,
            "base": f"{makefile_var(root, 'BASE_PKG')} {makefile_var(root, 'BASE_VERSION')} "
                    f"({makefile_var(root, 'BASE_COMMIT')[:12]})",
            "commit": a.commit or git_commit(root), "made_by": ", ".join(made_by)}
    if stages:
        meta["plan"] = a.plan or ""

    label = a.label or lsm
    name = when[:10] + "-" + re.sub(r"[^A-Za-z0-9._+-]", "_", kernel) + (f"-{label}" if label else "")
    dest = root / "Documentation" / "runs" / name
    if dest.exists():
        old = read_meta(dest / "meta.txt")
        if old.get("commit") != meta["commit"]:
            raise SystemExit(f"docs: {dest} holds a run of commit {old.get('commit')}, not "
                             f"{meta['commit']}: remove it first, or give --date")
        # the same commit, kernel and day: a test run and a bench run join
        meta["made_by"] = ", ".join(dict.fromkeys(old.get("made_by", "").split(", ") + made_by))
        meta = {**old, **{k: v for k, v in meta.items() if v}}
    dest.mkdir(parents=True, exist_ok=True)
    if doc:
        shutil.copyfile(bench, dest / "results.json")
        if (src / "verbs-emul.txt").exists():
            shutil.copyfile(src / "verbs-emul.txt", dest / "verbs-emul.txt")
    if stages:
        (dest / "summary").mkdir(exist_ok=True)
        for p in stages:
            shutil.copyfile(p, dest / "summary" / p.name)
        if (sumdir / "wall_seconds").exists():
            shutil.copyfile(sumdir / "wall_seconds", dest / "summary" / "wall_seconds")
    (dest / "meta.txt").write_text("".join(f"{k}={v}\n" for k, v in meta.items()))
    print(f"docs: run {dest.relative_to(root)} ({meta['made_by']})")
    return generate(root)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(TOP), help="the repository (default: this script's)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("add", help="commit a run's files under Documentation/runs/, then generate")
    p.add_argument("run_dir")
    p.add_argument("--kernel", help="kernel release (default: the bench's, or --kernel-release-file)")
    p.add_argument("--kernel-release-file", help="e.g. the build's include/config/kernel.release")
    p.add_argument("--commit", help="this repository's commit the run was made at (default: HEAD)")
    p.add_argument("--date", help="'YYYY-MM-DD HH:MM UTC' (default: the run files' time)")
    p.add_argument("--plan", help="make test's stages in order (default: by name)")
    p.add_argument("--label", type=lambda s: re.sub(r"[^A-Za-z0-9._+-]", "_", s),
                   help="appended to the run's directory name, to tell apart runs of one "
                        "kernel release and day (default: the labelling LSM, if any)")
    sub.add_parser("generate", help="rewrite the generated sections from the committed runs")
    sub.add_parser("check", help="fail if a generated section differs from the committed runs")
    a = ap.parse_args(argv)
    root = Path(a.root).resolve()
    if a.cmd == "add":
        return add(root, a)
    return generate(root) if a.cmd == "generate" else check(root)


if __name__ == "__main__":
    sys.exit(main())
