#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the selftest stage: run each selftest named in $LIST, then in
# $SERIAL_LIST (paths under tools/testing/selftests/ of $SRC; either may be
# unset) and record "rc seconds path" lines in $RESULTS/selftests.rc, with
# each test's output in $RESULTS/selftests/.
# kselftest exit codes: 0 pass, 4 skip, anything else fail.
#
# The tests of $LIST run $SELFTEST_JOBS (default 2) at a time: each spends
# its time forking ethtool and awk, about 0.15 s apiece under TCG, on one
# vCPU, and the host has two cores.  Each test may take $SELFTEST_TIMEOUT
# seconds (default 900): ethtool-coalesce.sh takes about 210 s on a quiet
# host and took 605 s while a second guest and a kernel build shared it.

mkdir -p "$RESULTS/selftests"
: > "$RESULTS/selftests.rc"

# Bash expansions rather than dirname, basename, tr and date: each fork
# costs about 0.15 s under TCG.
run_selftest()
{
	local t=$1 dir log start rc

	dir=$SRC/tools/testing/selftests/${t%/*}
	log=$RESULTS/selftests/${t//\//_}.log
	start=$EPOCHSECONDS
	echo "selftest: $t" > /dev/console
	(cd "$dir" && exec timeout -k 10 "${SELFTEST_TIMEOUT:-900}" bash "./${t##*/}") \
		> "$log" 2>&1 < /dev/null
	rc=$?
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

run_list "${LIST:-}" "${SELFTEST_JOBS:-2}"
# Then $SERIAL_LIST, one at a time and after all of $LIST: these tests
# expect placements that depend on the per-CPU load of every device.
run_list "${SERIAL_LIST:-}" 1

# The job itself succeeded; each test's own result is in selftests.rc.
exit 0
