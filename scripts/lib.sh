# Shared helpers for the workbench scripts. Source it; do not run it.
# Every path and pin comes from the environment the Makefile exports.
set -euo pipefail

: "${CACHE:?CACHE is set by the Makefile}"
: "${BASE_COMMIT:?}" "${BASE_PKG:?}" "${BASE_VERSION:?}"

SRC_REPO="$CACHE/src/$BASE_PKG"		# the pristine base, as a git repo
TREE="${TREE:-$CACHE/tree}"		# the workbench: base + the series
KTREE="${KTREE:-$TREE-guest}"		# the guest kernel's: + patches/rxe/ (guest-tree.sh)
BASE_REF=xrc-rcv/base			# branch names, also in a KERNEL_SRC repo
SERIES_REF=${SERIES_REF:-xrc-rcv/series}
CHECK_TREE="${CHECK_TREE:-$CACHE/check}"		# where each patch is built in turn
BUILD="$CACHE/build"			# every O= build directory
TOP="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Kernel builds compile through ccache, its objects kept in the cache: a
# checkout or a re-applied series that brings back content compiled
# before costs no compile. ccache replays the compiler's warnings, so the
# W=1 findings of a cached object are the same. Use: make CC="$KCC".
export CCACHE_DIR="$CACHE/ccache"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-10G}"
# Depend mode: ccache reads the headers a file used from the compiler's
# own -MD output instead of running the preprocessor first. A miss (every
# file of a cold build) costs about 15% more CPU than the compiler alone
# that way, against about 30% in the default mode (8 KASAN objects of the
# kernel, timed one after the other). Direct hits are as before; a hit
# through the preprocessor (an edit that leaves the preprocessed source
# the same, such as a header comment that keeps the line numbers) is a
# miss now. A miss is only time, never a wrong object.
export CCACHE_DEPEND=1
KCC="ccache gcc"

# kunit.py exec through QEMU with TCG only (scripts/tcg/ says why). No
# __pycache__ in the tree: scripts/kernel.sh counts files git does not
# track as part of what the kernel is built from.
export PYTHONDONTWRITEBYTECODE=1
kunit_py() { PATH="$TOP/scripts/tcg:$PATH" python3 "$TREE/tools/testing/kunit/kunit.py" "$@"; }

# A step and how far along it is, so long runs are readable in CI logs.
step() { printf '==> [%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The series in order, cover letter excluded. SERIES_DIR names another
# series than patches/ (the backport's frozen one).
SERIES_DIR="${SERIES_DIR:-$TOP/patches}"
series_patches() { ls "$SERIES_DIR"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-; }

# Run a long command with its output in LOG, printing every minute how many
# objects exist under DIR so far, so that a 15-minute build is not silent.
with_progress() { # LOG DIR CMD...
	local log=$1 dir=$2
	shift 2
	"$@" > "$log" 2>&1 &
	local pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 60
		kill -0 "$pid" 2>/dev/null &&
			step "  ... $(find "$dir" -name '*.o' 2>/dev/null | wc -l) objects built"
	done
	wait "$pid"
}

# How many KUnit cases the series' suites have, all told (kunit/expected-cases)
kunit_expected_cases() {
	awk '!/^#/ && NF == 2 { n += $2 } END { print n + 0 }' "$TOP/kunit/expected-cases"
}

# The make test summary (scripts/test.sh, scripts/summary.sh): a stage adds
# its counts as key=value lines to $SUMMARY, which scripts/test.sh sets to
# $BUILD/summary/<stage>.txt; run outside make test, nothing is written.
summary_set() { # KEY=VALUE...
	[ -n "${SUMMARY:-}" ] || return 0
	printf '%s\n' "$@" >> "$SUMMARY"
}
