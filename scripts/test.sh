#!/bin/bash
# make test: run every stage in turn, whatever became of the ones before,
# then print the table (scripts/summary.sh). Fails if any stage failed.
#   test.sh STAGE...      (the Makefile passes $(TEST_STAGES))
#
# Each stage writes $BUILD/summary/<stage>.txt: its own counts as
# key=value lines (summary_set in lib.sh, through $SUMMARY), then this
# script adds result=, seconds= and cpu_seconds=. Counts of stages whose scripts do not
# write them are read here from the stage's own output files.
source "$(dirname "$0")/lib.sh"

SUMDIR="$BUILD/summary"
MAKE=${MAKE:-make}
rm -rf "$SUMDIR"
mkdir -p "$SUMDIR"

run_stage() { # STAGE
	case $1 in
	abi) "$TOP/scripts/abi-check.sh" ;;
	roundtrip) "$TOP/scripts/roundtrip.sh" ;;
	check) "$TOP/scripts/check-series.sh" ;;
	coccinelle) "$TOP/scripts/coccicheck.sh" ;;
	kunit) "$TOP/scripts/kunit.sh" ;;
	e2e) "$TOP/scripts/e2e.sh" ;;
	backport) $MAKE -s --no-print-directory backport-test ;;
	bench-tiny) "$TOP/scripts/bench.sh" tiny ;;
	*) $MAKE -s --no-print-directory "$1" ;;	# any other make target
	esac
}

# Counts a stage's script leaves in its own files; only files written
# during this run count (newer than STAMP)
counts_from_outputs() { # STAGE STAMP
	local f
	case $1 in
	roundtrip)
		echo "files=$(ls "$TOP/patches" | wc -l)" ;;
	kunit)
		f="$KBUILD/kunit-results.log"
		[ "$f" -nt "$2" ] || return 0
		grep -oE 'Ran [0-9]+ tests: .*' "$f" | tail -1 |
			sed -E 's/^Ran ([0-9]+) tests:/cases=\1/; s/: /=/g; s/,//g' | tr ' ' '\n' ;;
	e2e)
		f="$BUILD/e2e/summary.txt"
		[ "$f" -nt "$2" ] && grep -E '^[A-Za-z0-9_]+=' "$f" || true ;;
	bench-tiny)
		f="$BUILD/bench-tiny/results.json"
		[ "$f" -nt "$2" ] || return 0
		python3 -c 'import json, sys; print("rows=%d" % len(json.load(open(sys.argv[1]))["rows"]))' "$f" || true ;;
	esac
}

for stage in "$@"; do
	export SUMMARY="$SUMDIR/$stage.txt"
	stamp="$SUMDIR/.$stage.start"
	: > "$SUMMARY"
	touch "$stamp"
	step "test: stage $stage"
	start=$(date +%s)
	# The subshell's children's CPU time (the second line of bash's times,
	# not in a pipeline: that would be a fork with no children) is what
	# the stage cost: the budget is wall time on two cores
	if (rc=0; run_stage "$stage" || rc=$?; times > "$SUMMARY.cpu"; exit $rc); then
		result=passed
	else
		result=FAILED
	fi
	cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } }
		END { printf "%d", s + 0.5 }' "$SUMMARY.cpu" 2>/dev/null || echo 0)
	# the table's result and time are these; a count the stage script
	# gave itself wins over one read from its files
	counts_from_outputs "$stage" "$stamp" > "$SUMMARY.files" || true
	{
		grep -vE '^(result|seconds|cpu_seconds)=' "$SUMMARY" || true
		awk -F= 'FILENAME == ARGV[1] { have[$1] = 1; next } !($1 in have)' \
			"$SUMMARY" "$SUMMARY.files"
		printf 'result=%s\nseconds=%s\ncpu_seconds=%s\n' "$result" $(($(date +%s) - start)) "$cpu"
	} > "$SUMMARY.new"
	mv "$SUMMARY.new" "$SUMMARY"
	rm -f "$SUMMARY.files" "$SUMMARY.cpu" "$stamp"
	[ "$result" = passed ] || step "test: stage $stage FAILED; going on with the others"
done

command -v ccache > /dev/null && [ -d "${CCACHE_DIR:-}" ] &&
	step "test: ccache: $(ccache --print-stats 2>/dev/null |
		awk -F'\t' '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
			$1 == "cache_miss" { m = $2 } END { printf "%d hits, %d misses (all runs)", h, m }')"
exec "$TOP/scripts/summary.sh" "$@"
