#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# irqbalance-policy.sh - keep irqbalance off the interrupts irq_spread places
#
# irqbalance writes /proc/irq/<irq>/smp_affinity of every interrupt it
# balances, and irq_spread takes any such write for the administrator's:
# the vector keeps that mask and its device's policy, CPU hotplug handling
# and CPU list no longer apply to it.  This is a policy script for
# irqbalance (--policyscript, 1.9.2 as Debian 12 ships it), which runs it
# for each interrupt when it first sees it (when it starts, or when the
# interrupt is requested later) and at each rescan (SIGHUP), as
#
#	irqbalance-policy.sh <sysfs device path> <irq>
#
# and reads key=value lines from its output.  For an interrupt that the
# library places now (listed in /sys/class/irq_spread/irqs: a vector of a
# registered device or of a NIC's NAPI with its interrupt attached, or a
# requested vector of a pool) it answers "ban=true", and irqbalance leaves
# it alone; for any other interrupt it answers nothing, and irqbalance
# balances it as it would without a script.  It exits 0 either way:
# irqbalance ignores the answer of a script file that exits otherwise.
#
# Install it where irqbalance can run it (owned by root, executable):
#
#	install -D -m 0755 irqbalance-policy.sh \
#		/usr/local/lib/irq_spread/irqbalance-policy.sh
#
# and give it to irqbalance in /etc/default/irqbalance (both Debian's
# systemd unit and its init script read IRQBALANCE_ARGS there; add the
# option to the value if the variable is set already):
#
#	IRQBALANCE_ARGS="--policyscript=/usr/local/lib/irq_spread/irqbalance-policy.sh"
#
# then restart irqbalance.  An interrupt irqbalance saw before the library
# placed it (a NIC whose driver requests its interrupts at probe but links
# them to its NAPIs when brought up, brought up after irqbalance started)
# is irqbalance's until the next rescan: "kill -HUP" irqbalance after
# bringing one up.  Where --policyscript names a directory, irqbalance
# stops at the first script there that exits 0, which this one always
# does: put it in a directory of its own.
#
# Without /sys/class/irq_spread/irqs (a kernel without irq_spread) it
# answers nothing.  The list is read with the shell's read and matched
# with its own tests: no command is run for an interrupt, which matters
# as irqbalance runs the script for each interrupt at each rescan.

irqs=/sys/class/irq_spread/irqs

case $2 in
''|*[!0-9]*) exit 0 ;;
esac
[ -e $irqs ] || exit 0
if ! read -r list < $irqs; then
	echo "irqbalance-policy: cannot read $irqs" >&2
	exit 0
fi

# The list: numbers and ranges, in increasing order, separated by commas
# ("45-48,52,60-61"); empty when the library places nothing.
set -f
IFS=,
for r in $list; do
	lo=${r%-*}
	hi=${r#*-}
	[ "$2" -lt "$lo" ] && break
	if [ "$2" -le "$hi" ]; then
		echo ban=true
		break
	fi
done
exit 0
