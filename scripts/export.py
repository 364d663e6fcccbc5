#!/usr/bin/env python3
"""Export the workbench series back into patches/ with git format-patch.

  export.py TREE BASE_REF SERIES_REF BASE_COMMIT [OUTDIR]

Serves the rdma-core series too: EXPORT_PATCHES names its patches/
directory (default: this repository's patches/) and EXPORT_PREFIX its
subject prefix (default "PATCH", or "PATCH vN" for SERIES_VERSION=N).


The cover letter's subject, date and text are kept from patches/, the
rest (numbering, shortlog, diffstat, base-commit) is regenerated, and
every option that could vary between machines is pinned, so that an
unchanged workbench exports byte for byte what patches/ already holds.
"""
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
PATCHES = Path(os.environ.get("EXPORT_PATCHES", TOP / "patches"))
COVER = "0000-cover-letter.patch"
SHORTLOG = re.compile(r"^\S.* \(\d+\):$", re.M)
# The series' version, in every subject: "[PATCH v3 n/m]"
VERSION = os.environ.get("SERIES_VERSION", "")
PREFIX = os.environ.get("EXPORT_PREFIX") or (
    f"PATCH v{VERSION}" if VERSION not in ("", "1") else "PATCH")


def old_cover():
    """Subject, Date and blurb of the cover letter in patches/, if any."""
    path = PATCHES / COVER
    if not path.exists():
        return None
    text = path.read_text()
    head, body = text.split("\n\n", 1)
    subject = re.search(r"^Subject: \[PATCH[^\]]*\] (.*)$", head, re.M).group(1)
    date = re.search(r"^Date: .*$", head, re.M).group(0)
    blurb = body[:SHORTLOG.search(body).start()].rstrip("\n")
    return subject, date, blurb


def format_patch(tree, base_ref, series_ref, base_commit, outdir):
    subprocess.run(
        ["git", "-C", tree,
         "-c", "core.abbrev=12", "-c", "diff.noprefix=false",
         "-c", "diff.mnemonicprefix=false", "-c", "format.signoff=false",
         "format-patch", "--quiet", "--zero-commit", "--no-signature",
         "--no-notes", "--no-thread", "--numbered", "--cover-letter",
         "--diff-algorithm=myers", f"--subject-prefix={PREFIX}",
         f"--base={base_commit}", "-o", outdir, f"{base_ref}..{series_ref}"],
        check=True)


def fill_cover(path, kept):
    text = path.read_text()
    if kept is None:
        print(f"note: no cover letter in {PATCHES}: write one in {COVER}")
        return
    subject, date, blurb = kept
    text = text.replace("*** SUBJECT HERE ***", subject, 1)
    text = text.replace("*** BLURB HERE ***", blurb, 1)
    text = re.sub(r"^Date: .*$", lambda _: date, text, count=1, flags=re.M)
    path.write_text(text)


def main():
    tree, base_ref, series_ref, base_commit = sys.argv[1:5]
    out = Path(sys.argv[5]) if len(sys.argv) > 5 else PATCHES
    kept = old_cover()
    with tempfile.TemporaryDirectory() as tmp:
        format_patch(tree, base_ref, series_ref, base_commit, tmp)
        fill_cover(Path(tmp) / COVER, kept)
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.patch"):
            old.unlink()
        for new in sorted(Path(tmp).iterdir()):
            (out / new.name).write_bytes(new.read_bytes())
            print(f"  {new.name}")


if __name__ == "__main__":
    main()
