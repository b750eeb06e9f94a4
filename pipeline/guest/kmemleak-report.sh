#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmemleak-report.sh [off]: save kmemleak's report of the guest's leaks so
# far to $RESULTS/kmemleak.txt, then, with "off", turn kmemleak off for the
# rest of the run.  It does nothing once the report is saved, nor on a
# kernel without kmemleak or booted with kmemleak=off, nor once kmemleak
# turned itself off: then there is no report, which fails the run unless
# the guest booted with kmemleak=off (check.sh's check_splats).
#
# Two scans: an object is reported only once it stayed unreferenced across
# a scan, which keeps short-lived allocations out of the report.

k=/sys/kernel/debug/kmemleak

if [ -e "$RESULTS/kmemleak.txt" ] || [ ! -e "$k" ]; then
	exit 0
fi
# A scan is refused (EPERM) when kmemleak is off.
{ echo scan > "$k"; } 2> /dev/null || exit 0
echo scan > "$k"
cat "$k" > "$RESULTS/kmemleak.txt"
if [ "${1:-}" = off ]; then
	echo off > "$k"
fi
exit 0
