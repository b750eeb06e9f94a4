#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-guest.sh [--nosmp|--three-core|--kcsan] OUTDIR JOB [TIMEOUT_S] [EXTRA_KERNEL_ARGS]
#
# Boot the NUMA + SMT test guest on the built kernel, run JOB (a bash script)
# inside it, and leave in OUTDIR: console.log, dmesg.txt, kmemleak.txt, job.rc
# and whatever the job wrote to $RESULTS.  Exits 0 if the job ran to its end
# (whatever its own exit code), 1 if the guest died or timed out.
#
# The machine (pipeline issue): 16 vCPUs, 2 sockets, 2 NUMA nodes per socket,
# 2 cores per node, 2 threads per core; SLIT 10 local, 12 within a socket,
# 32 across sockets.  TCG: KVM does not work on the build machines.
#
# --nosmp: the uniprocessor guest instead, one vCPU and 512 MiB, on the
# CONFIG_SMP=n kernel of build-guest.sh build-nosmp.
#
# --kcsan: the NUMA guest on the kernel of build-guest.sh build-kcsan.
#
# --three-core: the NUMA guest's kernel on a machine of another shape, for
# what two cores per node cannot show: 12 vCPUs, 2 sockets of one NUMA node
# each, 3 cores per node, 2 threads per core (node 0 = CPUs 0-5, cores
# {0,1} {2,3} {4,5}; node 1 = CPUs 6-11); SLIT 10 local, 20 remote.
set -euo pipefail

. "$(dirname "$0")/lib.sh"

machine=numa
case "${1:-}" in
--nosmp) machine=nosmp; shift ;;
--three-core) machine=three-core; shift ;;
--kcsan) machine=kcsan; shift ;;
esac
out=$1
job=$2
limit=${3:-2400}
extra=${4:-}

if [ $machine = nosmp ]; then
	kernel=$BUILD/nosmp/arch/x86/boot/bzImage
	hw=(-m 512M -smp 1)
elif [ $machine = three-core ]; then
	kernel=$BUILD/guest/arch/x86/boot/bzImage
	hw=(-m 2G -smp "12,sockets=2,cores=3,threads=2")
	for n in 0 1; do
		hw+=(-object "memory-backend-ram,id=m$n,size=1G"
		     -numa "node,nodeid=$n,cpus=$((6 * n))-$((6 * n + 5)),memdev=m$n")
	done
	hw+=(-numa "dist,src=0,dst=1,val=20")
else
	kernel=$BUILD/guest/arch/x86/boot/bzImage
	[ $machine = kcsan ] && kernel=$BUILD/kcsan/arch/x86/boot/bzImage
	hw=(-m 2G -smp "16,sockets=2,cores=4,threads=2")
	for n in 0 1 2 3; do
		hw+=(-object "memory-backend-ram,id=m$n,size=512M"
		     -numa "node,nodeid=$n,cpus=$((4 * n))-$((4 * n + 3)),memdev=m$n")
	done
	for a in 0 1 2 3; do
		for b in 0 1 2 3; do
			[ "$a" -lt "$b" ] || continue
			# Nodes 0,1 are socket 0 and nodes 2,3 socket 1.
			if [ $((a / 2)) -eq $((b / 2)) ]; then d=12; else d=32; fi
			hw+=(-numa "dist,src=$a,dst=$b,val=$d")
		done
	done
fi

how="pipeline/check.sh guest-build"
[ $machine = nosmp ] && how="pipeline/check.sh nosmp"
[ $machine = kcsan ] && how="make kcsan"
[ -f "$kernel" ] || die "no $machine guest kernel at $kernel: run $how"
rm -rf "$out"
mkdir -p "$out"
cp "$job" "$out/job.sh"

# tsc=reliable: without it the kernel switches from tsc-early to tsc once its
# watchdog has vetted the TSC, minutes into the run, and that switch's
# stop_machine() on 16 emulated CPUs froze the guest for minutes under TCG
# and tripped RCU stall reports.  HPET instead is slow enough to time out the
# selftests.  The RCU stall timeout is raised from 21s because 16 vCPUs share
# 2 host cores; a real stall still reports, and fails the run.
#
# vendor=GenuineIntel: with QEMU's default vendor the kernel WARNs that the
# LLC spans nodes (arch/x86/kernel/smpboot.c); only Intel SNC is exempt.
# -cpu max runs fork and exec, which the selftests do thousands of times,
# about 15% faster than qemu64 under TCG.
#
# q35: on the default i440FX machine, enabling the virtio devices' legacy
# interrupt runs the DSDT's _PRT method, a 128-step AML loop that took the
# ACPI interpreter 21 s per device under TCG with lockdep and KASAN; q35's
# _PRT is a static table.  Boot to the job: 70 s on i440FX, 27 s on q35.
set +e
timeout --foreground -k 10 "$limit" qemu-system-x86_64 \
	-machine q35 -accel tcg,thread=multi -cpu max,vendor=GenuineIntel \
	"${hw[@]}" \
	-kernel "$kernel" \
	-append "console=ttyS0 root=hostroot rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro init=$PIPELINE_DIR/guest/init.sh panic=-1 tsc=reliable rcupdate.rcu_cpu_stall_timeout=120 $extra" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$out,mount_tag=results,security_model=none" \
	-display none -monitor none -serial "file:$out/console.log" \
	-no-reboot
rc=$?
set -e

if [ $rc -eq 124 ]; then
	echo "guest: timed out after ${limit}s (console: $out/console.log)" >&2
	exit 1
fi
if [ ! -f "$out/done" ]; then
	echo "guest: died before its job ended (qemu exit $rc); last console lines:" >&2
	tail -n 30 "$out/console.log" >&2
	exit 1
fi
exit 0
