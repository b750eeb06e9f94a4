#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# cocci-build.sh BASE FILE...: build the patch-mode conversion of each
# driver FILE (a path under the kernel tree) with W=1 in the guest config.
# BASE is a tree holding the base's copy of each FILE.  Each file is
# converted by scripts/coccinelle/api/irq_spread.cocci in a copy of the
# prepared tree (a symlink farm of $CACHE/src, with the converted files as
# files of their own), then its object is built with W=1 against the
# guest's config (pipeline/guest.config has the drivers as modules).  Fails if patch mode leaves a file unchanged, if an
# object does not build, or if it warns where the base's copy does not.
# Called by cocci.sh (make cocci).
set -uo pipefail

. "$(dirname "$0")/lib.sh"

COCCI=$REPO_DIR/scripts/coccinelle/api/irq_spread.cocci
top=$BUILD/cocci-build
tree=$top/src
obj=$top/build
base=$1
shift
rc=0

link_tree_make "$top" || die "cocci: cannot make $tree"
# The guest's config as pipeline/guest.config makes it now.
mkdir -p "$top/cfg"
bash "$PIPELINE_DIR/build-guest.sh" config "$top/cfg" > "$top/config.log" 2>&1 ||
	{ tail -n 20 "$top/config.log"; die "cocci: the guest config"; }
link_tree_config "$top" "$top/cfg/.config" || die "cocci: olddefconfig"

# "path: warning: text" of a build log, without line numbers, sorted.
warnings()
{
	grep -a -E ': (warning|error): ' "$1" |
		sed -E "s|$tree/||; s|^([^:]*):[0-9]+:[0-9]+:|\1:|" | LC_ALL=C sort -u
}

for f in "$@"; do
	o=${f%.c}.o
	grep -q "^CONFIG_$(sed -n 's/^obj-\$(CONFIG_\([A-Z0-9_]*\)).*/\1/p' \
		"$SRC/$(dirname "$f")/Makefile" | head -n 1)=[ym]" "$obj/.config" ||
		{ echo "cocci: $f is not in the guest config"; rc=1; continue; }

	# The base's copy first, for the warnings it gives already.
	rm -f "$tree/$f" "$obj/$o"
	cp "$base/$f" "$tree/$f"
	make -C "$tree" O="$obj" W=1 "$o" > "$top/base.log" 2>&1 ||
		{ tail -n 20 "$top/base.log"; echo "cocci: the base's $f does not build"; rc=1; continue; }

	rm -f "$obj/$o"
	spatch --very-quiet --no-includes --include-headers -D patch --in-place \
		--sp-file "$COCCI" "$tree/$f" > "$top/spatch.log" 2>&1
	if cmp -s "$base/$f" "$tree/$f"; then
		cat "$top/spatch.log"
		echo "cocci: patch mode did not convert $f"
		rc=1
		continue
	fi
	diff -u --label "a/$f" --label "b/$f" "$base/$f" "$tree/$f" > "$top/$(basename "$f" .c).diff"
	if ! make -C "$tree" O="$obj" W=1 "$o" > "$top/conv.log" 2>&1; then
		tail -n 20 "$top/conv.log"
		echo "cocci: converted $f does not build"
		rc=1
		continue
	fi
	new=$(LC_ALL=C comm -13 <(warnings "$top/base.log") <(warnings "$top/conv.log"))
	if [ -n "$new" ]; then
		echo "$new"
		echo "cocci: converted $f gives new W=1 warnings"
		rc=1
		continue
	fi
	echo "cocci: $f converted ($(grep -c '^[-+][^-+]' "$top/$(basename "$f" .c).diff") lines changed, $top/$(basename "$f" .c).diff), W=1 build clean"
done
exit $rc
