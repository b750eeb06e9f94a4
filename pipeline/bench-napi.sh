#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-napi.sh [OUTDIR]: the page pool's NAPI node benchmark in the NUMA
# guest's kernel, for make bench (bench.sh).  Boots the guest kernel of
# guest-build with only the page_pool_napi KUnit suite enabled and without
# make check's kunit.filter=speed>slow, so that the suite's slow case, the
# benchmark, runs at boot (net/core/page_pool_napi_kunit.c says what it
# times).  Prints the suite's result and its "page_pool_napi bench:" lines
# as markdown; the guest's results stay in OUTDIR (default
# $RUN/bench-napi).  Exits non-zero if the guest did not finish, a case
# failed or no figure was printed.
#
# The figures come from a KASAN, lockdep and kmemleak kernel under TCG:
# each ratio is measured within the run, but what KASAN and emulation add
# to every memory access weighs on the pool's figures more than on the
# empty poll.  kmemleak=off spares the guest kmemleak's scans.
#
# NAPI_BENCH_ARGS adds boot arguments, e.g. the benchmark's sizes:
# page_pool_napi_kunit.bench_rounds=, .bench_polls=, .bench_checks=.
set -uo pipefail

. "$(dirname "$0")/lib.sh"

out=${1:-$RUN/bench-napi}
job=$RUN/bench-napi-job.sh
args="kunit.filter_glob=page_pool_napi kmemleak=off${NAPI_BENCH_ARGS:+ $NAPI_BENCH_ARGS}"

mkdir -p "$RUN" "$(dirname "$out")"
cat > "$job" <<-JOB
	. $PIPELINE_DIR/guest/bench-job.sh
JOB
t0=$(date +%s)
bash "$PIPELINE_DIR/run-guest.sh" "$out" "$job" 900 "$args" > "$out.log" 2>&1 ||
	{ cat "$out.log" >&2; die "bench-napi: the guest did not finish (log: $out.log)"; }
secs=$(($(date +%s) - t0))

ktap=$out/napi-kunit.txt
lines=$(grep -a -o 'page_pool_napi bench: .*' "$ktap" 2>/dev/null)
result=$(grep -a -E '^(not )?ok [0-9]+ page_pool_napi( |$)' "$ktap" 2>/dev/null)
echo "Guest boot with \`$args\`, $secs s from power-on to power-off: \`${result:-no result}\`."
echo
echo '```'
echo "$lines"
echo '```'
case $result in
ok*) ;;
*) die "bench-napi: the page_pool_napi suite did not pass (KTAP: $ktap)" ;;
esac
[ -n "$lines" ] || die "bench-napi: no benchmark figures (KTAP: $ktap)"
exit 0
