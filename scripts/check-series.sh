#!/bin/bash
# Check every patch of the series on its own, as a reviewer would:
#  - checkpatch.pl --strict on the patch file;
#  - the series applied up to that patch builds with W=1 and sparse (C=1),
#    and adds no compiler or sparse finding over the base tree;
#  - scripts/kernel-doc -none is silent on the files the patch touches.
# Accepted findings, each with its reason, are in scripts/check-allow.
source "$(dirname "$0")/lib.sh"

OUT="$BUILD/check"
TARGETS=(drivers/infiniband/ drivers/net/ethernet/mellanox/mlx4/)
LOGS="$BUILD/check-logs"
findings() { python3 "$TOP/scripts/findings.py" "$@"; }
kmake() { nice make -s -C "$CHECK_TREE" O="$OUT" -j"$(nproc)" W=1 "$@"; }

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
git -C "$CHECK_TREE" checkout -q --detach "$BASE_REF"
mkdir -p "$OUT"
cat "$TOP/kunit/.kunitconfig" "$TOP/scripts/check.config" > "$OUT/.config.want"
if ! cmp -s "$OUT/.config.want" "$OUT/.config.from"; then
	cp "$OUT/.config.want" "$OUT/.config"
	make -s -C "$CHECK_TREE" O="$OUT" olddefconfig
	cp "$OUT/.config.want" "$OUT/.config.from"
	rm -f "$LOGS/baseline"
fi
if [ ! -f "$LOGS/baseline" ]; then
	step "check: building the base with W=1 and sparse on every file"
	kmake C=2 "${TARGETS[@]}" > "$LOGS/base.log" 2>&1 || die "base does not build: $LOGS/base.log"
	findings extract "$CHECK_TREE" "$LOGS/base.log" > "$LOGS/baseline"
fi

# 3. each patch in turn
n=0
total=$(git -C "$TREE" rev-list --count "$BASE_REF..$SERIES_REF")
for commit in $(git -C "$TREE" rev-list --reverse "$BASE_REF..$SERIES_REF"); do
	n=$((n + 1))
	subject=$(git -C "$TREE" log -1 --format=%s "$commit")
	step "check: [$n/$total] $subject"
	git -C "$CHECK_TREE" checkout -q --detach "$commit"
	touched=$(git -C "$CHECK_TREE" diff --name-only --diff-filter=d "$commit~1" "$commit")
	# Options the patch adds (its KUnit suite) only exist from this patch on
	cp "$OUT/.config.want" "$OUT/.config"
	make -s -C "$CHECK_TREE" O="$OUT" olddefconfig
	# Rebuild what the patch touched even if an earlier run built it
	(cd "$CHECK_TREE" && touch $touched)
	if ! kmake C=1 "${TARGETS[@]}" > "$LOGS/$n.log" 2>&1; then
		fail "[$n/$total] does not build: $subject"
		grep -E 'error' "$LOGS/$n.log" | head -20
		continue
	fi
	for f in $touched; do
		case "$f" in drivers/infiniband/*.c | drivers/net/ethernet/mellanox/mlx4/*.c) ;; *) continue ;; esac
		[ "$OUT/${f%.c}.o" -nt "$CHECK_TREE/$f" ] ||
			fail "[$n/$total] $f was not compiled (is it enabled in the check config?)"
	done
	findings extract "$CHECK_TREE" "$LOGS/$n.log" > "$LOGS/$n.found"
	findings new "$LOGS/baseline" "$LOGS/$n.found" ||
		fail "[$n/$total] new W=1 or sparse findings: $subject"
	for f in $touched; do
		case "$f" in *.c | *.h) ;; *) continue ;; esac
		[ -f "$CHECK_TREE/$f" ] || continue
		doc=$("$CHECK_TREE/scripts/kernel-doc" -none "$CHECK_TREE/$f" 2>&1 || true)
		[ -z "$doc" ] || { fail "[$n/$total] kernel-doc: $f"; echo "$doc"; }
	done
done

[ $status -eq 0 ] && step "check: all $total patches clean"
exit $status
