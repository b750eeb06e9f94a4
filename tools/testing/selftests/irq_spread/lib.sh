# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the irq_spread selftests.  Each test is one python3 process
# (forks cost about 0.15 s apiece in the TCG guest), its body on stdin, with
# the shared helpers of irq_spread_lib.py importable.

IRQ_SPREAD_DIR=${BASH_SOURCE[0]%/*}
ksft_skip=4

irq_spread_python()
{
	if ! command -v python3 > /dev/null; then
		echo "1..0 # SKIP python3 not found"
		exit $ksft_skip
	fi
	PYTHONPATH=$IRQ_SPREAD_DIR${PYTHONPATH:+:$PYTHONPATH} exec python3 -B -S -
}
