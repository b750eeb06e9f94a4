#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh: the rules of the project's test harness, each fed a case that
# breaks it, KTAP on stdout.  A harness rule holds when the run fails on
# the failing case (and, where a rule lets something through, passes on
# the case it lets through).  Rules of the selftests' library
# (tools/testing/selftests/irq_spread/irq_spread_lib.py) run a test body
# here, on the host; rules of pipeline/check.sh run its functions, sourced,
# on results written here.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
selftests=$top/tools/testing/selftests/irq_spread
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

echo "TAP version 13"
echo "# irq_spread harness rules"

# ok WANT GOT WHAT [LOG]: "ok" when GOT is WANT, else "not ok" and LOG.
ok()
{
	n=$((n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $n $3"
	else
		echo "not ok $n $3"
		echo "# expected: $1"
		echo "#      got: $2"
		[ -z "${4:-}" ] || sed 's/^/# /' "$4"
	fi
}

# A selftest body (stdin) run as the selftests run it; prints its exit code.
selftest()
{
	(cd "$selftests" && PYTHONPATH=$selftests python3 -B -S - \
		> "$tmp/selftest.log" 2>&1)
	echo $?
}

# check.sh's functions, sourced, on a cache of their own; $1 a command run
# there; prints how many failures the run counted, then its notes.
pipeline()
{
	(
		export IRQ_SPREAD_CACHE=$tmp/cache IRQ_SPREAD_RUN=$tmp/cache/run
		. "$top/pipeline/check.sh"
		mkdir -p "$LOG"
		eval "$1" > "$tmp/pipeline.out" 2>&1
		echo "$failed"
	)
}

# A guest's results: $1 its name; its selftests.rc lines on stdin.
guest_results_dir()
{
	local d=$tmp/cache/run/$1

	rm -rf "$d"
	mkdir -p "$d/selftests"
	cat > "$d/selftests.rc"
	: > "$d/kmemleak.txt"
	: > "$d/dmesg.txt"
	echo "$d"
}

# --- irq_spread_lib.py ------------------------------------------------------

if [ "$(id -u)" != 0 ]; then
	echo "# not root: irq_spread_lib's run() skips every test"
fi

rc=$(selftest <<-'PY'
	from irq_spread_lib import *
	def test(t):
	    t.result(True, "a check that passes")
	    t.result(False, "a check that fails")
	    raise Skip("the rest cannot run here")
	run("harness", test)
	PY
)
ok 1 "$rc" "selftest: a failed check, then a skip: the test fails (exit 1)" "$tmp/selftest.log"

rc=$(selftest <<-'PY'
	from irq_spread_lib import *
	def test(t):
	    t.result(True, "a check that passes")
	    raise Skip("the rest cannot run here")
	run("harness", test)
	PY
)
ok "4 ok 2 harness: the rest # SKIP the rest cannot run here" \
	"$rc $(grep '^ok 2' "$tmp/selftest.log")" \
	"selftest: checks that pass, then a skip: a skip (exit 4), the rest a skipped check" \
	"$tmp/selftest.log"

rc=$(selftest <<-'PY'
	from irq_spread_lib import *
	def test(t):
	    t.result(True, "a check that passes")
	    t.skip("a check", "not here")
	run("harness", test)
	PY
)
ok "0 ok 2 a check # SKIP not here" "$rc $(grep '^ok 2' "$tmp/selftest.log")" \
	"selftest: a skipped check is a KTAP skip, not a pass" "$tmp/selftest.log"

# The host is not the project's guest: the hand tables do not apply.  Its
# irq_spread debugfs, should it have one, is not read: an empty table.
export HARNESS_DEVICES=$tmp/devices
echo "device policy vector irq kind state cpus" > "$HARNESS_DEVICES"
rc=$(IRQ_SPREAD_TABLES=required selftest <<-'PY'
	import irq_spread_lib
	from irq_spread_lib import *
	irq_spread_lib.DEVICES = os.environ["HARNESS_DEVICES"]
	irq_spread_lib.DEBUGFS = "/nonexistent"
	t = Ktap("harness")
	Topology().tables(t)
	t.finish()
	PY
)
ok 1 "$rc" "selftest: hand tables off with IRQ_SPREAD_TABLES=required: the test fails" \
	"$tmp/selftest.log"
rc=$(selftest <<-'PY'
	import irq_spread_lib
	from irq_spread_lib import *
	irq_spread_lib.DEVICES = os.environ["HARNESS_DEVICES"]
	irq_spread_lib.DEBUGFS = "/nonexistent"
	t = Ktap("harness")
	Topology().tables(t)
	t.result(True, "the rule checks")
	t.finish()
	PY
)
ok 0 "$rc" "selftest: hand tables off elsewhere: a diag line, rule checks only" \
	"$tmp/selftest.log"

# --- pipeline/check.sh ------------------------------------------------------

# Skips: only those pipeline/expected-skips names.
d=$(echo "4 3 irq_spread/absent.sh" | guest_results_dir guest)
echo "irq_spread/absent.sh" > "$tmp/list"
ok 1 "$(pipeline "count_selftests $d guest '' $tmp/list; check_skips")" \
	"check.sh: a selftest that skipped, not an expected skip: the run fails" \
	"$tmp/pipeline.out"

d=$(echo "0 3 irq_spread/partial.sh" | guest_results_dir guest)
printf 'ok 1 one\nok 2 two # SKIP not here\n1..2\n' > "$d/selftests/irq_spread_partial.sh.log"
echo "irq_spread/partial.sh" > "$tmp/list"
ok 1 "$(pipeline "count_selftests $d guest '' $tmp/list; check_skips")" \
	"check.sh: a selftest that passed with a skipped check: the run fails" \
	"$tmp/pipeline.out"

printf '[00:00:00] Testing complete. Ran 0 tests: passed: 0\n' > "$tmp/kunit.log"
ok 1 "$(pipeline "count_kunit 'kunit (guest)' $tmp/kunit.log")" \
	"check.sh: no KUnit case ran: the run fails" "$tmp/pipeline.out"

# kunit.py parse's lines: a suite, a parameterised case in it.
kunit_log()
{
	printf '[00:00:00] ========== %s (2 subtests) ==========\n' "$1"
	printf '[00:00:00] [PASSED] a_case\n'
	printf '[00:00:00] ========== %s  ==========\n' "$2"
	printf '[00:00:00] [SKIPPED] %s (why)\n' "$3"
	printf '[00:00:00] ====== [SKIPPED] %s ======\n' "$2"
	printf '[00:00:00] ====== [PASSED] %s ======\n' "$1"
	printf '[00:00:00] Testing complete. Ran 2 tests: passed: 1, skipped: 1\n'
}

kunit_log a_suite a_case irq_spread_test_unheard_of > "$tmp/kunit.log"
ok 1 "$(pipeline "count_kunit 'kunit (nosmp)' $tmp/kunit.log; check_skips")" \
	"check.sh: a KUnit case skipped, not an expected skip: the run fails" \
	"$tmp/pipeline.out"

kunit_log a_suite a_param_case "a parameter" > "$tmp/kunit.log"
pipeline "kunit_skips $tmp/kunit.log" > /dev/null
ok "a_suite.a_param_case.a parameter" "$(cat "$tmp/pipeline.out")" \
	"check.sh: a skipped parameter of a KUnit case is named suite.case.parameter" \
	"$tmp/pipeline.out"

# A pattern of pipeline/expected-skips: "kunit (nosmp): irq_spread_fault.*".
kunit_log irq_spread_fault a_case "a parameter" > "$tmp/kunit.log"
ok 0 "$(pipeline "count_kunit 'kunit (nosmp)' $tmp/kunit.log; check_skips")" \
	"check.sh: a KUnit case skipped that a pattern of pipeline/expected-skips matches: no failure" \
	"$tmp/pipeline.out"
ok 1 "$(pipeline "count_kunit 'kunit (guest)' $tmp/kunit.log; check_skips")" \
	"check.sh: the same skip where the list names none (kunit (guest)): the run fails" \
	"$tmp/pipeline.out"

printf 'ok 1 a\nok 2 b # SKIP not here\n1..2\n' > "$tmp/ktap.txt"
ok 1 "$(pipeline "count_ktap nosmp $tmp/ktap.txt; check_skips")" \
	"check.sh: a KTAP check skipped, not an expected skip: the run fails" \
	"$tmp/pipeline.out"

# The kernel log and kmemleak.
d=$(guest_results_dir guest < /dev/null)
echo "[   12.5] UBSAN: shift-out-of-bounds in lib/irq_spread/spread.c:10:5" > "$d/dmesg.txt"
ok 1 "$(pipeline "check_splats $d guest ''")" \
	"check.sh: a UBSAN report in the kernel log: the run fails" "$tmp/pipeline.out"

d=$(guest_results_dir guest < /dev/null)
rm "$d/kmemleak.txt"
echo "[    9.1] kmemleak: Kernel memory leak detector disabled" > "$d/dmesg.txt"
ok 1 "$(pipeline "check_splats $d guest ''")" \
	"check.sh: kmemleak off in a guest not booted with kmemleak=off: the run fails" \
	"$tmp/pipeline.out"
ok 0 "$(pipeline "check_splats $d guest 'kunit.enable=0 kmemleak=off'")" \
	"check.sh: no kmemleak report from a guest booted with kmemleak=off: no failure" \
	"$tmp/pipeline.out"

# The selftests' Makefile and the pipeline's lists.
mkdir -p "$tmp/st"
printf 'TEST_PROGS := \\\n\ta.sh \\\n\tb.sh \\\n# end\n\nTEST_FILES := lib.sh\n' > "$tmp/st/Makefile"
touch "$tmp/st/a.sh" "$tmp/st/b.sh" "$tmp/st/lib.sh"
printf 'irq_spread/a.sh\nirq_spread/b.sh\n' > "$tmp/list"
ok 0 "$(pipeline "gate_lists $tmp/st $tmp/list")" \
	"check.sh: the lists run what the Makefile names: no failure" "$tmp/pipeline.out"
printf 'irq_spread/a.sh\n' > "$tmp/list"
ok 1 "$(pipeline "gate_lists $tmp/st $tmp/list")" \
	"check.sh: a test in TEST_PROGS that no list runs: the run fails" "$tmp/pipeline.out"
printf 'irq_spread/a.sh\nirq_spread/b.sh\n' > "$tmp/list"
touch "$tmp/st/c.sh"
ok 1 "$(pipeline "gate_lists $tmp/st $tmp/list")" \
	"check.sh: a script of the folder the Makefile does not name: the run fails" \
	"$tmp/pipeline.out"

echo "1..$n"
