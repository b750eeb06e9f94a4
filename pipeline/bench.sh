#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: make bench.  Not part of make check.  Prints, and writes to
# $CACHE/bench/bench.md:
#
#   quality  every machine of tools/testing/irq_spread/machines x vector
#            counts x device nodes: the three policies, placed by the
#            library's own engine built in user space (tools/irq_spread),
#            against the peers' placements (tools/irq_spread/bench/peers.c)
#   cost     tools/irq_spread/bench/cost_bench, on synthetic machines of
#            256 to 8192 CPUs (16 nodes; and nodes of 32 CPUs, up to 256
#            nodes): a spread of 256 vectors per policy (its release timed
#            apart) against a driver's 256 cpumask_local_spread() calls
#            (6.12's nth search and the pre-6.3 scan), each side writing
#            256 masks; the per-index query, 256 irq_spread_local_cpu()
#            equivalents (first on a fresh topology, and warm) against 256
#            cpumask_local_spread(); growth per doubling; instructions per
#            spread at 4096 and 8192 CPUs, counted by callgrind
#            (valgrind --tool=callgrind --toggle-collect='timed_*' on
#            cost_bench -n; left out without valgrind); a pool's get and
#            put at 255 vectors x 2750 users (seed 004) against mlx5 7.3's
#            own SF pool search, built from the base's mlx5 source in this
#            run (tools/irq_spread/bench/mlx5_sf.c), in the same blocks;
#            then the acceptance ratios of issues 25 and 39
#   napi     the page pool's NAPI node check per poll, in the NUMA guest's
#            kernel (its KUnit benchmark), against an empty loop
#   hotplug  one CPU offline and online at 1024 to 8192 CPUs, 64 devices
#            of 64 vectors, and its growth per doubling; a suspend and
#            resume of every CPU but one against placing every vector
#            once (UML KUnit benchmark, from make bench's kunit stage)
#   local    256 irq_spread_local_cpu() calls against 256
#            cpumask_local_spread() calls, in the NUMA guest's kernel (its
#            KUnit benchmark), per node and policy
#
# Every ratio is against a baseline measured in the same run.  Needs the
# guest kernel (make guest-build; a warm cache rebuilds nothing).
set -uo pipefail

. "$(dirname "$0")/lib.sh"

out=$BUILD/tools
dir=$CACHE/bench
md=$dir/bench.md
machines=$REPO_DIR/tools/testing/irq_spread/machines
rc=0

mkdir -p "$out" "$dir"
t0=$(date +%s)
make -s -C "$REPO_DIR/tools/irq_spread" OUTPUT="$out/" IRQ_SPREAD_CACHE="$CACHE" \
	-j"$JOBS" bench ||
	die "bench: the benchmark programs did not build"

# Instructions per run, for cost_bench -i: a few runs of each spread under
# callgrind, counting only the timed function (cost_bench's timed_*).
cg=$dir/callgrind
instr=$cg/instructions
rm -rf "$cg"
mkdir -p "$cg"
: > "$instr"
if command -v valgrind > /dev/null; then
	runs=3
	for cpus in 4096 8192; do
		for shape in 1 2; do
			for m in numa numa-core core nth; do
				f=$cg/$cpus-$shape-$m.out
				if valgrind --tool=callgrind --toggle-collect='timed_*' \
					--callgrind-out-file="$f" \
					"$out/bench/cost_bench" -s $cpus -S $shape \
					-m $m -n $runs > "$f.log" 2>&1; then
					awk -v c=$cpus -v s=$shape -v m=$m -v r=$runs \
						'/^totals:/ { printf "%d %d %s %.0f\n", c, s, m, $2 / r }' \
						"$f" >> "$instr"
				else
					echo "bench: callgrind of cost_bench -s $cpus -S $shape -m $m failed: see $f.log" >&2
					rc=1
				fi
			done
		done
	done
else
	echo "bench: no valgrind: instruction counts left out" >&2
fi

{
	echo "# irq_spread benchmarks"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(sed -n 's/^model name\t: //p' /proc/cpuinfo | head -n 1)), reference \`python3 -c 'sum(range(30000000))'\` $( { /usr/bin/time -f %e python3 -c 'sum(range(30000000))'; } 2>&1 ) s"
	echo
	echo "## Quality"
	echo
	# 32 vectors too: the EPYC's figure of the closing notes.
	"$out/bench/quality_bench" -v 32 "$machines"/*/ || rc=1
	echo
	echo "## Cost"
	echo
	"$out/bench/cost_bench" -i "$instr" || rc=1
} > "$md.tmp"

# The UML KUnit benchmarks of make bench's kunit stage (check.sh): their
# lines are in the kernel's own log, which kunit.py keeps.
uml_log=$BUILD/uml/test.log
{
	echo "## CPU hotplug and suspend at 1024 to 8192 CPUs (UML KUnit benchmark)"
	echo
	if grep -a -q 'irq_spread_bench_hotplug: .*ratio' "$uml_log" 2>/dev/null; then
		grep -a 'irq_spread_bench_hotplug: ' "$uml_log" |
			sed -E 's/^ *# irq_spread_bench_hotplug: /    /'
	else
		echo "(the UML benchmark did not run: see $uml_log)"
		rc=1
	fi
	echo
} >> "$md.tmp"

echo "## NAPI node check per poll (guest kernel, KUnit benchmark)" >> "$md.tmp"
echo >> "$md.tmp"
if bash "$PIPELINE_DIR/bench-kunit.sh" page_pool_napi "$dir/napi" >> "$md.tmp"; then
	:
else
	echo "(the guest benchmark did not run: see $dir/napi)" >> "$md.tmp"
	rc=1
fi
echo >> "$md.tmp"
echo "## irq_spread_local_cpu() against cpumask_local_spread() (guest kernel, KUnit benchmark)" >> "$md.tmp"
echo >> "$md.tmp"
if bash "$PIPELINE_DIR/bench-kunit.sh" irq_spread_local_cpu_bench "$dir/local-cpu" >> "$md.tmp"; then
	:
else
	echo "(the guest benchmark did not run: see $dir/local-cpu)" >> "$md.tmp"
	rc=1
fi
mv "$md.tmp" "$md"
cat "$md"
echo
echo "bench: $(($(date +%s) - t0)) s; tables in $md"
exit $rc
