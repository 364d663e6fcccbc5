#!/bin/bash
# Coccinelle: the rules `make coccicheck MODE=report` runs, with the same
# spatch options, on every C file the series adds or changes. A report the
# head has beyond the base's fails.
#
# What makes it quick, none of it skipping a check:
#  - each rule runs once over all the files that need it (one spatch per
#    rule, not per rule and file); its options are the ones scripts/coccicheck
#    gives it, recorded from a `make coccicheck` run with a recording spatch;
#  - a rule runs only on the files that can hold a match: spatch's own grep
#    query for the rule (`spatch --parse-cocci`) is applied first, looser
#    than spatch applies it (scripts/cocci-worth.py), so no file spatch
#    would try is left out; rules with no query run on every file;
#  - the base's reports are needed only for a file whose head report is not
#    empty: with nothing at the head, nothing can be new;
#  - reports are cached by file content (git blob) and spatch version, so a
#    warm run only checks what changed.
source "$(dirname "$0")/lib.sh"

cores=$(nproc)
spatch_version=$(spatch --version | awk 'NR == 1 { print $3 }')
WORK="$BUILD/cocci"
BASE_TREE="$CACHE/cocci-base"		# the base, for the base's reports
CACHED="$WORK/reports-$spatch_version"	# one file per blob: its reports
mkdir -p "$CACHED" "$WORK/queries"

# One file's reports from spatch's output, without line numbers (also those
# inside messages): code moving is not news
reports_of() { # FILE OUTDIR
	find "$2" -name '*.out' -exec cat {} + | { grep -E "^(\./)?$1:[0-9]" || true; } |
		sed -E -e 's/^(\.\/)?([^:]+):[0-9]+:[0-9-]+: /\2: /' \
			-e 's/(at|on) line [0-9]+/\1 line N/g' | sort
}

# The spatch command line scripts/coccicheck gives each rule for M=DIR,
# the directory of FILE (7.3's kbuild takes no file as M=), one per
# line (printf %q) in $WORK/record/commands, recorded by a stand-in spatch
# that runs nothing; check_files replaces its --dir
record_commands() { # DIR FILE
	local rec="$WORK/record"
	mkdir -p "$rec"
	cat > "$rec/spatch" <<-'EOF'
		#!/bin/bash
		case "${1:-}" in --version | --help) exec spatch "$@" ;; esac
		printf '%q ' "$@" >> "$SPATCH_RECORD"
		echo >> "$SPATCH_RECORD"
	EOF
	chmod +x "$rec/spatch"
	: > "$rec/commands"
	# J=1: no --jobs; check_files runs the rules side by side instead (a
	# rule's files are few, often one)
	(cd "$1" && SPATCH_RECORD="$rec/commands" make -s coccicheck MODE=report J=1 \
		M="$(dirname "$2")" SPATCH="$rec/spatch" > "$rec/log" 2>&1) ||
		{ cat "$rec/log"; die "make coccicheck (recording) failed"; }
	[ -s "$rec/commands" ] || { cat "$rec/log"; die "make coccicheck ran no rule"; }
}

