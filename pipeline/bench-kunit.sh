#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-kunit.sh SUITE [OUTDIR]: a KUnit benchmark in the NUMA guest's
# kernel, for make bench (bench.sh).  Boots the guest kernel of guest-build
# with only the KUnit suite SUITE enabled and without make check's
# kunit.filter=speed>slow, so that the suite's slow cases, the benchmarks,
# run at boot (each suite's file says what it times: page_pool_napi in
# net/core/page_pool_napi_kunit.c, irq_spread_local_cpu_bench in
# lib/irq_spread/tests/local_cpu_bench_kunit.c).  Prints the suite's
# result and its lines holding " bench: " as markdown; the guest's results
# stay in OUTDIR (default $RUN/bench-SUITE).  Exits non-zero if the guest
# did not finish, a case failed or no figure was printed.
#
# The figures come from a KASAN, lockdep and kmemleak kernel under TCG:
# each ratio is measured within the run, but what KASAN and emulation add
# to every memory access weighs on some figures more than on others.
# kmemleak=off spares the guest kmemleak's scans.
#
# KUNIT_BENCH_ARGS adds boot arguments, e.g. the page pool benchmark's
# sizes: page_pool_napi_kunit.bench_rounds=, .bench_polls=, .bench_checks=.
set -uo pipefail

. "$(dirname "$0")/lib.sh"

suite=${1:?usage: bench-kunit.sh SUITE [OUTDIR]}
out=${2:-$RUN/bench-$suite}
job=$RUN/bench-$suite-job.sh
args="kunit.filter_glob=$suite kmemleak=off${KUNIT_BENCH_ARGS:+ $KUNIT_BENCH_ARGS}"

mkdir -p "$RUN" "$(dirname "$out")"
cat > "$job" <<-JOB
	. $PIPELINE_DIR/guest/bench-job.sh
JOB
t0=$(date +%s)
bash "$PIPELINE_DIR/run-guest.sh" "$out" "$job" 900 "$args" > "$out.log" 2>&1 ||
	{ cat "$out.log" >&2; die "bench-kunit: the guest did not finish (log: $out.log)"; }
secs=$(($(date +%s) - t0))

ktap=$out/kunit.txt
lines=$(grep -a -o '[a-z_]* bench: .*' "$ktap" 2>/dev/null)
result=$(grep -a -E "^(not )?ok [0-9]+ $suite( |\$)" "$ktap" 2>/dev/null)
echo "Guest boot with \`$args\`, $secs s from power-on to power-off: \`${result:-no result}\`."
echo
echo '```'
echo "$lines"
echo '```'
case $result in
ok*) ;;
*) die "bench-kunit: the $suite suite did not pass (KTAP: $ktap)" ;;
esac
[ -n "$lines" ] || die "bench-kunit: no benchmark figures (KTAP: $ktap)"
exit 0
