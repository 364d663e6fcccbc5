#!/bin/bash
# make test: run every stage of the plan, whatever became of the ones
# before, then print the table (scripts/summary.sh). Fails if any stage
# failed.
#   test.sh PLAN...       (the Makefile passes $(TEST_PLAN))
#
# The plan is stage names in phases and lanes: "/" ends a phase, and the
# next starts when all of it has ended; "+" starts another lane of the
# same phase, run side by side with the first. Within a lane, stages run
# one after another. Every lane prints as it goes, a lane after the first
# with its lines prefixed "lane N | ". A stage that uses what another
# one builds (needs() below) waits for that one to end first.
#
# Each stage writes $BUILD/summary/<stage>.txt: its own counts as
# key=value lines (summary_set in lib.sh, through $SUMMARY), then this
# script adds result=, seconds= and cpu_seconds=. Counts of stages whose
# scripts do not write them are read here from the stage's own output
# files. The run's own wall time goes to $BUILD/summary/wall_seconds.
source "$(dirname "$0")/lib.sh"

SUMDIR="$BUILD/summary"
MAKE=${MAKE:-make}

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

# One stage, start to end, into its summary file
record_stage() { # STAGE
	local stage=$1 stamp start result cpu
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
	# the last step: another lane waits for result= (wait_for_needs)
	mv "$SUMMARY.new" "$SUMMARY"
	rm -f "$SUMMARY.files" "$SUMMARY.cpu" "$stamp"
	[ "$result" = passed ] || step "test: stage $stage FAILED; going on with the others"
}

# What a stage uses that another stage builds: rdma-core-guest boots the
# libibverbs that rdma-core-test builds (both would run ninja in one tree);
# rxe-guest applies the rxe provider's series on top of that workbench and
# packs its pyverbs
needs() { # STAGE
	case $1 in
	rdma-core-guest|rxe-guest) echo rdma-core-test ;;
	# the backport's boot proof builds the suites over libibverbs where
	# rdma-core-guest builds them
	backport) echo rdma-core-test rdma-core-guest ;;
	esac
}

# Where each stage stands: phase, lane, place in the lane
declare -A phase_of=() lane_of=() place_of=()
phases=()	# each: its lanes, separated by "+"
plan_parse() { # PLAN...
	local word phase=0 lane=0 place=0 cur=""
	for word in "$@"; do
		case $word in
		/) phases+=("$cur"); cur="" phase=$((phase + 1)) lane=0 place=0 ;;
		+) cur+=" +" lane=$((lane + 1)) place=0 ;;
		*)
			[ -z "${phase_of[$word]:-}" ] || die "plan: $word twice"
			phase_of[$word]=$phase lane_of[$word]=$lane place_of[$word]=$place
			place=$((place + 1))
			cur+=" $word" ;;
		esac
	done
	phases+=("$cur")
}
# A need that the plan cannot meet would wait for ever: refuse the plan
plan_check() {
	local s n
	for s in "${!phase_of[@]}"; do
		for n in $(needs "$s"); do
			[ -n "${phase_of[$n]:-}" ] || continue	# not in this run
			if [ "${phase_of[$n]}" -gt "${phase_of[$s]}" ] ||
				{ [ "${phase_of[$n]}" -eq "${phase_of[$s]}" ] &&
				  [ "${lane_of[$n]}" -eq "${lane_of[$s]}" ] &&
				  [ "${place_of[$n]}" -gt "${place_of[$s]}" ]; }; then
				die "plan: $s needs $n, which runs after it"
			fi
		done
	done
}
# A stage has ended when its summary has result=, or when its lane has
# ended without it (a lane stopped short: go on, whatever became of it)
stage_ended() { # STAGE
	grep -q '^result=' "$SUMDIR/$1.txt" 2>/dev/null ||
		[ -f "$SUMDIR/.lane-${phase_of[$1]}-${lane_of[$1]}.done" ]
}
wait_for_needs() { # STAGE
	local n
	for n in $(needs "$1"); do
		[ -n "${phase_of[$n]:-}" ] || continue
		stage_ended "$n" && continue
		step "test: $1 waits for $n"
		until stage_ended "$n"; do sleep 5; done
	done
}
run_lane() { # PHASE LANE STAGE...
	local s
	# shellcheck disable=SC2064 # the marker's name is fixed now
	trap "touch '$SUMDIR/.lane-$1-$2.done'" EXIT
	shift 2
	for s in "$@"; do
		wait_for_needs "$s"
		record_stage "$s"
	done
}

# Each lane runs as a process group of its own (set -m), so that a stop
# (Ctrl-C, a CI cancel, this script failing) stops every lane's stages.
# The first lane prints as it goes; the others too, each line prefixed
# with its lane, so that a log cut short still has them.
lane_pids=()
stop_lanes() {
	local p
	for p in "${lane_pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
}
start_lane() { # PHASE LANE STAGE...
	set -m
	if [ "$2" -eq 0 ]; then
		(run_lane "$@") < /dev/null &
	else
		# shellcheck disable=SC2030 # pipefail stays in the subshell
		(set +o pipefail; run_lane "$@" 2>&1 | sed -u "s/^/lane $(($2 + 1)) | /") < /dev/null &
	fi
	set +m
	lane_pids+=($!)
}

plan=("$@")
plan_parse "$@"
plan_check
rm -rf "$SUMDIR"
mkdir -p "$SUMDIR"
trap stop_lanes EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
run_start=$(date +%s)
for ((p = 0; p < ${#phases[@]}; p++)); do
	IFS=+ read -ra lanes <<< "${phases[p]}"
	lane_pids=()
	for ((l = 0; l < ${#lanes[@]}; l++)); do
		# shellcheck disable=SC2086 # a lane is a list of names
		set -- ${lanes[l]}
		[ $# -gt 0 ] || continue
		[ "$l" -eq 0 ] || step "test: lane $((l + 1)), beside lane 1: $*"
		start_lane "$p" "$l" "$@"
	done
	for pid in "${lane_pids[@]}"; do wait "$pid" || true; done
done
lane_pids=()
echo $(($(date +%s) - run_start)) > "$SUMDIR/wall_seconds"

command -v ccache > /dev/null && [ -d "${CCACHE_DIR:-}" ] &&
	step "test: ccache: $(ccache --print-stats 2>/dev/null |
		awk -F'\t' '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
			$1 == "cache_miss" { m = $2 } END { printf "%d hits, %d misses (all runs)", h, m }')"
# shellcheck disable=SC2046 # stage names, in the plan's order
exec "$TOP/scripts/summary.sh" $(printf '%s\n' "${plan[@]}" | grep -vxE '[/+]')
