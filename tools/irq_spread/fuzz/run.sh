#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run each irq_spread fuzzer for SECONDS from a copy of its seed corpus.
#
#   run.sh SECONDS [OUTDIR]
#
# Builds the targets with `make fuzz OUTPUT=OUTDIR/` (clang, libFuzzer), and
# keeps in OUTDIR the build, the grown corpora, the logs and any crash
# input; without OUTDIR, a temporary directory that is removed unless a
# target crashed.  Nothing is written into the source tree.  Prints one
# line per target:
#
#   fuzz_engine: 123456 execs, cov: 1234, no crash
#
# and exits 1 if a target crashed (naming the input that did), 2 if the
# build failed.

set -u

if [ $# -lt 1 ] || [ $# -gt 2 ] || ! [ "$1" -gt 0 ] 2>/dev/null; then
	echo "usage: $0 SECONDS [OUTDIR]" >&2
	exit 2
fi
secs=$1
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 2 ]; then
	out=$2
	mkdir -p "$out" || exit 2
	keep=1
else
	out=$(mktemp -d "${TMPDIR:-/tmp}/irq_spread-fuzz.XXXXXX") || exit 2
	keep=0
fi
out=$(cd "$out" && pwd)

if ! make -s -C "$here/.." OUTPUT="$out/" fuzz >"$out/build.log" 2>&1; then
	cat "$out/build.log" >&2
	echo "fuzz: build failed (log: $out/build.log)" >&2
	exit 2
fi

# The sysfs fuzzer's trees: on tmpfs when there is one.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	trees=/dev/shm
else
	trees=$out
fi

# Both targets at once, one per core.
pids=
for t in engine sysfs; do
	bin=$out/fuzz_$t
	work=$out/corpus-$t
	art=$out/artifacts-$t
	log=$out/fuzz_$t.log
	rm -rf "$work" "$art"
	mkdir -p "$work" "$art"
	cp "$here/corpus/$t/"* "$work/"
	FUZZ_SYSFS_DIR=$trees "$bin" -max_total_time="$secs" \
		-print_final_stats=1 -timeout=30 -artifact_prefix="$art/" \
		"$work" >"$log" 2>&1 &
	pids="$pids $!"
done

status=0
for t in engine sysfs; do
	pid=${pids# }
	pid=${pid%% *}
	pids=${pids# }
	pids=${pids#"$pid"}
	art=$out/artifacts-$t
	log=$out/fuzz_$t.log
	wait "$pid"
	rc=$?
	rm -rf "$trees/fuzz_sysfs.$pid"
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	[ -n "$execs" ] ||
		execs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	# A slow unit is one that took over 10 s of the wall clock, which a
	# fuzzer at idle priority beside the guests may: not a crash.
	crash=$(find "$art" -type f ! -name 'slow-unit-*' | head -n 1)
	if [ $rc -eq 0 ] && [ -z "$crash" ]; then
		echo "fuzz_$t: ${execs:-0} execs in ${secs} s, ${cov:-cov: ?}, no crash"
	else
		echo "fuzz_$t: CRASH after ${execs:-?} execs (exit $rc):" \
			"${crash:-no input saved} (log: $log)"
		grep -m 3 -E 'rule violated|runtime error|ERROR: |WARNING: ' "$log"
		status=1
	fi
done
# A temporary OUTDIR goes, unless it holds a crash input.
[ $keep -eq 1 ] || [ $status -ne 0 ] || rm -rf "$out"
exit $status
