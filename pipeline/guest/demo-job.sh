# SPDX-License-Identifier: GPL-2.0
#
# Guest side of make demo, sourced by the job that demo.sh writes (which
# sets SRC and PIPELINE_DIR): the topology, then IRQ placement and the page
# pool on a netdevsim device, into $RESULTS/demo.txt.

. "$PIPELINE_DIR/guest/topology-job.sh"
{
	echo
	PYTHONPATH=$SRC/tools/testing/selftests/irq_spread \
		python3 -B "$PIPELINE_DIR/guest/demo.py" 2>&1
	echo "(demo exit code $?)"
} >> "$RESULTS/demo.txt"
