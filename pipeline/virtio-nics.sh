#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# virtio-nics.sh up NETNS | down NETNS
#
# The host side of the guest's four virtio-net NICs (run-guest.sh, with
# VIRTIO_NETNS=NETNS): a network namespace of their own, holding a bridge
# and four multiqueue taps in it, irqs-n2, irqs-n0, irqs-sv and irqs-xdp,
# one per NIC, so that frames one NIC sends reach the others and nothing
# else: no address, no route, IPv6 off, nothing leaves the namespace.  QEMU
# runs in it (ip netns exec) to open the taps.
#
# up: make them; on any failure remove what was made, say why on stderr and
#     exit 1: the guest then boots without the NICs and their tests skip.
# down: remove the namespace and everything in it.
set -uo pipefail

. "$(dirname "$0")/lib.sh"

up()
{
	local ns=$1 t

	ip netns add "$ns" || return 1
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
		net.ipv6.conf.default.disable_ipv6=1 || return 1
	ip -n "$ns" link add irqs-br type bridge || return 1
	for t in irqs-n2 irqs-n0 irqs-sv irqs-xdp; do
		ip -n "$ns" tuntap add dev "$t" mode tap multi_queue || return 1
		ip -n "$ns" link set "$t" master irqs-br up || return 1
	done
	ip -n "$ns" link set irqs-br up
}

case "${1:-}" in
up)
	[ -n "${2:-}" ] || die "usage: $0 up NETNS"
	mkdir -p "$RUN"
	if ! up "$2" 2> "$RUN/virtio-nics.err"; then
		echo "virtio-nics: no taps for the virtio-net NICs: $(tr '\n' ' ' < "$RUN/virtio-nics.err")" >&2
		ip netns del "$2" 2> /dev/null
		exit 1
	fi
	;;
down)
	[ -n "${2:-}" ] || die "usage: $0 down NETNS"
	ip netns del "$2" 2> /dev/null || true
	;;
*)
	die "usage: $0 up|down NETNS"
	;;
esac
