#!/bin/bash
# ctest: summarise-guest-log.sh counts per transport (ioctl) and refuses skips
# that the allow-list does not name; summarise-section.sh does so for one
# section.  Fabricated guest logs, no guest.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sum="$here/summarise-guest-log.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
check() { # NAME WANT-RC LOG ALLOW [KEY=VALUE...]
	local name=$1 want=$2 log=$3 allow=$4 rc kv
	shift 4
	"$sum" "$log" "$allow" "$tmp/out" > "$tmp/stdout" 2>&1
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL $name: exit $rc, want $want"; cat "$tmp/stdout"; fails=$((fails + 1)); return
	fi
	for kv in "$@"; do
		grep -qx "$kv" "$tmp/out" || { echo "FAIL $name: no $kv in"; cat "$tmp/out"; fails=$((fails + 1)); }
	done
	echo "ok   $name"
}
log() { # sections from stdin
	cat > "$tmp/$1.log"
}
printf 'e2e Flaky.Test/* a reason\n' > "$tmp/allow"
printf 'e2e Flaky.Test/*\n' > "$tmp/allow-noreason"

log good <<'L'
XRC-SUITE=unit
[       OK ] Wire.Encodes (0 ms)
XRC-SUITE=e2e
[       OK ] Reg.Creates/ioctl (3 ms)
[       OK ] Reg.Other/ioctl (3 ms)
[       OK ] BadInput.Short (1 ms)
[       OK ] IoctlBadInput.Short (1 ms)
[  SKIPPED ] Flaky.Test/ioctl (0 ms)
[  SKIPPED ] Flaky.Test/ioctl
XRC-SUITE=restrack
[restrack] QP 17: dev=xrc_sim0 lqpn=17 type=10 kern=ib_uverbs
[restrack] passed
XRC-SUITE=cgroup
[cgroup] ioctl: two QPs, three references: hca_handle=1 hca_object=3
[cgroup] passed
XRC-SUITE=race
XRC-RACE result=passed seed=0x1f calls=1200 procs=3 threads=3 rounds=3 kills=4 forks=2 events_injected=90
XRC-SUITE=faults
XRC-FAULTS result=passed injected=80 survived=80 failed_calls=70 absorbed=10
XRC-SUITE=rmmod
[       OK ] Removal.Eio (9 ms)
XRC-SUITE=e2e-noxrc
[       OK ] NoXrc.Reg/ioctl (1 ms)
[       OK ] NoXrc.Unreg/ioctl (1 ms)
L
check counts-per-transport 0 "$tmp/good.log" "$tmp/allow" \
	unit_passed=1 e2e_ioctl_passed=6 e2e_ioctl_skipped=1 e2e_passed=6 \
	e2e_skipped=1 e2e_skipped_allowed=1 noxrc_passed=2 rmmod_passed=1 restrack=passed cgroup=passed \
	race_result=passed race_seed=0x1f race_calls=1200 race_procs=3 faults_injected=80 \
	faults_survived=80
check entry-without-reason 1 "$tmp/good.log" "$tmp/allow-noreason"

sed 's|Flaky.Test/ioctl|Reg.Third/ioctl|' "$tmp/good.log" > "$tmp/unlisted.log"
check unlisted-skip-fails 1 "$tmp/unlisted.log" "$tmp/allow" e2e_skipped_unlisted=1

sed 's|\[       OK \] Reg.Creates/ioctl (3 ms)|[  FAILED  ] Reg.Creates/ioctl (3 ms)|' "$tmp/good.log" > "$tmp/failed.log"
check failed-test-fails 1 "$tmp/failed.log" "$tmp/allow" e2e_ioctl_failed=1

# a /write case: a binary from before series v4 dropped the write commands
sed 's|Reg.Other/ioctl|Reg.Other/write|' "$tmp/good.log" > "$tmp/write.log"
check write-case-fails 1 "$tmp/write.log" "$tmp/allow" e2e_ioctl_passed=5

