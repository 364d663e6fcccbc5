"""Tests of scripts/docs.py:  python3 -m unittest discover -s scripts -p 'test_docs.py'

Everything here is a FIXTURE of docs.py's input format, not a result:
a bench document built row by row from the rows check-results.py's
expected() demands (every figure 1.0 or a round count), and summary
files shaped as scripts/test.sh writes them. The kernel release is
"0.0-fixture" and the date 2000-01-01, so none of it can pass for a run.
"""
import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs  # noqa: E402

CR = docs.CR
FIXTURE_DATE = "2000-01-01 00:00 UTC"
PAGE = "# {title}\n\nText before.\n\n<!-- generated: {name} begin -->\n<!-- generated: {name} end -->\n\nText after.\n"
MAKEFILE = "BASE_PKG     := linux-source-fixture\nBASE_VERSION := 0.0-1\nBASE_COMMIT  := " + "f" * 40 + "\n"


def section_of(rid):
    """The report section of a row id, as xrc_bench files them (report.cpp)."""
    head = rid.split(".", 1)[0]
    return {"ratio": "ratio", "floor": "floor", "lat": "latency", "held": "held",
            "files": "files", "close": "close", "close_ratio": "close", "mem": "memory",
            "mem_ratio": "memory", "scale": "scale", "scale_ratio": "scale", "mpi": "mpi",
            "mpi_ratio": "mpi", "emul": "emul"}[head]


def unit_of(rid):
    if rid.startswith(("lat.", "held.", "files.")):
        return "us"
    if rid.startswith("close."):
        return "ms"
    if rid.startswith("mem.") or ".bytes." in rid:
        return "bytes"
    return "x"


def bench_fixture(tiny=True):
    """A complete xrc-rcv-bench/1 document: every row check-results.py
    expects for this configuration, each figure 1.0."""
    cfg = {"phases": ",".join(CR.PHASES), "trials": 3, "batch": 2, "close_trials": 3,
           "mem_trials": 3, "scale_trials": 3, "mpi_trials": 3, "held": [1, 10],
           "files": [1, 2], "close": [10, 100], "mpi_qps": [16, 160], "mpi_procs": 4,
           "mem_regs": 10, "single_files": 2, "emul_transport": "fixture", "tiny": tiny}
    _, want = CR.expected(cfg)
    rows = []
    for rid, (n, extras) in want.items():
        row = {"id": rid, "section": section_of(rid), "unit": unit_of(rid),
               "label": f"fixture row: {rid}", "median": 1.0, "p25": 1.0, "p75": 1.0,
               "min": 1.0, "max": 1.0, "n": n}
        row.update({e: 1.0 for e in extras})
        if "regs" in extras:
            row["regs"] = int(rid.rsplit(".", 1)[1]) * cfg["mpi_procs"]
        rows.append(row)
    slab = {v: {"kmalloc-fixture": {"objs_per_reg": 1.0, "bytes_per_reg": 1.0}}
            for v in CR.MEM_VARIANTS}
    return {"schema": CR.SCHEMA, "wall_s": 1.0, "config": cfg, "slab": slab,
            "system": {"kernel": "0.0-fixture", "cpus": 2, "clocksource": "fixture"},
            "rows": rows}


def summary_fixture(d):
    """make test's summary directory, as scripts/test.sh leaves it."""
    d.mkdir(parents=True)
    (d / "tree.txt").write_text("result=passed\nseconds=59\ncpu_seconds=61\n")
    (d / "kunit.txt").write_text("boots=2\ncases=3\npassed=3\nresult=passed\nseconds=125\ncpu_seconds=240\n")
    (d / "e2e.txt").write_text("e2e_ioctl_passed=7\nresult=FAILED\nseconds=60\ncpu_seconds=30\n")
    (d / "check.txt").write_text("")  # a stage stopped before it ended
    (d / "wall_seconds").write_text("150\n")


class DocsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name) / "repo"
        (self.root / "Documentation").mkdir(parents=True)
        for name, page in docs.PAGES.items():
            (self.root / "Documentation" / page).write_text(PAGE.format(title=name, name=name))
        (self.root / "Makefile").write_text(MAKEFILE)
        self.scratch = Path(self.tmp.name) / "cache"

    def tearDown(self):
        self.tmp.cleanup()

    def run_docs(self, *args):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            rc = docs.main(["--root", str(self.root), *args])
        return rc, out.getvalue()

    def page(self, name):
        return (self.root / "Documentation" / docs.PAGES[name]).read_text()

    def add_bench(self, doc=None, tiny=True):
        d = self.scratch / "bench"
        d.mkdir(parents=True, exist_ok=True)
        (d / "results.json").write_text(json.dumps(doc or bench_fixture(tiny)))
        return self.run_docs("add", str(d), "--commit", "fixture0commit", "--date", FIXTURE_DATE)

    def test_no_runs_leaves_the_sections_empty(self):
        self.assertEqual(self.run_docs("check")[0], 0)
        self.assertEqual(self.run_docs("generate")[0], 0)
        self.assertIn("begin -->\n<!-- generated: performance end", self.page("performance"))

    def test_bench_run_is_committed_and_shown_with_its_provenance(self):
        self.assertEqual(self.add_bench()[0], 0)
        run = self.root / "Documentation" / "runs" / "2000-01-01-0.0-fixture"
        meta = docs.read_meta(run / "meta.txt")
        self.assertEqual(meta["kernel"], "0.0-fixture")
        self.assertEqual(meta["commit"], "fixture0commit")
        self.assertEqual(meta["base"], "linux-source-fixture 0.0-1 (ffffffffffff)")
        self.assertEqual(meta["made_by"], "make bench-tiny")
        self.assertTrue((run / "growth.svg").exists())
        perf = self.page("performance")
        self.assertIn("`make bench-tiny`, 2000-01-01 00:00 UTC; kernel `0.0-fixture`; "
                      "base linux-source-fixture 0.0-1 (ffffffffffff); commit `fixture0commit`", perf)
        self.assertIn("the figures are not a measurement", perf)
        self.assertIn(CR.markdown(bench_fixture()).splitlines()[-1], perf)
        self.assertTrue(perf.startswith("# performance\n\nText before."))
        self.assertTrue(perf.endswith("end -->\n\nText after.\n"))
        self.assertIn("begin -->\n<!-- generated: testing end", self.page("testing"))
        self.assertEqual(self.run_docs("check")[0], 0)

    def test_a_run_under_selinux_gets_a_directory_of_its_own(self):
        self.assertEqual(self.add_bench(tiny=False)[0], 0)
        doc = bench_fixture(False)
        doc["system"]["lsm"] = "capability,selinux"
        self.assertEqual(self.add_bench(doc)[0], 0)
        runs = self.root / "Documentation" / "runs"
        meta = docs.read_meta(runs / "2000-01-01-0.0-fixture-selinux" / "meta.txt")
        self.assertEqual(meta["made_by"], "make bench BENCH_LSM=selinux")
        self.assertEqual(docs.read_meta(runs / "2000-01-01-0.0-fixture" / "meta.txt")["made_by"],
                         "make bench")
        perf = self.page("performance")
        self.assertIn("`make bench BENCH_LSM=selinux`", perf)
        self.assertIn("LSMs capability,selinux", perf)
        self.assertEqual(self.run_docs("check")[0], 0)

    def test_a_label_tells_apart_two_runs_of_one_kernel_and_day(self):
        self.assertEqual(self.add_bench(tiny=False)[0], 0)
        d = self.scratch / "bench"
        rc, _ = self.run_docs("add", str(d), "--commit", "fixture1commit", "--date", FIXTURE_DATE,
                              "--label", "second run")
        self.assertEqual(rc, 0)
        meta = docs.read_meta(self.root / "Documentation" / "runs" /
                              "2000-01-01-0.0-fixture-second_run" / "meta.txt")
        self.assertEqual(meta["commit"], "fixture1commit")
        self.assertEqual(self.run_docs("check")[0], 0)

    def test_an_incomplete_bench_run_is_refused(self):
        doc = bench_fixture()
        doc["rows"] = doc["rows"][1:]
        with self.assertRaises(SystemExit) as e:
            self.add_bench(doc)
        self.assertIn("missing row", str(e.exception))
        self.assertFalse((self.root / "Documentation" / "runs").exists())

    def test_test_run_table_counts_as_summary_sh_does(self):
        summary_fixture(self.scratch / "summary")
        rc, _ = self.run_docs("add", str(self.scratch / "summary"), "--kernel", "0.0-fixture",
                              "--commit", "fixture0commit", "--date", FIXTURE_DATE,
                              "--plan", "tree kunit e2e check")
        self.assertEqual(rc, 0)
        t = self.page("testing")
        lines = [l for l in t.splitlines() if l.startswith("| `")]
        self.assertEqual([l.split("`")[1] for l in lines], ["tree", "kunit", "e2e", "check"])
        self.assertIn("| `kunit` | passed | 2m05s | 4m00s | `boots=2` `cases=3` `passed=3` |", t)
        self.assertIn("| `e2e` | FAILED | 1m00s | 30s | `e2e_ioctl_passed=7` |", t)
        self.assertIn("| `check` | not run | - | - |  |", t)
        self.assertIn("| total | | 2m30s | 5m31s | (the stages' times add up to 4m04s: lanes overlap) |", t)
        self.assertIn("**2 passed, 2 failed**", t)
        self.assertEqual(self.run_docs("check")[0], 0)

    def test_a_test_run_and_a_bench_run_of_one_commit_and_day_share_a_directory(self):
        summary_fixture(self.scratch / "summary")
        self.run_docs("add", str(self.scratch / "summary"), "--kernel", "0.0-fixture",
                      "--commit", "fixture0commit", "--date", FIXTURE_DATE)
        self.add_bench()
        runs = list((self.root / "Documentation" / "runs").iterdir())
        self.assertEqual(len(runs), 1)
        self.assertEqual(docs.read_meta(runs[0] / "meta.txt")["made_by"], "make test, make bench-tiny")

    def test_another_commit_does_not_overwrite_a_run(self):
        self.add_bench()
        d = self.scratch / "bench"
        with self.assertRaises(SystemExit):
            self.run_docs("add", str(d), "--commit", "othercommit", "--date", FIXTURE_DATE)

    def test_check_fails_on_a_hand_edited_section_and_generate_mends_it(self):
        self.add_bench(tiny=False)
        page = self.root / "Documentation" / "performance.md"
        page.write_text(page.read_text().replace("| 1.00 [1.00, 1.00] |", "| 0.42 [0.40, 0.45] |", 1))
        rc, out = self.run_docs("check")
        self.assertEqual(rc, 1)
        self.assertIn("0.42", out)
        self.run_docs("generate")
        self.assertEqual(self.run_docs("check")[0], 0)
        self.assertNotIn("not a measurement", self.page("performance"))

    def test_check_fails_when_a_run_is_removed_but_its_tables_stay(self):
        self.add_bench()
        run = self.root / "Documentation" / "runs" / "2000-01-01-0.0-fixture"
        for p in run.iterdir():
            p.unlink()
        run.rmdir()
        self.assertEqual(self.run_docs("check")[0], 1)

    def test_a_page_without_markers_is_an_error(self):
        (self.root / "Documentation" / "testing.md").write_text("# testing\n")
        with self.assertRaises(SystemExit):
            self.run_docs("generate")


if __name__ == "__main__":
    unittest.main()
