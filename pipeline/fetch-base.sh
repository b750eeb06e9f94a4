#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-base.sh: have the base tree's tarball, Debian's linux-source-$BASE_SERIES,
# in $CACHE/base/<version>/, and print nothing when it is there already.
#
# Debian 12's own suites do not carry the base: apt-get runs with a source
# list, package lists and an archive cache of its own under $CACHE/apt, so
# the machine's apt sources and state are never touched.  It downloads the
# .deb (apt-get download) and unpacks it (dpkg -x); nothing is installed.
#
# The pinned version ($BASE_DEB_VERSION, base.env) is taken if a suite of
# $BASE_SUITES has it.  A suite's index lists only its current version, so
# when the pinned one is gone, the newest $BASE_SERIES.y found is taken with
# a warning: the patches may not apply to it.  When no suite has any, it
# stops with one message.  The version taken is written to
# $CACHE/base/version, which prepare-tree.sh unpacks.
set -euo pipefail

. "$(dirname "$0")/lib.sh"

APT=$CACHE/apt
PKG=linux-source-$BASE_SERIES

apt_opts=(
	-o "Dir::Etc::sourcelist=$APT/sources.list"
	-o "Dir::Etc::sourceparts=-"
	-o "Dir::State::Lists=$APT/lists"
	-o "Dir::State::status=$APT/status"
	-o "Dir::Cache=$APT/cache"
	-o "APT::Sandbox::User=root"
	-o "Debug::NoLocking=1"
)

# The mirror the machine's own apt sources name, for the base's suites.
mirror()
{
	local m

	m=$(grep -h -o -E 'https?://[^ ]+/debian/?( |$)' \
		/etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list 2>/dev/null | head -n 1 | tr -d ' ')
	echo "${m:-http://deb.debian.org/debian}"
}

# The versions of $PKG the suites carry, newest first.
versions()
{
	apt-cache "${apt_opts[@]}" madison "$PKG" 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | sort -u -V -r
}

have()
{
	[ -f "$CACHE/base/$1/$PKG.tar.xz" ]
}

fetch()
{
	local v=$1 dir=$CACHE/base/$1 deb

	echo "fetch-base: downloading $PKG $v from $(mirror) ($BASE_SUITES)"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	(cd "$dir.tmp" && apt-get "${apt_opts[@]}" -qq download "$PKG=$v") ||
		die "fetch-base: apt-get download $PKG=$v failed"
	deb=$(ls "$dir.tmp"/*.deb)
	dpkg -x "$deb" "$dir.tmp/x"
	mv "$dir.tmp/x/usr/src/$PKG.tar.xz" "$dir.tmp/$PKG.tar.xz"
	rm -rf "$dir.tmp/x" "$deb"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
}

main()
{
	local s v

	if have "$BASE_DEB_VERSION"; then
		echo "$BASE_DEB_VERSION" > "$CACHE/base/version"
		return 0
	fi
	mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$CACHE/base"
	: > "$APT/status"
	for s in $BASE_SUITES; do
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(mirror) $s main"
	done > "$APT/sources.list"
	apt-get "${apt_opts[@]}" -qq update ||
		die "fetch-base: apt-get update of $BASE_SUITES failed (network?)"

	v=$(versions | grep -x -F "$BASE_DEB_VERSION" || true)
	if [ -z "$v" ]; then
		v=$(versions | head -n 1)
		[ -n "$v" ] ||
			die "fetch-base: no Debian suite of \"$BASE_SUITES\" carries $PKG any more: move the project to a newer base as pipeline/README.md says (\"Moving to another base\")"
		echo "fetch-base: WARNING: $PKG $BASE_DEB_VERSION, the version this project is pinned to and tested with, is gone from $BASE_SUITES; taking $v instead (the patches may not apply to it)" >&2
	fi
	have "$v" || fetch "$v"
	echo "$v" > "$CACHE/base/version"
}

main "$@"