# Run every rule on the FILEs of DIR that it can match; each file's
# reports land in $CACHED/BLOB
check_files() { # DIR FILE:BLOB...
	local dir=$1 out="$WORK/out" fb n=0 ran=0 line i
	shift
	local paths=()
	for fb in "$@"; do paths+=("${fb%%:*}"); done
	rm -rf "$out"
	mkdir -p "$out"
	record_commands "$dir" "${paths[0]}"
	while read -r line; do
		eval "local args=($line)"
		local rule="" virt=report
		for ((i = 0; i < ${#args[@]}; i++)); do
			case ${args[i]} in
			--cocci-file) rule=${args[i + 1]} ;;
			-D) virt=${args[i + 1]} ;;
			esac
		done
		n=$((n + 1))
		# the rule's grep query, cached by the rule's content
		local q
		# relative to the tree, or absolute (7.3's scripts/coccicheck)
		local rule_path=$rule
		[ "${rule#/}" != "$rule" ] || rule_path=$dir/$rule
		q="$WORK/queries/$(sha1sum < "$rule_path" | cut -c1-16)-$virt"
		if [ ! -f "$q" ]; then
			spatch --parse-cocci "$rule_path" -D "$virt" > "$q.all" 2>&1 || true
			sed -n '/^No grep query/p; /^Grep query/,$p' "$q.all" > "$q"
			rm -f "$q.all"
		fi
		local worth
		worth=$(cd "$dir" && python3 "$TOP/scripts/cocci-worth.py" "$q" "${paths[@]}")
		[ -n "$worth" ] || continue
		# the same command on those files, one group per file. With
		# --dir FILE, spatch would also run `cd FILE; git grep` for the
		# rule's tokens: the cd fails and it greps the whole tree, for
		# every rule and file (most of the 17 minutes this took).
		# --no-scanner leaves it to spatch's grep of each file itself.
		local groups="$out/$n.groups" cmd=()
		printf '%s\n\n' $worth > "$groups"
		for ((i = 0; i < ${#args[@]}; i++)); do
			if [ "${args[i]}" = --dir ]; then
				cmd+=(--file-groups "$groups" --no-scanner)
				i=$((i + 1))
			else
				cmd+=("${args[i]}")
			fi
		done
		ran=$((ran + 1))
		# spatch (without --jobs) uses one core: a rule per core at a time
		while [ "$(jobs -rp | wc -l)" -ge "$cores" ]; do wait -n || true; done
		(cd "$dir" && nice spatch "${cmd[@]}" > "$out/$n.out" 2>&1 ||
			echo "$n ${rule#./}" >> "$out/failed") &
	done < "$WORK/record/commands"
	wait
	if [ -s "$out/failed" ]; then
		read -r n rule < "$out/failed"
		cat "$out/$n.out"
		die "spatch failed on $rule (make coccicheck stops there too)"
	fi
	step "coccicheck:   $ran of $n rules can match one of these ${#paths[@]} files; run on those"
	rules_run=$((rules_run + ran))
	for fb in "$@"; do
		reports_of "${fb%%:*}" "$out" > "$CACHED/${fb#*:}.tmp"
		mv "$CACHED/${fb#*:}.tmp" "$CACHED/${fb#*:}"
	done
}

files=$(git -C "$TREE" diff --name-only --diff-filter=AM "$BASE_REF" "$SERIES_REF" -- '*.c')
total=$(echo "$files" | wc -w)
rules_run=0

# 1. the head: every file, unless its content was checked before
todo=()
for f in $files; do
	blob=$(git -C "$TREE" hash-object "$f")
	[ -f "$CACHED/$blob" ] || todo+=("$f:$blob")
done
step "coccicheck: the head: $total files, ${#todo[@]} not checked before"
[ ${#todo[@]} -eq 0 ] || check_files "$TREE" "${todo[@]}"

# 2. the base: only the files that have head reports (and a base version)
todo=()
for f in $files; do
	[ -s "$CACHED/$(git -C "$TREE" hash-object "$f")" ] || continue
	base_blob=$(git -C "$TREE" rev-parse -q --verify "$BASE_REF:$f" || true)
	[ -n "$base_blob" ] && [ ! -f "$CACHED/$base_blob" ] && todo+=("$f:$base_blob")
done
if [ ${#todo[@]} -gt 0 ]; then
	step "coccicheck: the base: ${#todo[@]} files with head reports"
	# A worktree of its own, left at the base: checking out the base in
	# make check's build tree would make its next build recompile
	[ -d "$BASE_TREE" ] ||
		git -C "$TREE" worktree add -q --detach "$BASE_TREE" "$BASE_REF"
	git -C "$BASE_TREE" checkout -q --detach "$BASE_REF"
	check_files "$BASE_TREE" "${todo[@]}"
fi

# 3. compare
status=0
reported=0
for f in $files; do
	head_reports="$CACHED/$(git -C "$TREE" hash-object "$f")"
	[ -s "$head_reports" ] || continue
	reported=$((reported + 1))
	base_blob=$(git -C "$TREE" rev-parse -q --verify "$BASE_REF:$f" || true)
	base_reports=/dev/null
	[ -z "$base_blob" ] || base_reports="$CACHED/$base_blob"
	new=$(comm -13 "$base_reports" "$head_reports")
	if [ -n "$new" ]; then
		echo "FAIL: new Coccinelle reports in $f:"
		echo "$new"
		status=1
	fi
done
summary_set files="$total" rules_run="$rules_run" with_reports="$reported"
[ $status -eq 0 ] && step "coccicheck: no new reports in $total files ($rules_run rule runs)"
exit $status