# gtest names the parameter of a failed parameterised test
sed 's|\[       OK \] NoXrc.Reg/ioctl (1 ms)|[  FAILED  ] NoXrc.Reg/ioctl, where GetParam() = ioctl (1 ms)|' \
	"$tmp/good.log" > "$tmp/failed-param.log"
check failed-param-test-counts 1 "$tmp/failed-param.log" "$tmp/allow" e2e_ioctl_failed=1 \
	noxrc_failed=1 e2e_ioctl_passed=5

sed 's|\[restrack\] passed|[restrack] FAILED: QP 17 is not listed|' "$tmp/good.log" > "$tmp/norestrack.log"
check restrack-failure-fails 1 "$tmp/norestrack.log" "$tmp/allow" restrack=failed
grep -v '^\[cgroup\] passed' "$tmp/good.log" > "$tmp/nocgroup.log"
check cgroup-failure-fails 1 "$tmp/nocgroup.log" "$tmp/allow" cgroup=failed restrack=passed

sed 's|^XRC-RACE result=passed|XRC-RACE result=failed|' "$tmp/good.log" > "$tmp/race.log"
check race-failure-fails 1 "$tmp/race.log" "$tmp/allow" race_result=failed
grep -v '^XRC-FAULTS' "$tmp/good.log" > "$tmp/nofaults.log"
check missing-fault-sweep-fails 1 "$tmp/nofaults.log" "$tmp/allow" faults_result=

grep -v 'rmmod\|Removal' "$tmp/good.log" > "$tmp/norm.log"
check missing-section-fails 1 "$tmp/norm.log" "$tmp/allow"

# every test skipped, as with a wrong device path
sed -E 's/\[       OK \]/[  SKIPPED ]/' "$tmp/good.log" > "$tmp/allskip.log"
check all-skipped-fails 1 "$tmp/allskip.log" "$tmp/allow"

# summarise-section.sh: one section, as rdma-core/guest.sh judges the
# suites over libibverbs
section() { # NAME WANT-RC LOG WANT-LINE
	local out rc
	out=$("$here/summarise-section.sh" "$3" e2e-verbs "$tmp/allow-verbs" 2>&1)
	rc=$?
	if [ "$rc" != "$2" ] || [ "$(tail -1 <<< "$out")" != "$4" ]; then
		echo "FAIL $1: exit $rc (want $2):"; echo "$out"; fails=$((fails + 1)); return
	fi
	echo "ok   $1"
}
printf 'e2e Reg.Bound/* not here\ne2e-verbs Reg.Bound/verbs a reason\n' > "$tmp/allow-verbs"
log verbs <<'L'
XRC-SUITE=e2e
[       OK ] Reg.Creates/ioctl (3 ms)
XRC-SUITE=e2e-verbs
[       OK ] Reg.Creates/verbs (3 ms)
[       OK ] Events.Once/verbs (600 ms)
[  SKIPPED ] Reg.Bound/verbs (0 ms)
XRC-SUITE=end
L
section verbs-section-counts 0 "$tmp/verbs.log" "e2e-verbs: passed=2 failed=0 skipped=1"
sed 's|\[       OK \] Events.Once/verbs|[  FAILED  ] Events.Once/verbs, where GetParam() = verbs|' \
	"$tmp/verbs.log" > "$tmp/verbs-failed.log"
section verbs-failed-test-fails 1 "$tmp/verbs-failed.log" "e2e-verbs: passed=1 failed=1 skipped=1"
sed 's|Reg.Bound/verbs|Reg.Other/verbs|' "$tmp/verbs.log" > "$tmp/verbs-unlisted.log"
section verbs-unlisted-skip-fails 1 "$tmp/verbs-unlisted.log" "e2e-verbs: passed=2 failed=0 skipped=1"
grep -v '/verbs' "$tmp/verbs.log" > "$tmp/verbs-empty.log"
section verbs-empty-section-fails 1 "$tmp/verbs-empty.log" "e2e-verbs: passed=0 failed=0 skipped=0"

[ "$fails" -eq 0 ] && echo "summary checks passed" || exit 1
