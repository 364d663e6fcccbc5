#!/bin/bash
# Coccinelle (make coccicheck MODE=report) on every C file the series adds
# or changes, at the head of the series and, for changed files, at the
# base. A report the head has beyond the base's fails. Reports are cached
# by the file's content (its git blob hash), so a warm run only checks
# what changed.
source "$(dirname "$0")/lib.sh"

CACHED="$BUILD/cocci-reports"
mkdir -p "$CACHED"

# One file's reports, without line numbers (also those inside messages):
# code moving is not news
reports() { # TREE FILE
	(cd "$1" && nice make -s coccicheck MODE=report M="$2" 2>&1) |
		{ grep -E "^(\./)?$2:[0-9]" || true; } |
		sed -E -e 's/^(\.\/)?([^:]+):[0-9]+:[0-9-]+: /\2: /' \
			-e 's/(at|on) line [0-9]+/\1 line N/g' | sort
}

# reports of TREE's FILE, from the cache when that content was seen before
cached_reports() { # TREE FILE BLOB
	if [ ! -f "$CACHED/$3" ]; then
		reports "$1" "$2" > "$CACHED/$3.tmp"
		mv "$CACHED/$3.tmp" "$CACHED/$3"
	fi
	cat "$CACHED/$3"
}

files=$(git -C "$TREE" diff --name-only --diff-filter=AM "$BASE_REF" "$SERIES_REF" -- '*.c')
status=0
n=0
total=$(echo "$files" | wc -w)
for f in $files; do
	n=$((n + 1))
	step "coccicheck: [$n/$total] $f"
	cached_reports "$TREE" "$f" "$(git -C "$TREE" hash-object "$f")" > "$BUILD/cocci-head.txt"
	base_blob=$(git -C "$TREE" rev-parse -q --verify "$BASE_REF:$f" || true)
	: > "$BUILD/cocci-base.txt"
	if [ -n "$base_blob" ]; then
		[ -d "$CHECK_TREE" ] ||
			git -C "$TREE" worktree add -q --detach "$CHECK_TREE" "$BASE_REF"
		[ -f "$CACHED/$base_blob" ] || git -C "$CHECK_TREE" checkout -q --detach "$BASE_REF"
		cached_reports "$CHECK_TREE" "$f" "$base_blob" > "$BUILD/cocci-base.txt"
	fi
	new=$(comm -13 "$BUILD/cocci-base.txt" "$BUILD/cocci-head.txt")
	if [ -n "$new" ]; then
		echo "FAIL: new Coccinelle reports in $f:"
		echo "$new"
		status=1
	fi
done
[ $status -eq 0 ] && step "coccicheck: no new reports in $total files"
exit $status
