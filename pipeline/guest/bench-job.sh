#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of bench-napi.sh.  The kernel ran the KUnit suites it was
# booted with (kunit.filter_glob=page_pool_napi: that suite alone), its
# benchmark included, at boot, before this job: keep their KTAP output,
# from its version line to the last suite's result, in
# $RESULTS/napi-kunit.txt (init.sh saves the whole kernel log to
# $RESULTS/dmesg.txt too).

dmesg | sed -n 's/^\[[ 0-9.]*\] //p' |
	sed -n '/^KTAP version/,/^\(not \)\{0,1\}ok [0-9]* /p' \
	> "$RESULTS/napi-kunit.txt"
