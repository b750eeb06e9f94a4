#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of the nosmp stage, in the uniprocessor guest (CONFIG_SMP=n,
# one vCPU; pipeline/nosmp.config), run by init.sh.
#
# Checks that netdevsim creates and removes ports with irq_spread where
# placement is a no-op, everything on CPU 0: a port with 4 queues, its
# policy (netdev netlink, with the YNL CLI of $SRC), its vectors in
# irq_spread's debugfs, link up and down,
# ethtool -L, its removal; then a port of a device in pool mode.  No
# traffic.  Each check is a KTAP line in $RESULTS/ktap.txt and on the
# console, with what it found under it as "# " lines; a check that needs
# a port not created is skipped ("# SKIP"); the plan comes last.

NSIM=/sys/bus/netdevsim
DEVICES=/sys/kernel/debug/irq_spread/devices
n=0

ktap()
{
	tee -a "$RESULTS/ktap.txt"
}

# check NAME CMD...: one KTAP line for CMD's exit code, what CMD printed
# under it as "# " lines.  Returns CMD's exit code.
check()
{
	local name=$1 out rc

	shift
	n=$((n + 1))
	out=$("$@" 2>&1)
	rc=$?
	{
		if [ $rc -eq 0 ]; then
			echo "ok $n $name"
		else
			echo "not ok $n $name"
		fi
		[ -z "$out" ] || echo "$out" | sed 's/^/# /'
	} | ktap
	return $rc
}

# skip REASON NAME...: a skipped KTAP line for each NAME.
skip()
{
	local why=$1 name

	shift
	for name in "$@"; do
		n=$((n + 1))
		echo "ok $n $name # SKIP $why" | ktap
	done
}

# The YNL CLI with the netdev family's spec of the tree.
ynl()
{
	python3 "$SRC/tools/net/ynl/pyynl/cli.py" --no-schema --output-json \
		--spec "$SRC/Documentation/netlink/specs/netdev.yaml" "$@"
}

# dev-get of ifindex $1: expect irq-policy $2.
expect_policy()
{
	local got

	got=$(ynl --do dev-get --json "{\"ifindex\": $1}") || { echo "$got"; return 1; }
	case $got in
	*"\"irq-policy\": \"$2\""*) return 0 ;;
	esac
	echo "dev-get: $got, expected irq-policy $2"
	return 1
}

# dev-set of irq-policy $2 (a JSON value) on ifindex $1; with $3 "fail",
# expect it refused.
set_policy()
{
	local out rc

	out=$(ynl --do dev-set --json "{\"ifindex\": $1, \"irq-policy\": $2}" 2>&1)
	rc=$?
	echo "$out"
	if [ "${3:-}" = fail ]; then
		[ $rc -ne 0 ]
	else
		[ $rc -eq 0 ]
	fi
}

