#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit-job.sh: run the KUnit suites built into the kernel, booted with
# kunit.autorun=0 (each suite's debugfs files made, none run), one after
# the other from /sys/kernel/debug/kunit/<suite>/run, and write their
# results to $RESULTS/kunit.ktap as one KTAP document, as kunit.py parse
# reads it.
#
# Run now rather than at boot so that allocations can fail: failslab's
# and fail_page_alloc's ignore-gfp-wait, Y at boot and settable only
# here, are N while the suites run, so that the allocation failure suites
# (irq_spread_fault, irq_spread_pool_fault) can fail each GFP_KERNEL
# allocation in turn (fail-nth on their own task: nothing else fails).
# verbose 0: a failure injected at verbose 2 dumps its stack, which the
# pipeline counts as a splat.

d=/sys/kernel/debug
out=$RESULTS/kunit.ktap
saved=()

for f in failslab fail_page_alloc; do
	[ -e "$d/$f" ] || continue
	saved+=("$f $(cat "$d/$f/ignore-gfp-wait") $(cat "$d/$f/verbose")")
	echo 0 > "$d/$f/verbose"
	echo N > "$d/$f/ignore-gfp-wait"
done
suites=()
for s in "$d"/kunit/*/run; do
	[ -e "$s" ] && suites+=("${s%/run}")
done
{
	echo "KTAP version 1"
	echo "1..${#suites[@]}"
} > "$out"
n=0
for s in "${suites[@]}"; do
	n=$((n + 1))
	echo "kunit-job: ${s##*/}" > /dev/console
	echo 1 > "$s/run"
	# Its results, a document of one suite: the suite's lines, its
	# result renumbered.
	sed -e '1,2d' -e "s/^\(not ok\|ok\) 1 /\1 $n /" "$s/results" >> "$out"
done
for s in "${saved[@]}"; do
	read -r f gfp verbose <<< "$s"
	echo "$gfp" > "$d/$f/ignore-gfp-wait"
	echo "$verbose" > "$d/$f/verbose"
done
exit 0
