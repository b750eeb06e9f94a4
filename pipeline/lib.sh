# SPDX-License-Identifier: GPL-2.0
#
# Shared settings for the pipeline scripts.  Sourced, never run.
#
# IRQ_SPREAD_CACHE (default ~/.cache/irq_spread) holds everything built:
#   base/          the base's tarball, fetched from Debian (fetch-base.sh)
#   src/           base tree + overlay + patches (the kernel source tree)
#   orig/          pristine copies of upstream files the overlay or patches replace
#   build/guest/   O= for the x86_64 NUMA guest kernel
#   build/uml/     O= for KUnit under UML
#   run/           logs and results of the last runs (IRQ_SPREAD_RUN overrides)

PIPELINE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$PIPELINE_DIR/.." && pwd)

. "$PIPELINE_DIR/base.env"

CACHE=${IRQ_SPREAD_CACHE:-$HOME/.cache/irq_spread}
SRC=$CACHE/src
ORIG=$CACHE/orig
BUILD=$CACHE/build
RUN=${IRQ_SPREAD_RUN:-$CACHE/run}
JOBS=${JOBS:-$(nproc)}


# Top-level repo folders that are kernel-tree overlay.
OVERLAY_DIRS="Documentation drivers include kernel lib mm net scripts tools"
# Overlay that stays in the clone: the preview tool's sysfs-shaped machines.
NOT_LAID=tools/testing/irq_spread/machines

die()
{
	echo "error: $*" >&2
	exit 1
}

# The version of the base fetch-base.sh took, or nothing.
base_version()
{
	cat "$CACHE/base/version" 2>/dev/null || true
}

# The tarball of base version $1.
base_tarball()
{
	echo "$CACHE/base/$1/linux-source-$BASE_SERIES.tar.xz"
}

# A tree of links to $SRC in $1/src, made again when the base changes
# (files laid or patched later are links to their current content; new
# files since are missing), and its build directory $1/build.
link_tree_make()
{
	local top=$1

	cmp -s "$SRC/.irq_spread-base" "$top/base" 2>/dev/null && return 0
	rm -rf "$top"
	mkdir -p "$top/build"
	cp -as "$SRC" "$top/src" || return 1
	cp "$SRC/.irq_spread-base" "$top/base"
}

# $2 as the .config of link_tree_make()'s build directory $1/build
# (olddefconfig in $1/src), when it changed since the last time.
link_tree_config()
{
	local top=$1 config=$2

	cmp -s "$config" "$top/config" && return 0
	cp "$config" "$top/build/.config"
	make -C "$top/src" O="$top/build" -s olddefconfig || return 1
	cp "$config" "$top/config"
}

# While process $2 runs, say once a minute what $1 is doing and how far it
# is: the output of command $3 (a function), so that a long stage is
# never silent.  Run it in the background; it ends with the process.
progress()
{
	local what=$1 pid=$2 how=$3 t0=$SECONDS i

	while kill -0 "$pid" 2>/dev/null; do
		for i in $(seq 60); do
			kill -0 "$pid" 2>/dev/null || return 0
			sleep 1
		done
		echo "$what: $(((SECONDS - t0) / 60)) min, $($how)"
	done
}

# Run the command that follows $1, $2 and $3 with its output appended to
# file $3, and progress() saying what $1 is doing through $2.  Returns the
# command's exit code.
with_progress()
{
	local what=$1 how=$2 log=$3 pid mon rc

	shift 3
	"$@" >> "$log" 2>&1 &
	pid=$!
	progress "$what" $pid "$how" &
	mon=$!
	wait $pid
	rc=$?
	kill $mon 2>/dev/null
	wait $mon 2>/dev/null
	return $rc
}
