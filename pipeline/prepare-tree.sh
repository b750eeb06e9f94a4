#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Lay base + overlay + patches into $SRC without touching the timestamp of any
# file whose content did not change, so that kbuild rebuilds only what an edit
# affects.
#
#  1. The base is Debian's linux-source package at the pinned version
#     (fetch-base.sh), unpacked once; its version is recorded in
#     $SRC/.irq_spread-base.
#  2. A staging tree gets the overlay files and, for every file a patch
#     touches, its pristine upstream copy with the series applied (zero fuzz).
#  3. rsync --checksum copies only changed files from staging into $SRC.
#  4. Files laid by an earlier run but no longer in the overlay or the series
#     are restored from their pristine copy, or removed if upstream has none.
set -euo pipefail

. "$(dirname "$0")/lib.sh"

unpack_base()
{
	local have tarball

	bash "$PIPELINE_DIR/fetch-base.sh" || exit 1
	have=$(base_version)
	tarball=$(base_tarball "$have")
	[ -f "$tarball" ] || die "$tarball is missing: run pipeline/fetch-base.sh"

	if [ -f "$SRC/.irq_spread-base" ]; then
		[ "$(cat "$SRC/.irq_spread-base")" = "$have" ] && return 0
		echo "prepare: $SRC holds base $(cat "$SRC/.irq_spread-base"), want $have: unpacking again"
	fi

	echo "prepare: unpacking linux-source-$BASE_SERIES $have into $SRC"
	rm -rf "$SRC" "$ORIG" "$BUILD" "$CACHE/unpack" "$CACHE/laid"
	mkdir -p "$CACHE/unpack"
	tar -xf "$tarball" -C "$CACHE/unpack"
	mv "$CACHE/unpack/linux-source-$BASE_SERIES" "$SRC"
	rmdir "$CACHE/unpack"
	echo "$have" > "$SRC/.irq_spread-base"
}

# Overlay files, relative to the repo: tracked and untracked-but-not-ignored.
# The preview tool's machines (thousands of small sysfs files, and symbolic
# links, which the tree would not keep) are used from the clone, not laid.
overlay_files()
{
	local d

	if git -C "$REPO_DIR" rev-parse --git-dir >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		git -C "$REPO_DIR" ls-files --cached --others --exclude-standard -- $OVERLAY_DIRS |
			grep -v "^$NOT_LAID/" |
			while read -r f; do [ -f "$REPO_DIR/$f" ] && echo "$f"; done
	else
		for d in $OVERLAY_DIRS; do
			[ -d "$REPO_DIR/$d" ] && (cd "$REPO_DIR" && find "$d" -type f)
		done | grep -v "^$NOT_LAID/"
	fi
}

# Paths a patch changes, from its "+++ b/" and "--- a/" lines.
patch_paths()
{
	sed -n -e 's|^+++ b/||p' -e 's|^--- a/||p' "$1" | sed 's/\t.*//' | sort -u
}

# True if $1 is an upstream file of the base tree (not one an earlier run laid).
is_upstream()
{
	[ -e "$ORIG/$1" ] && return 0
	[ -e "$SRC/$1" ] && ! grep -Fxq "$1" "$CACHE/laid" 2>/dev/null
}

# The pristine upstream copy of a path (which $SRC may have replaced).
pristine()
{
	if [ -e "$ORIG/$1" ]; then
		echo "$ORIG/$1"
	else
		echo "$SRC/$1"
	fi
}

stage_tree()
{
	local stage=$1 f p series=$REPO_DIR/patches/series

	overlay_files > "$stage.list"
	while read -r f; do
		is_upstream "$f" &&
			die "overlay file $f would replace an upstream file whole: change it with a patch instead"
		mkdir -p "$stage/$(dirname "$f")"
		cp "$REPO_DIR/$f" "$stage/$f"
	done < "$stage.list"

	[ -f "$series" ] || return 0
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$REPO_DIR/patches/$p" ] || die "patches/series names $p, which does not exist"
		for f in $(patch_paths "$REPO_DIR/patches/$p"); do
			[ -e "$stage/$f" ] && continue
			is_upstream "$f" ||
				die "patch patches/$p changes $f, which linux-source $(base_version) does not have"
			mkdir -p "$stage/$(dirname "$f")"
			cp "$(pristine "$f")" "$stage/$f"
			echo "$f" >> "$stage.list"
		done
		if ! patch -d "$stage" -p1 --fuzz=0 --no-backup-if-mismatch -s -f \
			< "$REPO_DIR/patches/$p" > "$stage.patchlog" 2>&1; then
			cat "$stage.patchlog" >&2
			die "patch patches/$p does not apply to linux-source $(base_version) with zero fuzz"
		fi
	done < "$series"
}

# Save pristine copies of upstream files before the first run replaces them.
save_pristine()
{
	local f

	while read -r f; do
		[ -e "$ORIG/$f" ] && continue
		grep -Fxq "$f" "$CACHE/laid" 2>/dev/null && continue
		[ -e "$SRC/$f" ] || continue
		mkdir -p "$ORIG/$(dirname "$f")"
		cp -p "$SRC/$f" "$ORIG/$f"
	done < "$1"
}

# Undo files an earlier run laid that this run does not.
drop_stale()
{
	local f

	[ -f "$CACHE/laid" ] || return 0
	sort -u "$1" > "$1.sorted"
	sort -u "$CACHE/laid" | comm -23 - "$1.sorted" | while read -r f; do
		if [ -e "$ORIG/$f" ]; then
			cp "$ORIG/$f" "$SRC/$f"
			rm "$ORIG/$f"
		else
			rm -f "$SRC/$f"
		fi
		echo "prepare: dropped $f"
	done
}

main()
{
	local stage=$CACHE/stage

	mkdir -p "$CACHE"
	unpack_base
	rm -rf "$stage" "$stage.list"
	mkdir -p "$stage"
	stage_tree "$stage"
	save_pristine "$stage.list"
	drop_stale "$stage.list"
	rsync -r --checksum "$stage/" "$SRC/"
	sort -u "$stage.list" > "$CACHE/laid"
	rm -rf "$stage" "$stage.list" "$stage.list.sorted" "$stage.patchlog"
	echo "prepare: $SRC = linux-source-$BASE_SERIES $(base_version) + $(wc -l < "$CACHE/laid") overlay/patched files"
}

main "$@"
