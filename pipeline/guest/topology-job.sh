#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of make demo: print the topology the guest kernel sees, from
# sysfs alone: NUMA nodes and their CPUs, the SLIT distance matrix, and each
# physical core with its thread siblings.

{
	echo "NUMA nodes (sysfs /sys/devices/system/node):"
	nodes=$(cd /sys/devices/system/node && ls -d node[0-9]* | sed 's/node//' | sort -n)
	for n in $nodes; do
		printf '  node%s: cpus %-8s mem %s\n' "$n" \
			"$(cat /sys/devices/system/node/node$n/cpulist)" \
			"$(awk '/MemTotal/ {print $4, $5}' /sys/devices/system/node/node$n/meminfo)"
	done

	echo
	echo "Distance matrix (SLIT):"
	printf '  %-6s' ''
	for n in $nodes; do printf '%6s' "node$n"; done
	echo
	for n in $nodes; do
		printf '  %-6s' "node$n"
		for d in $(cat /sys/devices/system/node/node$n/distance); do
			printf '%6s' "$d"
		done
		echo
	done

	echo
	echo "Physical cores and their thread siblings:"
	for c in $(cd /sys/devices/system/cpu && ls -d cpu[0-9]* | sed 's/cpu//' | sort -n); do
		t=/sys/devices/system/cpu/cpu$c/topology
		sib=$(cat $t/thread_siblings_list)
		# Print each core once, at its first thread.
		[ "${sib%%[,-]*}" = "$c" ] || continue
		node=$(basename "$(ls -d /sys/devices/system/cpu/cpu$c/node[0-9]*)")
		printf '  socket %s core %-2s %-6s threads %s\n' \
			"$(cat $t/physical_package_id)" "$(cat $t/core_id)" "$node" "$sib"
	done
} > "$RESULTS/demo.txt"
