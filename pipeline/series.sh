#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: the whole change as a series a maintainer can apply, in
# $CACHE/series/out: numbered git format-patch patches against the pristine
# base with a cover letter, each patch of patches/series with the new files
# series.map folds into it, then the patches of new files only.  Then the
# series is checked as a maintainer would take it: git am, one patch at a
# time, on the pristine base; after each, an incremental W=1 build of the
# C files the patch touches (with the guest's config, olddefconfig at each
# step), no warning allowed; checkpatch --strict on each patch.  Prints a
# line per patch and the figures.  Not part of make check.
set -euo pipefail

. "$(dirname "$0")/lib.sh"

DIR=$CACHE/series
MAP=$PIPELINE_DIR/series.map
GIT=(git -c user.name="irq_spread developers"
     -c user.email=irq-spread@example.org -c advice.detachedHead=false)

# The pristine base as a git repository, once per base version.
base_repo()
{
	local v repo=$DIR/base

	v=$(base_version)
	[ "$(cat "$repo/.irq_spread-base" 2>/dev/null)" = "$v" ] && return 0
	echo "series: the pristine base $v as a git repository (once per base)"
	rm -rf "$repo"
	mkdir -p "$repo"
	tar -xf "$(base_tarball "$v")" -C "$repo" --strip-components=1
	(cd "$repo" && "${GIT[@]}" init -q && "${GIT[@]}" add -A -f &&
		"${GIT[@]}" commit -q -m "Linux $BASE_SERIES (Debian linux-source-$BASE_SERIES $v)")
	echo "$v" > "$repo/.irq_spread-base"
}

# The overlay paths series.map gives patch $1.
mapped()
{
	awk -F'|' -v p="$1" '$1 == p { print $2 }' "$MAP"
}

# Copy overlay paths $@ (files or folders) into the work tree $W.
bring()
{
	local p f

	for p in "$@"; do
		git -C "$REPO_DIR" ls-files -- "$p" | grep -v "^$NOT_LAID/" |
			while read -r f; do
				mkdir -p "$W/$(dirname "$f")"
				cp -P "$REPO_DIR/$f" "$W/$f"
				"${GIT[@]}" -C "$W" add -f "$f"
			done
	done
}