# Write $2 to $1; with $3 "fail", expect the write to be refused.
write_file()
{
	local err

	if err=$({ echo "$2" > "$1"; } 2>&1); then
		[ "${3:-}" != fail ] && return 0
		echo "writing \"$2\" to $1 succeeded"
		return 1
	fi
	err=${err##*: }
	if [ "${3:-}" = fail ]; then
		echo "refused: $err"
		return 0
	fi
	echo "writing \"$2\" to $1 failed: $err"
	return 1
}

# Print the netdev of netdevsim device $1's port; fail if it has none.
port_netdev()
{
	local f

	for f in "$NSIM/devices/netdevsim$1/net/"*; do
		[ -e "$f" ] || continue
		echo "${f##*/}"
		return 0
	done
	echo "no netdev under $NSIM/devices/netdevsim$1/net"
	return 1
}

# The lines of netdevsim device $1's port $2 in irq_spread's debugfs
# devices, without the device path: "policy vector irq kind state cpus".
port_vectors()
{
	awk -v dev="/devices/netdevsim$1/net/$2" \
		'$1 == dev { $1 = ""; print substr($0, 2) }' $DEVICES
}

# Expect netdevsim device $1's port $2 to have $3 queue vectors under
# policy $4, the first $5 active on CPU 0, the others inactive (with their
# IRQ or none: the IRQs are attached while the link is up).
expect_vectors()
{
	local got want= v state cpus

	got=$(port_vectors "$1" "$2" | awk '{ $3 = "IRQ"; print }')
	for v in $(seq 0 $(($3 - 1))); do
		state=active cpus=0
		[ "$v" -lt "$5" ] || state=inactive cpus=-
		want+="$4 $v IRQ spread $state $cpus"$'\n'
	done
	[ "$got" = "${want%$'\n'}" ] && return 0
	echo "$DEVICES has:"
	cat $DEVICES
	echo "expected for $2 (IRQ: any):"
	printf '%s' "$want"
	return 1
}

# Expect $1 IRQ handlers of netdevsim device $2 (nsim<dev>p<port>-rx<queue>).
expect_irqs()
{
	local got

	got=$(grep -o -E "nsim$2p[0-9]+-rx[0-9]+" /proc/interrupts | wc -l)
	[ "$got" -eq "$1" ] && return 0
	echo "/proc/interrupts has $got handlers of netdevsim$2, expected $1:"
	cat /proc/interrupts
	return 1
}

# Expect ethtool -l to show $2 combined channels in use on $1.
expect_channels()
{
	local got

	got=$(ethtool -l "$1" | awk '/^Current/ { c = 1 } c && /^Combined:/ { print $2 }')
	[ "$got" = "$2" ] && return 0
	ethtool -l "$1"
	return 1
}

# Expect netdevsim device $1 and its port's netdev $2 (if any) gone, and
# nothing of them in irq_spread's debugfs or in /proc/interrupts.
expect_gone()
{
	local bad=0

	[ ! -e "$NSIM/devices/netdevsim$1" ] || { echo "netdevsim$1 still there"; bad=1; }
	[ -z "$2" ] || [ ! -e "/sys/class/net/$2" ] || { echo "$2 still there"; bad=1; }
	[ -z "$(port_vectors "$1" "${2:-?}")" ] || { echo "$DEVICES still lists $2"; bad=1; }
	expect_irqs 0 "$1" || bad=1
	return $bad
}

# Expect netdevsim device $1's pool to have requested $2 vectors, each on
# CPU 0.
expect_pool()
{
	local f=/sys/kernel/debug/irq_spread/pools/netdevsim$1 got

	got=$(awk -F'\t' 'NR > 2 { print $1 "/" $4 }' "$f") || return 1
	[ "$got" = "$(seq -f '%g/0' 0 $(($2 - 1)))" ] && return 0
	cat "$f"
	return 1
}

# A port with 4 queues registered with irq_spread.
port_checks()
{
	local ifc idx

	if ! check "new_device with 4 queues" write_file $NSIM/new_device "1 1 4" ||
	   ! check "the port's netdev exists" port_netdev 1; then
		skip "no port" "4 IRQs requested" "dev-get: irq-policy numa" \
			"4 vectors on CPU 0 in debugfs" \
			"ethtool -L combined 2"
		check "del_device" write_file $NSIM/del_device 1
		return
	fi
	ifc=$(port_netdev 1)
	idx=$(cat "/sys/class/net/$ifc/ifindex")

	check "4 IRQs requested" expect_irqs 4 1
	check "dev-get: irq-policy numa" expect_policy "$idx" numa
	check "dev-set: irq-policy numa-core" set_policy "$idx" '"numa-core"'
	check "dev-get: irq-policy numa-core" expect_policy "$idx" numa-core
	check "dev-set: irq-policy 7 refused" set_policy "$idx" 7 fail
	check "policy unchanged" expect_policy "$idx" numa-core
	check "4 vectors on CPU 0 in debugfs" expect_vectors 1 "$ifc" 4 numa-core 4
	check "link up" ip link set dev "$ifc" up
	if check "ethtool -L combined 2" ethtool -L "$ifc" combined 2; then
		check "2 combined channels" expect_channels "$ifc" 2
		check "2 vectors active, 2 inactive in debugfs" expect_vectors 1 "$ifc" 4 numa-core 2
	else
		skip "no channels set" "2 combined channels" \
			"2 vectors active, 2 inactive in debugfs"
	fi
	check "link down" ip link set dev "$ifc" down
	check "del_device" write_file $NSIM/del_device 1
	check "the device, its netdev, vectors and IRQs gone" expect_gone 1 "$ifc"
}

# A port of a device in pool mode: its 2 queues take their IRQs from the
# device's pool of 2 vectors.
pool_checks()
{
	local pre="pool mode:"

	check "$pre new_device without ports" write_file $NSIM/new_device "2 0 2"
	check "$pre irq_pool 2" write_file /sys/kernel/debug/netdevsim/netdevsim2/irq_pool 2
	if check "$pre new_port" write_file $NSIM/devices/netdevsim2/new_port 0; then
		check "$pre the port's netdev exists" port_netdev 2
		check "$pre 2 IRQs requested" expect_irqs 2 2
		check "$pre 2 pool vectors on CPU 0" expect_pool 2 2
	else
		skip "no port" "$pre the port's netdev exists" "$pre 2 IRQs requested" \
			"$pre 2 pool vectors on CPU 0"
	fi
	check "$pre del_device" write_file $NSIM/del_device 2
	check "$pre the device and its IRQs gone" expect_gone 2 ""
}

echo "KTAP version 1" | tee "$RESULTS/ktap.txt"
echo "# irq_spread netdevsim, CONFIG_SMP=n, $(nproc) CPU" | ktap
port_checks
pool_checks
echo "1..$n" | ktap
