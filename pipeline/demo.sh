#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build what is needed, boot the NUMA + SMT guest and print the
# topology it sees.
set -euo pipefail

. "$(dirname "$0")/lib.sh"

bash "$PIPELINE_DIR/install-deps.sh"
bash "$PIPELINE_DIR/prepare-tree.sh"
bash "$PIPELINE_DIR/build-guest.sh" build "$BUILD/guest"

out=$RUN/demo
echo "demo: booting the 16-vCPU, 4-node guest (TCG)"
bash "$PIPELINE_DIR/run-guest.sh" "$out" "$PIPELINE_DIR/guest/topology-job.sh" 900 "kunit.enable=0"
echo
cat "$out/demo.txt"
