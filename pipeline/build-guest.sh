#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-guest.sh config|build O_DIR
#
# config: make O_DIR/.config from x86_64 allnoconfig + pipeline/guest.config,
#         when the fragment changed since the last time (or there is none),
#         and check that every symbol the fragment sets stuck.
# build:  config, then build bzImage and modules.
set -euo pipefail

. "$(dirname "$0")/lib.sh"

mode=$1
out=$2
frag=$PIPELINE_DIR/guest.config

# Each symbol set in the fragment, and in the config fragment of the
# irq_spread selftests, must have its value in .config; a symbol
# whose dependencies are not met silently drops, so name it.
verify_config()
{
	local line sym val bad=0 frags

	frags=$(cat "$frag" "$SRC"/tools/testing/selftests/irq_spread/config)
	while read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		sym=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$sym=" "$out/.config" || continue
		else
			grep -qx "$line" "$out/.config" && continue
		fi
		echo "error: $frag or a selftest config sets $line, but the guest .config has: $(grep -E "^(# )?$sym[= ]" "$out/.config" || echo nothing)" >&2
		bad=1
	done <<< "$frags"
	[ $bad -eq 0 ] || die "guest kernel config: symbols above did not stick (unmet dependencies?)"
}

make_config()
{
	local stamp=$out/.irq_spread-config

	mkdir -p "$out"
	if [ ! -f "$out/.config" ] || ! cmp -s "$frag" "$stamp"; then
		echo "guest config: allnoconfig + $(basename "$frag")"
		KCONFIG_ALLCONFIG=$frag make -C "$SRC" O="$out" -s allnoconfig
		cp "$frag" "$stamp"
	fi
	make -C "$SRC" O="$out" -s olddefconfig
	verify_config
}

case $mode in
config)
	make_config
	;;
build)
	make_config
	log=$out/build.log
	echo "guest build: make -j$JOBS (log: $log)"
	if ! make -C "$SRC" O="$out" -j"$JOBS" > "$log" 2>&1; then
		grep -E 'error:|Error [0-9]' "$log" | head -n 20 >&2
		tail -n 20 "$log" >&2
		die "guest kernel build failed (log: $log)"
	fi
	echo "guest build: $(cd "$out" && ls -l arch/x86/boot/bzImage | awk '{print $5}') bytes bzImage, $(find "$out" -name '*.ko' | wc -l) modules"
	;;
*)
	die "usage: build-guest.sh config|build O_DIR"
	;;
esac
