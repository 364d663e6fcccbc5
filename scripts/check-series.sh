#!/bin/bash
# Check every patch of the series on its own, as a reviewer would:
#  - checkpatch.pl --strict on the patch file;
#  - the series applied up to that patch builds with W=1 and sparse (C=1),
#    and adds no compiler or sparse finding over the base tree;
#  - scripts/kernel-doc -none reports nothing new on the files the patch
#    touches (nothing it did not report on them before the patch).
# Accepted findings, each with its reason, are in scripts/check-allow.
source "$(dirname "$0")/lib.sh"

# CHECK_OUT, CHECK_LOGS and CHECK_CONFIG (a fragment added to the
# configuration) let another series of the same base be checked beside
# this one (rxe/rxe.mk)
OUT="${CHECK_OUT:-$BUILD/check}"
TARGETS=(drivers/infiniband/ drivers/net/ethernet/mellanox/mlx4/)
LOGS="${CHECK_LOGS:-$BUILD/check-logs}"
findings() { python3 "$TOP/scripts/findings.py" "$@"; }
kmake() { nice make -s -C "$CHECK_TREE" O="$OUT" -j"$(nproc)" CC="$KCC" W=1 "$@"; }

mkdir -p "$LOGS"
status=0
fail() { printf 'FAIL: %s\n' "$*"; status=1; }

# 1. checkpatch, on the patches as they will be mailed
for p in $(series_patches); do
	name=$(basename "$p")
	# Debian's python3 has the modules spdxcheck.py needs (ply, git)
	PATH=/usr/bin:$PATH "$TREE/scripts/checkpatch.pl" --strict --terse \
		--showfile --no-summary "$p" > "$LOGS/$name.checkpatch" 2>&1 || true
	found=$(sed -nE 's/^([^:]*):[0-9]+: (WARNING|ERROR|CHECK): /\1\t\2\t/p' \
		"$LOGS/$name.checkpatch")
	other=$(grep -vE '^[^:]*:[0-9]+: (WARNING|ERROR|CHECK): ' "$LOGS/$name.checkpatch" || true)
	printf '%s\n' "$found" | sed '/^$/d' > "$LOGS/$name.checkpatch.found"
	: > "$LOGS/empty"
	if [ -n "$other" ]; then
		fail "checkpatch did not run cleanly on $name:"
		echo "$other"
	elif ! findings new "$LOGS/empty" "$LOGS/$name.checkpatch.found"; then
		fail "checkpatch --strict: $name"
	else
		step "check: checkpatch --strict clean: $name"
	fi
done

# 2. the base tree's own findings, once per base and configuration
if [ ! -d "$CHECK_TREE" ]; then
	git -C "$TREE" worktree add -q --detach "$CHECK_TREE" "$BASE_REF"
fi
mkdir -p "$OUT" "$LOGS/built"
cat "$TOP/kunit/.kunitconfig" "$TOP/scripts/check.config" ${CHECK_CONFIG:+"$CHECK_CONFIG"} > "$OUT/.config.want"
# What the objects in $OUT were built from: "<tree before> <tree>" of the
# last build that went through, so that a patch is always built right
# after the tree before it and compiles exactly what it changes
built_from="$OUT/.built-from"
tree_of() { git -C "$TREE" rev-parse "$1^{tree}"; }
configure() { # COMMIT
	git -C "$CHECK_TREE" checkout -q --detach "$1"
	# Options a patch adds (its KUnit suite) only exist from that patch on
	cp "$OUT/.config.want" "$OUT/.config"
	make -s -C "$CHECK_TREE" O="$OUT" CC="$KCC" olddefconfig
}
if ! cmp -s "$OUT/.config.want" "$OUT/.config.from" || [ ! -f "$LOGS/baseline" ]; then
	rm -f "$LOGS/baseline" "$built_from"
	configure "$BASE_REF"
	cp "$OUT/.config.want" "$OUT/.config.from"
	step "check: building the base with W=1 and sparse on every file"
	kmake C=2 "${TARGETS[@]}" > "$LOGS/base.log" 2>&1 || die "base does not build: $LOGS/base.log"
	findings extract "$CHECK_TREE" "$LOGS/base.log" > "$LOGS/baseline"
	echo "base $(tree_of "$BASE_REF")" > "$built_from"
fi
# The tree's scripts/checker-valid.sh turns C= off when sparse cannot
# parse the kernel (7.3 needs __typeof_unqual__, which Debian's sparse
# 0.6.4, the newest Debian ships, lacks): then no patch is checked by
# sparse, and the summary says so
sparse=ran
! grep -q 'specified, but .* is not available or not up to date' "$LOGS/base.log" || sparse=not-run

# A patch's build log is kept under a key of everything its findings
# depend on: the tree before it, its own tree, the configuration, the
# compiler and sparse, and this script (its make command lines). The same
# key gives the same log, so a patch built before is not built again; its
# findings are still compared, and kernel-doc still run, every time.
# kernel-doc's findings on FILE under DIR, without line numbers, in both
# of its formats: "FILE:LINE: ..." (the perl script) and "Warning:
# FILE:LINE ..." (the python one of newer trees)
kdoc() { # DIR FILE
	(cd "$1" && "$CHECK_TREE/scripts/kernel-doc" -none "$2" 2>&1 || true) |
		sed -E 's/^([^: ]+):[0-9]+:/\1:/; s/^([A-Za-z]+: [^: ]+):[0-9]+ /\1 /'
}

