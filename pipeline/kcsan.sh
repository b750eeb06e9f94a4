#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kcsan.sh: make kcsan.  Not part of make check (a third kernel build and a
# slow guest).  Builds the NUMA guest's kernel with KCSAN instead of KASAN
# (build-guest.sh build-kcsan, pipeline/kcsan.config), boots the NUMA guest
# on it with kcsan.list's tests (stress.sh, churn.sh), and reports every
# data race KCSAN found: those with a frame in the project's code (the
# irq_spread library, net core's and netdevsim's glue, the series' changes
# to the interrupt core) fail the run; the others are listed.
# Results in $RUN/kcsan (dmesg.txt, kcsan.txt).
set -uo pipefail

. "$(dirname "$0")/lib.sh"

out=$RUN/kcsan
job=$RUN/kcsan-job.sh

bash "$PIPELINE_DIR/build-guest.sh" build-kcsan "$BUILD/kcsan" ||
	die "kcsan: the KCSAN kernel did not build"
mkdir -p "$RUN"
cat > "$job" <<JOB
SRC=$SRC
PIPELINE_DIR=$PIPELINE_DIR
export IRQ_SPREAD_MODULES=$BUILD/kcsan
ALONE_LIST=$PIPELINE_DIR/kcsan.list
PAIRED_LIST=
. $PIPELINE_DIR/guest/selftests-job.sh
JOB
echo "kcsan: booting (console: $out/console.log)"
bash "$PIPELINE_DIR/run-guest.sh" --kcsan "$out" "$job" 3600 \
	"kunit.enable=0" > "$RUN/kcsan.log" 2>&1 ||
	die "kcsan: the guest did not finish its job ($RUN/kcsan.log)"

# A KCSAN that watched nothing reports nothing: the kernel must say it
# was on from boot.
grep -q 'kcsan: enabled early' "$out/dmesg.txt" ||
	die "kcsan: the kernel did not enable KCSAN at boot ($out/dmesg.txt)"

# Each report on a line: "data-race in A / B" and the functions of its
# stacks.  The project's functions: the library's (irq_spread_*), net
# core's glue (napi_irq_spread_*, netdev_irq_spread_*, netif_xps_auto*,
# napi_*thread_follows*), netdevsim's (nsim_irq*, nsim_xps*), and the
# interrupt core's the series adds (irq_*placer*, irq_*placement*,
# irq_set_affinity_user, irq_add_affinity_notifier).
awk '/BUG: KCSAN: /{ if (r) print r; r = $0; sub(/.*BUG: KCSAN: /, "", r); next }
     r && /^\[ *[0-9.]+\] +[a-z_0-9.]+\+0x/ {
	f = $0; sub(/^\[ *[0-9.]+\] +/, "", f); sub(/\+0x.*/, "", f); r = r " " f
     }
     END { if (r) print r }' "$out/dmesg.txt" > "$out/kcsan.txt"
ours='irq_spread|netif_xps_auto|thread_follows|nsim_irq|nsim_xps|irq_[a-z_]*placer|irq_[a-z_]*placement|irq_set_affinity_placed|irq_set_affinity_user|irq_add_affinity_notifier'
awk '{ printf "kcsan: %s: exit %s in %s s\n", $3, $1, $2 }' "$out/selftests.rc"
# A test that failed on the KCSAN kernel fails the run too (a KCSAN
# report is no failure of stress.sh's: this script judges those).
failed=$(awk '$1 != 0 { print $3 }' "$out/selftests.rc")
echo "kcsan: $(wc -l < "$out/kcsan.txt") reports ($out/kcsan.txt)"
sed 's/^/kcsan: not the project'"'"'s: /' "$out/kcsan.txt" | grep -v -E "$ours" |
	sort | uniq -c
rc=0
if grep -E "$ours" "$out/kcsan.txt"; then
	echo "kcsan: FAIL: data races with a frame in the project's code (above)"
	rc=1
fi
if [ -n "$failed" ]; then
	echo "kcsan: FAIL: tests failed on the KCSAN kernel: $failed"
	rc=1
fi
exit $rc
