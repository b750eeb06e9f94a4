#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of bench-napi.sh.  The kernel ran the page_pool_napi KUnit
# suite, its benchmark included, at boot, before this job: keep the
# suite's KTAP output in $RESULTS/napi-kunit.txt (init.sh saves the whole
# kernel log to $RESULTS/dmesg.txt too).

dmesg | sed -n 's/^\[[ 0-9.]*\] //p' |
	sed -n '/^ *KTAP version/,$p' > "$RESULTS/napi-kunit.txt"