tools=$(gcc --version | head -1; sparse --version 2>&1 | head -1; ccache --version | head -1)
build_key() { # COMMIT
	{
		tree_of "$1~1"
		tree_of "$1"
		cat "$OUT/.config.want"
		echo "$tools"
		cat "$0"
	} | sha256sum | cut -c1-32
}

# 3. each patch in turn
n=0
total=$(git -C "$TREE" rev-list --count "$BASE_REF..$SERIES_REF")
built=0
for commit in $(git -C "$TREE" rev-list --reverse "$BASE_REF..$SERIES_REF"); do
	n=$((n + 1))
	subject=$(git -C "$TREE" log -1 --format=%s "$commit")
	touched=$(git -C "$TREE" diff --name-only --diff-filter=d "$commit~1" "$commit")
	key=$(build_key "$commit")
	if [ -f "$LOGS/built/$key.log" ]; then
		step "check: [$n/$total] $subject (this tree was built and compiled cleanly before)"
		cp "$LOGS/built/$key.log" "$LOGS/$n.log"
	else
		step "check: [$n/$total] $subject"
		want="$(tree_of "$commit~1")"
		if [ "$(cut -d' ' -f2 "$built_from" 2>/dev/null)" != "$want" ]; then
			# The objects are from another tree: build the one before
			# this patch first (its findings were checked when it was
			# checked; ccache makes this a matter of seconds)
			step "check:   objects to the tree before it first (no sparse)"
			rm -f "$built_from"
			configure "$commit~1"
			if ! kmake C=0 "${TARGETS[@]}" > "$LOGS/$n.before.log" 2>&1; then
				fail "[$n/$total] the tree before it does not build: $LOGS/$n.before.log"
				continue
			fi
			echo "sync $want" > "$built_from"
		fi
		rm -f "$built_from"
		configure "$commit"
		# Rebuild what the patch touched even if an earlier run built it
		(cd "$CHECK_TREE" && touch $touched)
		built=$((built + 1))
		if ! kmake C=1 "${TARGETS[@]}" > "$LOGS/$n.log" 2>&1; then
			fail "[$n/$total] does not build: $subject"
			grep -E 'error' "$LOGS/$n.log" | head -20
			continue
		fi
		echo "$want $(tree_of "$commit")" > "$built_from"
		compiled=1
		for f in $touched; do
			case "$f" in drivers/infiniband/*.c | drivers/net/ethernet/mellanox/mlx4/*.c) ;; *) continue ;; esac
			[ "$OUT/${f%.c}.o" -nt "$CHECK_TREE/$f" ] || {
				fail "[$n/$total] $f was not compiled (is it enabled in the check config?)"
				compiled=0
			}
		done
		[ $compiled -eq 0 ] || cp "$LOGS/$n.log" "$LOGS/built/$key.log"
	fi
	findings extract "$CHECK_TREE" "$LOGS/$n.log" > "$LOGS/$n.found"
	findings new "$LOGS/baseline" "$LOGS/$n.found" ||
		fail "[$n/$total] new W=1 or sparse findings: $subject"
	# kernel-doc on the files as the patch leaves them: nothing it did not
	# report before the patch (a header such as ib_verbs.h has findings of
	# its own); line numbers aside, since the patch moves lines
	docs="$LOGS/docs"
	rm -rf "$docs" "$docs.before"
	mkdir -p "$docs" "$docs.before"
	git -C "$TREE" archive "$commit" -- $touched | tar -x -C "$docs"
	# only the files that exist before it: git archive fails as a whole
	# on a pathspec that matches nothing, such as a file the patch adds
	existed=$(git -C "$TREE" ls-tree -r --name-only "$commit~1" -- $touched)
	[ -z "$existed" ] ||
		git -C "$TREE" archive "$commit~1" -- $existed | tar -x -C "$docs.before"
	for f in $touched; do
		case "$f" in *.c | *.h) ;; *) continue ;; esac
		[ -f "$docs/$f" ] || continue
		doc=$(kdoc "$docs" "$f")
		before=""
		[ -f "$docs.before/$f" ] && before=$(kdoc "$docs.before" "$f")
		new=$(comm -13 <(printf '%s\n' "$before" | sort -u) <(printf '%s\n' "$doc" | sort -u) | sed '/^$/d')
		[ -z "$new" ] || { fail "[$n/$total] kernel-doc: $f"; echo "$new"; }
	done
done
summary_set patches="$total" built="$built" reused=$((total - built)) sparse="$sparse"
[ "$sparse" = ran ] || step "check: sparse did NOT run ($("${CHECK:-sparse}" --version 2>&1 | head -1) cannot parse this kernel: the tree's scripts/checker-valid.sh turned C= off); W=1, checkpatch and kernel-doc did"

[ $status -eq 0 ] && step "check: all $total patches clean"
exit $status
