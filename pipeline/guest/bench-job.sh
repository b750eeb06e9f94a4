#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of bench-kunit.sh.  The kernel ran the KUnit suites it was
# booted with (kunit.filter_glob=SUITE: that suite alone), its
# benchmark included, at boot, before this job: keep their KTAP output,
# from its version line to the last suite's result, in
# $RESULTS/kunit.txt (init.sh saves the whole kernel log to
# $RESULTS/dmesg.txt too).

dmesg | sed -n 's/^\[[ 0-9.]*\] //p' |
	sed -n '/^KTAP version/,/^\(not \)\{0,1\}ok [0-9]* /p' \
	> "$RESULTS/kunit.txt"
