#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the selftest stage.  Runs the selftests named in $ALONE_LIST
# one at a time, saves kmemleak's report, then runs those in $PAIRED_LIST
# two at a time (paths under tools/testing/selftests/ of $SRC; either list
# may be unset; .py tests run with python3, the others with bash).  Each
# test's "rc seconds path" line goes to $RESULTS/selftests.rc and its output
# to $RESULTS/selftests/.
# kselftest exit codes: 0 pass, 4 skip, anything else fail.
#
# $ALONE_LIST is this project's tests: their hand-worked tables expect
# the per-CPU load of their own devices only, which any other netdevsim
# device changes.
#
# $PAIRED_LIST is the upstream netdevsim regression tests.  They spend their
# time forking ethtool and awk, about 0.15 s apiece under TCG on one vCPU,
# and the host has two cores, hence two at a time.  They run after
# kmemleak's report, with kmemleak off: tracking every allocation made each
# fork 45% slower (ethtool-coalesce.sh: 180 s with it, 127 s without), and
# the code of this project they reach, netdevsim's IRQs set up and torn
# down with each device, is what the tests of $ALONE_LIST did under
# kmemleak before.  KASAN and lockdep stay on.
#
# The host starts its next guests once the job leaves booted in $RESULTS:
# the kernel has booted and run its KUnit suites.
#
# $IRQ_SPREAD_MODULES, exported by the job, is the guest kernel's build
# directory, where irq_spread/drivers-load.sh finds the .ko files.
#
# Each test may take $SELFTEST_TIMEOUT seconds (default 900):
# ethtool-coalesce.sh took 605 s once while a second guest and a kernel
# build shared the host.

mkdir -p "$RESULTS/selftests"
: > "$RESULTS/selftests.rc"
# The main guest, booted with kunit.autorun=0, runs its KUnit suites
# first (kunit-job.sh).
[ -z "${RUN_KUNIT:-}" ] || bash "$PIPELINE_DIR/guest/kunit-job.sh"
: > "$RESULTS/booted"

# Bash expansions rather than dirname, basename, tr and date: each fork
# costs about 0.15 s under TCG.
run_selftest()
{
	local t=$1 dir log start rc run=bash

	dir=$SRC/tools/testing/selftests/${t%/*}
	log=$RESULTS/selftests/${t//\//_}.log
	case $t in *.py) run=python3 ;; esac
	start=$EPOCHSECONDS
	echo "selftest: $t" > /dev/console
	(cd "$dir" && exec timeout -k 10 "${SELFTEST_TIMEOUT:-900}" $run "./${t##*/}") \
		> "$log" 2>&1 < /dev/null
	rc=$?
	# The Python tests (net/lib/py) exit 0 when every case skipped: count
	# that as a skip, not a pass.
	if [ $rc -eq 0 ] && [ "$run" = python3 ] &&
	   grep -q '^# Totals: pass:0 .* skip:[1-9]' "$log"; then
		rc=4
	fi
	echo "$rc $((EPOCHSECONDS - start)) $t" >> "$RESULTS/selftests.rc"
}

# Run the tests of list $1, $2 at a time.
run_list()
{
	local list=$1 jobs=$2 t

	[ -n "$list" ] || return 0
	while read -r t; do
		case "$t" in ''|'#'*) continue ;; esac
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n
		done
		run_selftest "$t" &
	done < "$list"
	wait
}

run_list "${ALONE_LIST:-}" 1
if [ -n "${PAIRED_LIST:-}" ]; then
	bash "$PIPELINE_DIR/guest/kmemleak-report.sh" off
fi
run_list "${PAIRED_LIST:-}" "${SELFTEST_JOBS:-2}"

# The job itself succeeded; each test's own result is in selftests.rc.
exit 0
