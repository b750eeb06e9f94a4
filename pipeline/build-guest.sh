#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-guest.sh config|config-nosmp|build|build-nosmp|build-kcsan O_DIR
#
# config: make O_DIR/.config from x86_64 allnoconfig + the merged fragment
#         (below), when it changed since the last time (or there is none),
#         and check that every symbol it sets stuck.
# config-nosmp: the same with CONFIG_SMP=n, for the uniprocessor W=1 gate;
#         what needs SMP drops there, so nothing is checked.
# build:  config, then build bzImage and modules.
# build-nosmp: the same for the uniprocessor guest, whose fragment is
#         pipeline/nosmp.config alone (CONFIG_SMP=n, small, no modules).
# build-kcsan: the NUMA guest's kernel with KCSAN instead of KASAN: the
#         merged fragment, then pipeline/kcsan.config (make kcsan).
#
# The merged fragment is the upstream config fragment (`config`) of every
# selftest suite the pipeline runs, the folders of the tests named in
# pipeline/*.list, as netdev CI applies them; then pipeline/guest.config,
# whose value wins where they disagree (upstream builds netdevsim as a
# module, the guest has it built in).
set -euo pipefail

. "$(dirname "$0")/lib.sh"

mode=$1
out=$2
frag=$PIPELINE_DIR/guest.config
merged=$out/.irq_spread-fragment

# The config fragments of the selftest suites the lists name.
suite_configs()
{
	local t

	sed -e 's/#.*//' "$PIPELINE_DIR"/*.list | while read -r t; do
		[ -n "$t" ] && echo "${t%/*}"
	done | sort -u | while read -r t; do
		t=$SRC/tools/testing/selftests/$t/config
		[ -f "$t" ] && echo "$t"
	done
}

# The fragments to merge, in order.
fragments()
{
	if [ "$mode" = build-nosmp ]; then
		echo "$PIPELINE_DIR/nosmp.config"
	else
		suite_configs
		echo "$frag"
		[ "$mode" != build-kcsan ] || echo "$PIPELINE_DIR/kcsan.config"
	fi
}

# Print the merged fragment: the suites' fragments, pipeline/guest.config
# (or pipeline/nosmp.config alone), then the lines given as arguments,
# each setting of a symbol replacing those before it.  "# CONFIG_X is not
# set" reads as CONFIG_X=n.  Each symbol comes under a "# from FILE" line
# naming where its value came from.
merged_fragment()
{
	# shellcheck disable=SC2046
	awk -v src="$SRC/" -v repo="$REPO_DIR/" -v extra="$*" -v mode="$mode" '
	function set(line, from,   sym) {
		sym = line
		sub(/=.*/, "", sym)
		if (!(sym in val))
			order[n++] = sym
		val[sym] = line
		who[sym] = from
		if (!(from in seen)) {
			seen[from] = 1
			files[nf++] = from
		}
	}
	FNR == 1 {
		name = FILENAME
		if (index(name, src) == 1)
			name = substr(name, length(src) + 1)
		else if (index(name, repo) == 1)
			name = substr(name, length(repo) + 1)
	}
	/^CONFIG_[A-Za-z0-9_]+=/ { set($0, name) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { set($2 "=n", name) }
	END {
		m = split(extra, e, " ")
		for (i = 1; i <= m; i++)
			set(e[i], "build-guest.sh " mode)
		for (f = 0; f < nf; f++) {
			print "# from " files[f]
			for (i = 0; i < n; i++)
				if (who[order[i]] == files[f])
					print val[order[i]]
		}
	}' $(fragments)
}

# Each symbol the merged fragment sets must have its value in .config; a
# symbol whose dependencies are not met silently drops, so name it.
verify_config()
{
	local line sym val from bad=0

	while read -r line; do
		case "$line" in
		'# from '*) from=${line#\# from }; continue ;;
		CONFIG_*=*) ;;
		*) continue ;;
		esac
		sym=${line%%=*}
		val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$sym=" "$out/.config" || continue
		else
			grep -qx "$line" "$out/.config" && continue
		fi
		echo "error: $from sets $line, but the guest .config has: $(grep -E "^(# )?${sym}[= ]" "$out/.config" || echo nothing)" >&2
		bad=1
	done < "$merged"
	[ $bad -eq 0 ] || die "guest kernel config: symbols above did not stick (unmet dependencies?)"
}

# $@: lines to set last (config-nosmp).
make_config()
{
	local stamp=$out/.irq_spread-config

	mkdir -p "$out"
	merged_fragment "$@" > "$merged"
	if [ ! -f "$out/.config" ] || ! cmp -s "$merged" "$stamp"; then
		echo "guest config: allnoconfig + $(grep -c '^CONFIG_' "$merged") symbols of $(grep '^# from ' "$merged" | cut -c8- | paste -sd' ')"
		KCONFIG_ALLCONFIG=$merged make -C "$SRC" O="$out" -s allnoconfig
		cp "$merged" "$stamp"
	fi
	make -C "$SRC" O="$out" -s olddefconfig
}

# Whether the last build of $out is up to date: its bzImage, built from
# the .config there is now, newer than every build input of the tree (a
# make that would compile nothing still reads every object's dependencies,
# about a minute beside the guests).
built_already()
{
	local img=$out/arch/x86/boot/bzImage

	[ -f "$img" ] && cmp -s "$out/.config" "$out/.irq_spread-built-config" &&
		[ -z "$(find "$SRC" -path "$SRC/.git" -prune -o -type f \
			\( -name '*.[chS]' -o -name 'Makefile*' -o -name 'Kbuild*' \
			-o -name 'Kconfig*' -o -name '*.lds*' -o -name '*.tbl' -o -path '*/scripts/*' \) \
			-newer "$img" -print -quit)" ]
}

# The objects the build made so far, as its log names them.
built_objects()
{
	grep -c -E '^  (CC|AS) ' "$log" || true
}

# How far a build is: objects made, of as many as a whole build of this
# kind made last time.
build_progress()
{
	local all

	all=$(cat "$out/.irq_spread-objects" 2>/dev/null)
	echo "$(built_objects) objects compiled${all:+ (a whole build: $all)}, last ${out##*/build/}/$(grep -E '^  (CC|AS) ' "$log" | tail -n 1 | awk '{print $2}')"
}

case $mode in
config)
	make_config
	verify_config
	;;
config-nosmp)
	make_config CONFIG_SMP=n
	;;
build|build-nosmp|build-kcsan)
	make_config
	verify_config
	log=$out/build.log
	if built_already; then
		echo "guest build: up to date: no build input newer than $out's bzImage"
		exit 0
	fi
	echo "guest build: make -j$JOBS (log: $log)"
	: > "$log"
	if ! with_progress "guest build" build_progress "$log" \
		make -C "$SRC" O="$out" -j"$JOBS"; then
		grep -E 'error:|Error [0-9]' "$log" | head -n 20 >&2
		tail -n 20 "$log" >&2
		die "guest kernel build failed (log: $log)"
	fi
	built_objects > "$out/.irq_spread-objects"
	cp "$out/.config" "$out/.irq_spread-built-config"
	echo "guest build: $(cd "$out" && ls -l arch/x86/boot/bzImage | awk '{print $5}') bytes bzImage, $(find "$out" -name '*.ko' | wc -l) modules"
	;;
*)
	die "usage: build-guest.sh config|config-nosmp|build|build-nosmp|build-kcsan O_DIR"
	;;
esac
