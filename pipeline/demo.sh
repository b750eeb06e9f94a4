#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build what is needed, boot the NUMA + SMT guest and print the
# topology it sees, then where a 4-queue netdevsim NIC on node 2 has its
# queues' IRQs under 7.3's default and under each irq_spread policy, with
# each queue's node, and its page pool following an IRQ to another node.
set -euo pipefail

. "$(dirname "$0")/lib.sh"

bash "$PIPELINE_DIR/install-deps.sh"
bash "$PIPELINE_DIR/prepare-tree.sh"
bash "$PIPELINE_DIR/build-guest.sh" build "$BUILD/guest"

out=$RUN/demo
job=$RUN/demo-job.sh
mkdir -p "$RUN"
cat > "$job" <<-JOB
	SRC=$SRC
	PIPELINE_DIR=$PIPELINE_DIR
	. $PIPELINE_DIR/guest/demo-job.sh
JOB
echo "demo: booting the 16-vCPU, 4-node guest (TCG)"
bash "$PIPELINE_DIR/run-guest.sh" "$out" "$job" 900 "kunit.enable=0"
echo
cat "$out/demo.txt"