# The commits of the series on a branch of a work tree of the base.
make_commits()
{
	local p m line

	W=$DIR/work
	rm -rf "$W"
	git -C "$DIR/base" worktree prune
	"${GIT[@]}" -C "$DIR/base" worktree add -q --detach "$W" HEAD
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		(cd "$W" && "${GIT[@]}" am -q --keep-cr "$REPO_DIR/patches/$p") ||
			die "series: patches/$p does not apply to the pristine base"
		m=$(mapped "$p")
		if [ -n "$m" ]; then
			# shellcheck disable=SC2086
			bring $m
			"${GIT[@]}" -C "$W" commit -q --amend --no-edit
		fi
		while read -r line; do
			# shellcheck disable=SC2086
			bring ${line#*|}
			"${GIT[@]}" -C "$W" commit -q -F "$PIPELINE_DIR/series/${line%%|*}"
		done < <(awk -F'|' -v p="$p" '
			$1 == p { after = 1; next }
			after && /^\+/ { print substr($0, 2); next }
			{ after = 0 }' "$MAP")
	done < "$REPO_DIR/patches/series"
}

# Every overlay file is in the series, but the machines that stay out.
check_complete()
{
	local missing

	missing=$(git -C "$REPO_DIR" ls-files -- $OVERLAY_DIRS |
		grep -v "^$NOT_LAID/" | while read -r f; do
			[ -e "$W/$f" ] || [ -L "$W/$f" ] || echo "$f"
		done)
	[ -z "$missing" ] || die "series: overlay files series.map folds into no patch: $missing"
}

cover_letter()
{
	local n=$1

	cat <<-EOF
	Subject: [PATCH 00/$n] irq_spread: NIC interrupt placement by NUMA hop and core

	Linux 7.3 places the IRQs of a NIC's NAPIs, for the drivers that let
	it (netif_set_affinity_auto(): ice, idpf, iavf), with
	cpumask_local_spread(i, node): every hardware thread a CPU, the same
	CPUs for every NIC of a node, and, because drivers call it before the
	netdev is registered, when its node reads 0, node 0's CPUs first
	whatever the device's node.
	Since 7.0 the mask CPU hotplug falls back to is stored as if the user
	had written it.  Drivers that place their IRQs themselves each do it
	their own way (mlx5's cpumask_local_spread(), MANA's core per IRQ,
	mlx5's SF pool).

	This series adds irq_spread, a library that places a device's vectors
	under a policy (numa: nearest hop first; numa-core: one per physical
	core within each hop; core: one per core over all hops), counting
	every device's vectors, keeping the administrator's writes and
	following CPU hotplug; pools share a device's vectors among
	sub-functions.  Net core's own NAPI affinity takes its masks from it
	(patch 4, behind CONFIG_IRQ_SPREAD, default n); patches 2 and 3 fix
	7.3's net core on their own; netdevsim gets IRQs so that all of it is
	tested without hardware; MANA and mlx5 are converted, each shorter
	than before.

	Figures: $(git -C "$W" diff --shortstat "$(git -C "$W" rev-list --max-parents=0 HEAD)" HEAD | sed 's/^ //').

	irq_spread developers (the project's tree: pipeline/, the preview tool's
	saved machines and the test harness stay there)
	EOF
}

# git am of each patch on the pristine base, a W=1 build of the C files
# it touches, checkpatch: one line per patch.
verify()
{
	local A=$DIR/am O=$DIR/build p c b w objs plog bad=0 i=0

	rm -rf "$A" "$DIR/logs"
	mkdir -p "$O" "$DIR/logs"
	git -C "$DIR/base" worktree prune
	"${GIT[@]}" -C "$DIR/base" worktree add -q --detach "$A" HEAD
	# The guest's configuration of the whole series, copied at each step
	# and made to fit the tree at that step (olddefconfig).
	bash "$PIPELINE_DIR/build-guest.sh" config "$DIR/config" \
		> "$DIR/logs/config.log" 2>&1 || die "series: no guest config (log: $DIR/logs/config.log)"
	for p in "$DIR"/out/0*.patch; do
		case "$p" in */0000-*) continue ;; esac
		i=$((i + 1))
		plog=$DIR/logs/$(basename "$p" .patch).log
		if ! (cd "$A" && "${GIT[@]}" am -q --keep-cr "$p") > "$plog" 2>&1; then
			echo "series: $(basename "$p"): git am FAILED (log: $plog)"
			return 1
		fi
		c=clean
		checkpatch_patch "$A" >> "$plog" 2>&1 || { c=FAILED; bad=1; }
		objs=$(git -C "$A" diff --name-only HEAD~1 HEAD -- '*.c' |
			grep -v -e '^tools/' -e '^scripts/' | sed 's/\.c$/.o/' || true)
		cp "$DIR/config/.config" "$O/.config"
		make -C "$A" O="$O" -s olddefconfig >> "$plog" 2>&1
		b=built
		if [ -n "$objs" ]; then
			# shellcheck disable=SC2086
			with_progress "series: patch $i" series_progress "$plog" \
				make -C "$A" O="$O" -j"$JOBS" W=1 $objs || { b="FAILED to build"; bad=1; }
		fi
		w=$(grep -c -E ': warning:' "$plog" || true)
		[ "$w" -eq 0 ] || bad=1
		echo "series: $(basename "$p"): applies, checkpatch --strict $c, $(echo "$objs" | grep -c . || true) objects $b with W=1, $w warnings"
	done
	return $bad
}

# checkpatch --strict on the last commit of work tree $1, with make check's
# exceptions: the preview tool's compat header mimics kernel interfaces
# under their kernel names, the fuzzers' corpus is data, and the fuzz
# targets' entry points have libFuzzer's names and whole-line messages.
# The base has no git history for the ids of Fixes: tags.  Patch 1's
# MAINTAINERS entry covers the files the library's patches add; the others
# fall under netdevsim's and page_pool's.  spdxcheck.py runs on Debian's
# python3, which has python3-ply and python3-git.
checkpatch_patch()
{
	local cp=$DIR/base/scripts/checkpatch.pl bad=0
	local fuzz=':(glob)tools/irq_spread/fuzz/*.c'
	local opts=(--strict --terse --no-summary
		    --ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES)

	git -C "$1" format-patch -1 --stdout HEAD -- . \
		':(exclude)tools/irq_spread/include' \
		':(exclude)tools/irq_spread/fuzz/corpus' ":(exclude,${fuzz#:(}" |
		PATH=/usr/bin:$PATH perl "$cp" "${opts[@]}" - || bad=1
	if [ -n "$(git -C "$1" diff --name-only HEAD~1 HEAD -- "$fuzz")" ]; then
		git -C "$1" format-patch -1 --stdout HEAD -- "$fuzz" |
			PATH=/usr/bin:$PATH perl "$cp" "${opts[@]}" \
				--ignore CAMELCASE,LONG_LINE_STRING - || bad=1
	fi
	return $bad
}

series_progress()
{
	echo "$(find "$DIR/build" -name '*.o' -mmin -1 | wc -l) objects compiled in the last minute"
}

main()
{
	local n

	mkdir -p "$DIR"
	base_repo
	make_commits
	check_complete
	rm -rf "$DIR/out"
	n=$(git -C "$W" rev-list --count HEAD~0 ^"$(git -C "$DIR/base" rev-parse HEAD)")
	git -C "$W" format-patch -q --zero-commit --cover-letter -N -o "$DIR/out" \
		"$(git -C "$DIR/base" rev-parse HEAD)..HEAD"
	# The cover letter's subject and blurb.
	{
		sed -n '1,/^Subject:/p' "$DIR/out/0000-cover-letter.patch" | sed '$d'
		cover_letter "$n"
		sed -n '/^---$/,$p' "$DIR/out/0000-cover-letter.patch" |
			sed -n '/^ .*|/,$p'
	} > "$DIR/out/cover.tmp"
	mv "$DIR/out/cover.tmp" "$DIR/out/0000-cover-letter.patch"
	echo "series: $n patches and a cover letter in $DIR/out"
	verify
}

main "$@"
