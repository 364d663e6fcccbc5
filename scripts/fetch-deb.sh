#!/bin/bash
# Download one pinned .deb from a Debian suite the host does not use
# (trixie-backports, say) into $CACHE/debs, with an apt configuration of
# its own: its sources list, package lists and cache live in $CACHE/apt,
# and the host's apt sources, lists and dpkg database are not touched.
# Prints the .deb's path; fails unless its sha256 is the pinned one.
#   fetch-deb.sh PKG VERSION SUITE SHA256
set -euo pipefail
pkg=$1 version=$2 suite=$3 sha256=$4
: "${CACHE:?CACHE is set by the Makefile}"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

apt_dir="$CACHE/apt/$suite"
debs="$CACHE/debs"
deb="$debs/${pkg}_${version//:/%3a}_all.deb"

sum_ok() { [ -f "$1" ] && [ "$(sha256sum < "$1" | cut -d' ' -f1)" = "$sha256" ]; }

if ! sum_ok "$deb"; then
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$debs"
	echo "deb $mirror $suite main" > "$apt_dir/sources.list"
	touch "$apt_dir/status"
	opts=(-q
		-o "Dir::Etc::SourceList=$apt_dir/sources.list"
		-o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$apt_dir/lists"
		-o "Dir::State::Status=$apt_dir/status"
		-o "Dir::Cache=$apt_dir"
		-o Debug::NoLocking=1
		-o APT::Sandbox::User=root)
	printf '==> [%s] %s\n' "$(date +%H:%M:%S)" \
		"fetch-deb: $pkg=$version from $suite (own apt configuration in $apt_dir)" >&2
	apt-get "${opts[@]}" update >&2
	(cd "$debs" && apt-get "${opts[@]}" download "$pkg=$version" >&2)
fi
sum_ok "$deb" || { echo "error: $deb: sha256 is not the pinned $sha256" >&2; exit 1; }
echo "$deb"
