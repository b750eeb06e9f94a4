#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Differential run of the irq_spread engine: an old commit's against the
# working tree's, in lockstep over the fuzzer's random machines (issue 25:
# a rewrite of the engine must place every vector as before).  A tool, not
# a test of record: the rule checks (KUnit, fuzz_engine) and the hand
# tables stay the tests.  Not part of make check.
#
#   run.sh [-o OUTDIR] [OLD] [-- DRIVER-ARGS]
#   make -C tools/irq_spread diff [OLD=commit] [DIFF_ARGS='-n 2000']
#
# OLD defaults to `git merge-base HEAD main` (HEAD without a main).  The
# old side is OLD's lib/irq_spread, include/linux/irq_spread.h and
# tools/irq_spread, from `git archive`, built by OLD's own Makefile into
# its libirq_spread.a; the new side is the working tree's, built the same
# way.  Each side's side.o (this directory's side.c, compiled against that
# side's tree: its headers, its fuzzer's machine generator, its
# machine.c) is linked with its library by `ld -r`, and every symbol it
# defines renamed old_NAME or new_NAME (objcopy --redefine-syms), so that
# both engines, each with its own compat state, link into one driver
# (diff_engine.c), which calls only side.h's functions.
#
# What must stay compatible between the two trees: side.c's uses (listed
# at its top: build_machine() of fuzz/fuzz_engine.c, struct machine and
# machine_format_list(), the topology's leaving and load, the four engine
# entry points) and the Makefile's $(OUTPUT)libirq_spread.a target.  If
# one changes, side.c adapts, with OLD_CFLAGS or NEW_CFLAGS for a -D of
# one side only.
#
# DRIVER-ARGS: see diff_engine -h (-n machines, -s seed, ...).  Everything
# is built in OUTDIR (default ${TMPDIR:-/tmp}/irq_spread-diff); nothing is
# written into the source tree.  Exits as the driver does: 0 without a
# mismatch, 1 with one, 2 if something did not build.

set -u

here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/irq_spread-diff
old=
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "usage: $0 [-o OUTDIR] [OLD] [-- DRIVER-ARGS]" >&2; exit 2 ;;
	*) old=$1; shift ;;
	esac
done
repo=$(git -C "$here" rev-parse --show-toplevel) || exit 2
if [ -z "$old" ]; then
	old=$(git -C "$repo" merge-base HEAD main 2>/dev/null ||
	      git -C "$repo" rev-parse HEAD) || exit 2
fi
old=$(git -C "$repo" rev-parse --verify --quiet "$old^{commit}") || {
	echo "diff: $old: not a commit" >&2
	exit 2
}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
CC=${CC:-cc}
CFLAGS=${CFLAGS:--O2 -g}

fail() {
	echo "diff: $*" >&2
	exit 2
}

# OLD's tree, afresh.
rm -rf "$out/old-tree" "$out/old" "$out/new"
mkdir -p "$out/old-tree" "$out/old" "$out/new"
git -C "$repo" archive "$old" lib/irq_spread include/linux/irq_spread.h \
	tools/irq_spread | tar -x -C "$out/old-tree" ||
	fail "git archive $old failed"

# side TREE OUTDIR EXTRA-CFLAGS: OUTDIR/side.o, every defined symbol
# renamed SIDE_NAME, SIDE being OUTDIR's name.
side() {
	tree=$1 dir=$2 extra=$3 name=$(basename "$2")
	make -s -C "$tree/tools/irq_spread" OUTPUT="$dir/" \
		"$dir/libirq_spread.a" > "$dir/build.log" 2>&1 ||
		{ cat "$dir/build.log" >&2; fail "$name: libirq_spread.a did not build"; }
	# shellcheck disable=SC2086
	$CC $CFLAGS $extra -Wall -Wno-unused-parameter -Wno-sign-compare \
		-Wno-unused-function -I"$dir/shim" \
		-I"$tree/tools/irq_spread/include" -I"$tree/lib/irq_spread" \
		-I"$tree/tools/irq_spread" -D_GNU_SOURCE \
		-c -o "$dir/side-only.o" "$here/side.c" ||
		fail "$name: side.c did not build against $tree"
	ld -r -o "$dir/linked.o" "$dir/side-only.o" "$dir/libirq_spread.a" ||
		fail "$name: ld -r failed"
	nm -g --defined-only "$dir/linked.o" |
		awk -v p="${name}_" '{ print $3, p $3 }' > "$dir/symbols"
	objcopy --redefine-syms="$dir/symbols" "$dir/linked.o" \
		"$dir/side.o" || fail "$name: objcopy failed"
}

side "$out/old-tree" "$out/old" "${OLD_CFLAGS:-}"
side "$repo" "$out/new" "${NEW_CFLAGS:-}"
# shellcheck disable=SC2086
$CC $CFLAGS -Wall -Wextra -Werror -I"$here" -o "$out/diff_engine" \
	"$here/diff_engine.c" "$out/old/side.o" "$out/new/side.o" ||
	fail "diff_engine did not build"

echo "diff: old $(git -C "$repo" log -1 --format='%h %s' "$old")"
changes=$(git -C "$repo" diff --quiet HEAD -- lib/irq_spread \
	include/linux/irq_spread.h tools/irq_spread || echo ', with changes')
echo "diff: new the working tree of $(git -C "$repo" rev-parse --short HEAD)$changes"
exec "$out/diff_engine" "$@"
