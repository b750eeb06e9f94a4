# SPDX-License-Identifier: GPL-2.0
#
# Shared settings for the pipeline scripts.  Sourced, never run.
#
# IRQ_SPREAD_CACHE (default ~/.cache/irq_spread) holds everything built:
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

BASE_TARBALL=/usr/src/linux-source-$BASE_SERIES.tar.xz

# Top-level repo folders that are kernel-tree overlay.
OVERLAY_DIRS="Documentation drivers include kernel lib mm net scripts tools"
# Overlay that stays in the clone: the preview tool's sysfs-shaped machines.
NOT_LAID=tools/testing/irq_spread/machines

die()
{
	echo "error: $*" >&2
	exit 1
}

# The installed base package version, or nothing.
base_installed_version()
{
	dpkg-query -W -f='${Version}' "linux-source-$BASE_SERIES" 2>/dev/null || true
}
