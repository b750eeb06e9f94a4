#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what the irq_spread pipeline needs on a Debian 12 host, as root.
# Idempotent: prints nothing and touches nothing when all is present.
set -euo pipefail

# The base tree is not among them: fetch-base.sh downloads it.
pkgs=(
	build-essential flex bison bc libelf-dev libssl-dev cpio kmod rsync xz-utils
	python3 python3-yaml python3-jsonschema perl
	# checkpatch's SPDX check (scripts/spdxcheck.py)
	python3-ply python3-git
	qemu-system-x86
	coccinelle
	ethtool jq iproute2 udev
	clang libclang-rt-14-dev
	# net/lib's XDP program for drivers/net/hw/irq.py: libbpf's headers
	libbpf-dev
	irqbalance
	# make bench counts instructions per spread with callgrind
	valgrind
)

missing=()
for p in "${pkgs[@]}"; do
	name=${p%%=*}
	want=${p#*=}
	have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
	case "$have" in
	"install ok installed "*)
		[ "$want" = "$p" ] || [ "${have##* }" = "$want" ] || missing+=("$p")
		;;
	*)
		missing+=("$p")
		;;
	esac
done

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}" >&2
	echo "install-deps: run as root, or install them by hand" >&2
	exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq

# irqbalance is for the guest (selftest irq_spread/irqbalance.sh runs it
# there by hand).  Its postinst starts the daemon (invoke-rc.d, or
# deb-systemd-invoke under systemd) and enables it at boot, which on this
# host would move the host's own interrupts.  Both ask policy-rc.d first:
# without one on the host, one that refuses irqbalance (only) is in place
# while it installs; then it is stopped, if the host's own let it start,
# and disabled at boot.
others=()
irqbalance=
for p in "${missing[@]}"; do
	if [ "$p" = irqbalance ]; then irqbalance=1; else others+=("$p"); fi
done
if [ ${#others[@]} -gt 0 ]; then
	apt-get install -y -qq --no-install-recommends "${others[@]}" >/dev/null
fi
if [ -n "$irqbalance" ]; then
	policy=/usr/sbin/policy-rc.d
	own=
	if [ ! -e $policy ]; then
		own=1
		trap 'rm -f $policy' EXIT
		cat > $policy <<'POLICY'
#!/bin/sh
# install-deps.sh: irqbalance does not start here (invoke-rc.d names it
# irqbalance, deb-systemd-invoke irqbalance.service).
for a; do
	case $a in irqbalance|irqbalance.service) exit 101 ;; esac
done
exit 0
POLICY
		chmod 0755 $policy
	fi
	apt-get install -y -qq --no-install-recommends irqbalance >/dev/null
	[ -z "$own" ] || rm -f $policy
	if [ -d /run/systemd/system ]; then
		systemctl disable --now irqbalance.service >/dev/null 2>&1 || true
	else
		/etc/init.d/irqbalance stop >/dev/null 2>&1 || true
		update-rc.d irqbalance disable >/dev/null 2>&1 || true
	fi
fi
