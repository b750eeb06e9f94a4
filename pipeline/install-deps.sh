#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what the irq_spread pipeline needs on a Debian 12 host, as root.
# Idempotent: prints nothing and touches nothing when all is present.
set -euo pipefail

. "$(dirname "$0")/base.env"

pkgs=(
	"linux-source-${BASE_SERIES}=${BASE_DEB_VERSION}"
	build-essential flex bison bc libelf-dev libssl-dev cpio kmod rsync xz-utils
	python3 python3-yaml python3-jsonschema perl
	qemu-system-x86
	coccinelle
	ethtool jq iproute2 udev
	clang libclang-rt-14-dev
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
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
