#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the selftest stage: run each selftest named in $LIST (paths
# under tools/testing/selftests/ of $SRC) and record "rc seconds path" lines in
# $RESULTS/selftests.rc, with each test's output in $RESULTS/selftests/.
# kselftest exit codes: 0 pass, 4 skip, anything else fail.
#
# The tests of $LIST run $SELFTEST_JOBS (default 2) at a time: each spends
# its time forking ethtool and awk, about 0.15 s apiece under TCG, on one
# vCPU, and the host has two cores.  Each test may take $SELFTEST_TIMEOUT
# seconds (default 900): ethtool-coalesce.sh takes about 210 s on a quiet
# host and took 605 s while a second guest and a kernel build shared it.

mkdir -p "$RESULTS/selftests"
: > "$RESULTS/selftests.rc"

run_selftest()
{
	local t=$1 dir log start rc

	dir=$SRC/tools/testing/selftests/$(dirname "$t")
	log=$RESULTS/selftests/$(echo "$t" | tr / _).log
	start=$(date +%s)
	echo "selftest: $t" > /dev/console
	(cd "$dir" && timeout -k 10 "${SELFTEST_TIMEOUT:-900}" bash "./$(basename "$t")") \
		> "$log" 2>&1 < /dev/null
	rc=$?
	echo "$rc $(($(date +%s) - start)) $t" >> "$RESULTS/selftests.rc"
}

while read -r t; do
	case "$t" in ''|'#'*) continue ;; esac
	while [ "$(jobs -rp | wc -l)" -ge "${SELFTEST_JOBS:-2}" ]; do
		wait -n
	done
	run_selftest "$t" &
done < "$LIST"
wait

# The job itself succeeded; each test's own result is in selftests.rc.
exit 0
