# The skip allow-list (tests/e2e-skip-allow.txt), for the summarise
# scripts to source: lines "SUITE PATTERN REASON...", # comments.
#
#   allow_load FILE     read it; report each entry without a reason and
#                       return 1 if there was one
#   allowed SUITE NAME  does an entry of SUITE match NAME (a glob)?

declare -a allow_suite=() allow_pat=()

allow_load() { # FILE
	local s p reason rc=0
	while read -r s p reason; do
		case $s in '' | '#'*) continue ;; esac
		if [ -z "${reason:-}" ]; then
			echo "summary: FAIL: allow-list entry without a reason: $s $p"
			rc=1
		fi
		allow_suite+=("$s")
		allow_pat+=("$p")
	done < "$1"
	return $rc
}

allowed() { # SUITE NAME
	local i
	for i in "${!allow_suite[@]}"; do
		# shellcheck disable=SC2053
		[ "${allow_suite[$i]}" = "$1" ] && [[ $2 == ${allow_pat[$i]} ]] && return 0
	done
	return 1
}
