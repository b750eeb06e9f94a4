# SPDX-License-Identifier: GPL-2.0
#
# irq_spread: the main job is `make demo`, every test is `make check`.
# Both run as root on Debian 12 and install what they need.  Build output goes
# to $(IRQ_SPREAD_CACHE) (default ~/.cache/irq_spread), never into the clone.

PIPELINE := pipeline

.PHONY: demo check bench kcsan series cocci deps prepare gates kunit guest-build guest help

## demo: boot the NUMA + SMT guest and show what it sees
demo:
	@bash $(PIPELINE)/demo.sh

## check: every gate and test; ends with "N passed, N failed"
check:
	@bash $(PIPELINE)/check.sh

## bench: quality and cost of the placements against the peers, UML KUnit with its benchmarks (not in check)
bench:
	@bash $(PIPELINE)/check.sh deps prepare guest-build kunit
	@bash $(PIPELINE)/bench.sh

## kcsan: stress.sh and churn.sh on a KCSAN kernel; data races in the project's code fail it (not in check)
kcsan:
	@bash $(PIPELINE)/check.sh deps prepare
	@bash $(PIPELINE)/kcsan.sh

## series: the whole change as a git format-patch series, checked patch by patch (not in check)
series:
	@bash $(PIPELINE)/check.sh deps prepare
	@bash $(PIPELINE)/series.sh

## cocci: irq_spread.cocci over the base's drivers/: report, patch, builds (not in check)
cocci:
	@bash $(PIPELINE)/check.sh deps prepare
	@bash $(PIPELINE)/cocci.sh

## gates: checkpatch, kernel-doc, W=1 and coccicheck only
gates:
	@bash $(PIPELINE)/check.sh deps prepare gates

## kunit: the KUnit suites under UML only, benchmarks included (not in check: the guests run every case)
kunit:
	@bash $(PIPELINE)/check.sh deps prepare kunit

## guest-build: the guest kernel only
guest-build:
	@bash $(PIPELINE)/check.sh deps prepare guest-build

## guest: the guest kernel, then KUnit and kselftests in the NUMA guest only
guest:
	@bash $(PIPELINE)/check.sh deps prepare guest-build guest

## deps: install what is missing (apt-get)
deps:
	@bash $(PIPELINE)/install-deps.sh

## prepare: lay base + overlay + patches into the build tree
prepare:
	@bash $(PIPELINE)/prepare-tree.sh

help:
	@sed -n 's/^## //p' Makefile
