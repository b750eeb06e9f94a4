#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [COCCI]: test scripts/coccinelle/api/irq_spread.cocci on the
# driver shapes of this directory, KTAP on stdout.
#
# Each NAME.c is a shape the script must report or leave alone; NAME.res is
# the file patch mode must make of it, written by hand (the same as NAME.c
# where nothing is to be rewritten), compared without white space, which
# Coccinelle lays out itself.  expected-report.txt lists, by hand, every
# report mode finding: "FILE:LINE KIND", KIND "loop" (in a loop), "per-vector"
# (in a function called per vector) or "hop" (a for_each_numa_hop_mask()
# loop).  Context and org modes must find the same lines.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cocci=${1:-$here/../../../../scripts/coccinelle/api/irq_spread.cocci}
opts="--very-quiet --no-includes --include-headers"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
cases=$(cd "$here" && ls *.c)

ok()
{
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		[ -z "${3:-}" ] || sed 's/^/# /' "$3"
	fi
}

# "FILE:LINE KIND" of report mode's lines.
kind()
{
	sed -E -n 's/^([^:]*):([0-9]+):[0-9]+-[0-9]+: WARNING: (.*)$/\1:\2 \3/p' |
		sed -E 's/ cpumask_local_spread\(\) in a loop .*/ loop/;
			s/ cpumask_local_spread\(\) in a function called per vector .*/ per-vector/;
			s/ for_each_numa_hop_mask\(\) loop .*/ hop/' | LC_ALL=C sort
}

echo "TAP version 13"
echo "1..$(( $(echo "$cases" | wc -l) + 3 ))"

(cd "$here" && spatch $opts -D report --sp-file "$cocci" $cases) 2> "$tmp/err" |
	kind > "$tmp/report"
diff -u "$here/expected-report.txt" "$tmp/report" > "$tmp/diff"
rc=$?
cat "$tmp/err" >> "$tmp/diff"
ok $rc "report mode finds exactly the expected lines" "$tmp/diff"

# Context mode marks each finding with "-" lines in its diff, starting at
# the finding's line (a hop loop is marked whole).
(cd "$here" && spatch $opts -D context --sp-file "$cocci" $cases) 2> "$tmp/err" |
	awk '/^--- /{ f = $2; sub(/^.*\//, "", f); next }
	     /^\+\+\+ /{ next }
	     /^@@ /{ split($2, a, ","); l = substr(a[1], 2) - 1; prev = 0; next }
	     /^[ -]/{ l++ }
	     /^-/{ if (!prev) print f ":" l; prev = 1; next }
	     { prev = 0 }' | LC_ALL=C sort > "$tmp/context"
cut -d' ' -f1 "$here/expected-report.txt" | LC_ALL=C sort | diff -u - "$tmp/context" > "$tmp/diff"
ok $? "context mode marks the same lines" "$tmp/diff"

(cd "$here" && spatch $opts -D org --sp-file "$cocci" $cases) 2> "$tmp/err" |
	sed -E -n 's/^\* TODO \[\[view:([^:]*)::face=ovl-face1::linb=([0-9]+)::.*/\1:\2/p' |
	sed 's|^.*/||' | LC_ALL=C sort > "$tmp/org"
cut -d' ' -f1 "$here/expected-report.txt" | LC_ALL=C sort | diff -u - "$tmp/org" > "$tmp/diff"
ok $? "org mode lists the same lines" "$tmp/diff"

for c in $cases; do
	cp "$here/$c" "$tmp/$c"
	spatch $opts -D patch --in-place --sp-file "$cocci" "$tmp/$c" > "$tmp/log" 2>&1
	if [ "$(tr -d ' \t\n' < "$tmp/$c")" = "$(tr -d ' \t\n' < "$here/${c%.c}.res")" ]; then
		ok 0 "patch mode: $c"
	else
		diff -u "$here/${c%.c}.res" "$tmp/$c" > "$tmp/diff"
		cat "$tmp/log" >> "$tmp/diff"
		ok 1 "patch mode: $c" "$tmp/diff"
	fi
done
