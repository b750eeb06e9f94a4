#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# cocci.sh: make cocci.  Not part of make check (it takes minutes).  Runs
# scripts/coccinelle/api/irq_spread.cocci over the whole drivers/ of the
# pinned base, as extracted from its package (no overlay, no patches):
#
#   report   $CACHE/cocci/report.txt, one line per finding, sorted; the
#            files it names must be exactly those of the verdict table in
#            Documentation/core-api/irq_spread.rst ("Open-coded placement
#            in the base's drivers", between its verdict-table comments),
#            which is checked
#   patch    $CACHE/cocci/irq_spread.patch, patch mode's output over the
#            same tree
#   build    the patch-mode conversion of the drivers in CONVERTED, each
#            applied to a copy of the prepared tree and built with W=1 in
#            the guest config (where they are modules): no error, and no
#            warning the base's copy of the file does not give
#
# Prints the counts and the time of each step.
set -uo pipefail

. "$(dirname "$0")/lib.sh"

COCCI=$REPO_DIR/scripts/coccinelle/api/irq_spread.cocci
DOC=$REPO_DIR/Documentation/core-api/irq_spread.rst
# The drivers patch mode converts whose output must build (not mlx5, not
# MANA, which patches/ converts by hand): Cisco enic and Emulex be2net.
CONVERTED="drivers/net/ethernet/cisco/enic/enic_main.c drivers/net/ethernet/emulex/benet/be_main.c"
SPATCH_OPTS="--very-quiet --no-includes --include-headers --jobs $JOBS --chunksize 1"

dir=$CACHE/cocci
base=$dir/base
rc=0

mkdir -p "$dir"
command -v spatch > /dev/null || die "cocci: spatch is not installed (make deps)"

# The base's drivers/, once per base version.
version=$(base_version)
if [ "$(cat "$base/.version" 2>/dev/null)" != "$version" ]; then
	rm -rf "$base"
	mkdir -p "$base"
	t=$(date +%s)
	tar -xf "$(base_tarball "$version")" -C "$base" --strip-components=1 \
		"linux-source-$BASE_SERIES/drivers" ||
		die "cocci: cannot extract drivers/ from $(base_tarball "$version")"
	echo "$version" > "$base/.version"
	echo "cocci: extracted the base's drivers/ in $(( $(date +%s) - t )) s"
fi

t=$(date +%s)
(cd "$base" && spatch $SPATCH_OPTS -D report --sp-file "$COCCI" --dir drivers) \
	2> "$dir/report.err" | LC_ALL=C sort -u > "$dir/report.txt"
t_report=$(( $(date +%s) - t ))
if grep -q -E '^(Fatal|.*: (parse|semantic) error)' "$dir/report.err"; then
	cat "$dir/report.err"
	die "cocci: spatch failed"
fi
found=$(cut -d: -f1 "$dir/report.txt" | sort -u)
echo "cocci: report in $t_report s: $(wc -l < "$dir/report.txt") findings in $(echo "$found" | grep -c .) files ($dir/report.txt)"

# The verdict table lists each file as ``drivers/...`` in its first column.
listed=$(sed -n '/^\.\. verdict-table-start/,/^\.\. verdict-table-end/p' "$DOC" |
	 sed -n 's/^   \* - ``\(drivers\/[^`]*\)``$/\1/p' | sort -u)
if [ "$found" != "$listed" ]; then
	echo "cocci: the report's files and the docs' verdict table differ (< report, > docs):"
	diff <(echo "$found") <(echo "$listed") | grep '^[<>]'
	rc=1
fi

t=$(date +%s)
(cd "$base" && spatch $SPATCH_OPTS -D patch --sp-file "$COCCI" --dir drivers --patch .) \
	> "$dir/irq_spread.patch" 2> "$dir/patch.err"
echo "cocci: patch mode in $(( $(date +%s) - t )) s: $(grep -c '^+++ ' "$dir/irq_spread.patch") files rewritten ($dir/irq_spread.patch)"

bash "$PIPELINE_DIR/cocci-build.sh" "$base" $CONVERTED || rc=1
exit $rc
