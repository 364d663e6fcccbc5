#!/bin/bash
# Counts the gtest results of a guest log (tests/guest-run.sh output),
# per section and, for the end-to-end suites, per transport (ioctl: the
# raw guest's; libibverbs' are counted by rdma-core/guest.sh); checks
# every skip against the allow-list.  scripts/e2e.sh runs it.
#
#   summarise-guest-log.sh LOG ALLOW-LIST SUMMARY-OUT
#
# Writes SUMMARY-OUT as key=value lines:
#   unit_{passed,failed,skipped}            xrc_unit_tests in the guest
#   e2e_ioctl_{passed,failed,skipped}       end-to-end tests over ioctl
#   e2e_{passed,failed,skipped}             all end-to-end sections (the
#                                           same: ioctl is the only raw
#                                           transport)
#   e2e_skipped_allowed, e2e_skipped_unlisted
#   rmmod_{passed,failed,skipped}           device removal
#   noxrc_{passed,failed,skipped}           the xrc=0 section (in e2e_* too)
#   race_{result,seed,calls,procs,threads,kills,forks,events_injected}
#                                           the race fuzzer's XRC-RACE line
#   faults_{result,injected,survived,failed_calls,absorbed}
#                                           the fault sweep's XRC-FAULTS line
# Every end-to-end test of the raw guest counts as ioctl (the four verbs
# have had no write commands since series v4); a /write or /verbs case
# there is a stale or wrong binary and fails the summary.
# Exits 1 on an unlisted skip, an allow-list entry without a reason, a
# section that ran no test, or a failed test; 0 otherwise.
set -uo pipefail

[ $# -eq 3 ] || { sed -n '2,26s/^# \{0,1\}//p' "$0" >&2; exit 2; }
log=$1 allow=$2 out=$3
[ -f "$log" ] || { echo "summary: no such log: $log" >&2; exit 2; }
[ -f "$allow" ] || { echo "summary: no allow-list: $allow" >&2; exit 2; }

status=0
source "$(dirname "$0")/allow-list.sh"
allow_load "$allow" || status=1

# section<TAB>result<TAB>name for every finished test
results=$(tr -d '\r' < "$log" | awk -f "$(dirname "$0")/gtest-results.awk")

declare -A n
for k in unit rmmod noxrc e2e_ioctl; do
	for r in passed failed skipped; do n[${k}_$r]=0; done
done
skipped_allowed=0 skipped_unlisted=0
while IFS=$'\t' read -r sect res name; do
	[ -n "$sect" ] || continue
	case $res in OK) r=passed ;; FAILED) r=failed ;; *) r=skipped ;; esac
	case $sect in
	unit) key=unit ;;
	rmmod) key=rmmod ;;
	e2e | e2e-noxrc)
		case $name in
		*/verbs)	# counted by rdma-core/guest.sh, never here
			echo "summary: FAIL: $sect: $name: a libibverbs case in the raw guest"
			status=1
			continue ;;
		*/write)	# series v3's write commands: a binary from before v4
			echo "summary: FAIL: $sect: $name: a write-transport case (the verbs are ioctl only)"
			status=1
			continue ;;
		*) key=e2e_ioctl ;;
		esac
		[ "$sect" = e2e-noxrc ] && n[noxrc_$r]=$((n[noxrc_$r] + 1))
		;;
	*) continue ;;
	esac
	n[${key}_$r]=$((n[${key}_$r] + 1))
	if [ "$r" = skipped ]; then
		if allowed "$sect" "$name"; then
			[ "$key" = unit ] || [ "$key" = rmmod ] || skipped_allowed=$((skipped_allowed + 1))
		else
			echo "summary: FAIL: $sect: $name skipped, and it is not on $allow"
			[ "$key" = unit ] || [ "$key" = rmmod ] || skipped_unlisted=$((skipped_unlisted + 1))
			status=1
		fi
	fi
	if [ "$r" = failed ]; then
		echo "summary: FAIL: $sect: $name failed"
		status=1
	fi
done <<< "$results"

# Resource tracking and the rdma cgroup are shell checks, not gtest
# suites: each says passed.  grep reads to the end: with -q it could exit
# first, tr would then die of SIGPIPE, and pipefail would fail a check
# that passed.
declare -A shell_check
for c in restrack cgroup; do
	if tr -d '\r' < "$log" | grep "^\[$c\] passed" > /dev/null; then
		shell_check[$c]=passed
	else
		echo "summary: FAIL: the $c check did not pass (see $log)"
		shell_check[$c]=failed
		status=1
	fi
done

# The race fuzzer and the fault sweep print one key=value line each;
# each must be there and say result=passed.
tagline() { # TAG: the last such line, without its tag
	tr -d '\r' < "$log" | grep "^$1 " | tail -1 | sed "s/^$1 //"
}
kv() { # LINE KEY
	tr ' ' '\n' <<< "$1" | sed -n "s/^$2=//p"
}
race=$(tagline XRC-RACE)
faults=$(tagline XRC-FAULTS)
for t in race faults; do
	line=${!t}
	if [ "$(kv "$line" result)" != passed ]; then
		echo "summary: FAIL: the $t check did not pass (${line:-no XRC-${t^^} line}; see $log)"
		status=1
	fi
done

total() { echo $((n[${1}_passed] + n[${1}_failed] + n[${1}_skipped])); }
for s in unit e2e_ioctl rmmod noxrc; do
	if [ "$(total $s)" -eq 0 ]; then
		echo "summary: FAIL: no $s test ran (see $log)"
		status=1
	fi
done

{
	for k in unit e2e_ioctl; do
		for r in passed failed skipped; do echo "${k}_$r=${n[${k}_$r]}"; done
	done
	for r in passed failed skipped; do
		echo "e2e_$r=${n[e2e_ioctl_$r]}"
	done
	echo "e2e_skipped_allowed=$skipped_allowed"
	echo "e2e_skipped_unlisted=$skipped_unlisted"
	for k in noxrc rmmod; do
		for r in passed failed skipped; do echo "${k}_$r=${n[${k}_$r]}"; done
	done
	echo "restrack=${shell_check[restrack]}"
	echo "cgroup=${shell_check[cgroup]}"
	for k in result seed calls procs threads kills forks events_injected; do
		echo "race_$k=$(kv "$race" $k)"
	done
	for k in result injected survived failed_calls absorbed; do
		echo "faults_$k=$(kv "$faults" $k)"
	done
} > "$out"

printf '%-10s %7s %7s %8s\n' "" passed failed skipped
for k in unit e2e_ioctl noxrc rmmod; do
	printf '%-10s %7d %7d %8d\n' "${k#e2e_}" "${n[${k}_passed]}" "${n[${k}_failed]}" \
		"${n[${k}_skipped]}"
done
echo "(noxrc, the xrc=0 section, is counted in ioctl too; skips allowed" \
	"by the list: $skipped_allowed, not allowed: $skipped_unlisted)"
echo "race: ${race:-none}"
echo "faults: ${faults:-none}"
exit $status
