#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the test guest.  The root is the host's own filesystem over 9p,
# read-only; this makes the few places tests write to writable (tmpfs, or
# overlayfs on tmpfs), mounts the host's results folder (9p tag "results"),
# runs the job the host left there as job.sh, and powers off.
#
# The job's exit code lands in results/job.rc; results/done marks a job that
# ran to its end.  dmesg and kmemleak's report (kmemleak-report.sh) are saved
# for the host's splat check.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 TERM=dumb

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /run
# kmemleak scans when kmemleak-report.sh asks, not every few minutes of
# the run beside the tests (its automatic scans).
{ echo scan=off > /sys/kernel/debug/kmemleak; } 2> /dev/null

# Writable views of the host's /tmp, /var, /etc and /root, discarded at
# power-off.  /tmp is an overlay, not a bare tmpfs, because the clone being
# tested may live under the host's /tmp.
for d in tmp var etc root; do
	mkdir -p /run/ovl/$d/upper /run/ovl/$d/work
	mount -t overlay overlay \
		-o lowerdir=/$d,upperdir=/run/ovl/$d/upper,workdir=/run/ovl/$d/work /$d
done

RESULTS=/tmp/results
mkdir -p $RESULTS
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results $RESULTS
export RESULTS

hostname irq-spread-guest
ip link set lo up

if [ -f $RESULTS/job.sh ]; then
	bash $RESULTS/job.sh
	echo $? > $RESULTS/job.rc
else
	echo "init: no job.sh in the results folder" > /dev/console
fi

# kmemleak's report, unless the job saved it already.
bash "${0%/*}/kmemleak-report.sh"
dmesg > $RESULTS/dmesg.txt
touch $RESULTS/done
sync
umount $RESULTS
# Without ACPI (the uniprocessor guest) nothing powers off: reboot, which
# QEMU's -no-reboot turns into its exit.
if [ -d /sys/firmware/acpi ]; then
	echo o > /proc/sysrq-trigger
else
	echo b > /proc/sysrq-trigger
fi
sleep 10
