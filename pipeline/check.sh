#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [STAGE...]: the project's test pipeline (make check).
#
# Stages, in order (default: all but kunit):
#   deps         install what is missing (apt-get, idempotent)
#   prepare      base + overlay + patches into the build tree
#   guest-build  the x86_64 NUMA guest kernel; then the guests boot in the
#                background, one after the other, and the stages up to
#                guest run beside them at idle priority (guest_start)
#   tools        the userspace preview tool (tools/irq_spread), built from
#                the library's own engine files: its tests
#                (tools/testing/irq_spread) on the machines there, the
#                machines' generator check, and each libFuzzer target for
#                60 s (in the background beside the guests when the guest
#                stage runs, which reports them)
#   gates        the irq_spread selftests of their Makefile against the
#                lists, the harness's rules (tools/testing/irq_spread/
#                harness), checkpatch --strict, kernel-doc, the netdev family's
#                generated files against its spec (ynl-regen), each
#                .kunitconfig configured under UML, W=1 (also with SMP=n),
#                W=1 of the driver files the series patches (new warnings
#                only), coccicheck (the project's .cocci files over its
#                own code and the driver files the series patches: no
#                report)
#   nosmp        a uniprocessor (CONFIG_SMP=n) kernel with netdevsim and
#                irq_spread, then booted on one vCPU (in the background
#                when the guest stage runs) for irq_spread's KUnit suites
#                and a few checks of netdevsim ports
#   kunit        KUnit under UML, one .kunitconfig per suite (make kunit,
#                make bench): not in the default run, where every one of
#                its cases runs in the NUMA guest (SMP, KASAN) and in the
#                uniprocessor guest, and the gates check that each
#                .kunitconfig configures under UML; only its benchmarks,
#                the slow cases, are left to make bench
#   guest        three guests: the first, on the NUMA + SMT machine
#                (booted after guest-build), runs the built-in KUnit
#                suites, the irq_spread selftests, then the upstream
#                netdevsim ones; the second, booted once the first has
#                booted, with isolcpus= and irq_spread.policy=, the tests
#                that need those and the hotplug churn; the third, after
#                it, on a machine with three cores per node, rule checks
#                and irqbalance;
#                results and splat checks of all, of the uniprocessor
#                guest and of the tools
#
# Every stage runs even when an earlier one failed (except those that need
# its output), so one run reports everything.  Any skip that
# pipeline/expected-skips does not name fails the run.  Ends with the stage times and
# one line "N passed, N failed" counting KUnit cases, selftests and the
# nosmp guest's checks; a failed gate, build or splat check adds one to
# "failed".  Exits 0 iff nothing failed.
set -uo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

STAGES="deps prepare guest-build tools nosmp gates kunit guest"
# make check: UML KUnit builds a third kernel, minutes of a cold run, for
# cases the guests run too (see kunit above).
DEFAULT_STAGES="deps prepare guest-build tools nosmp gates guest"
# The guests, each "name|boot arguments|selftest list run one at a time|
# list run two at a time, after kmemleak's report" (selftests-job.sh).  The
# first runs the KUnit suites built into the kernel (not the slow cases:
# the pool benchmark, whose ratios under KASAN and TCG mean nothing and
# which UML runs, and the page pool's NAPI benchmark, which make bench
# runs) from its job rather than at boot (kunit.autorun=0,
# guest/kunit-job.sh), so that allocations can fail while they run; then
# the irq_spread selftests, which expect placements computed from
# every device's load, alone (their hand tables must apply there:
# IRQ_SPREAD_TABLES=required).  The second
# boots with CPUs that irq_spread must never choose (a whole core, {2,3},
# and one thread of another, 9) and with a default policy followed by a
# value that names none, which must be logged and change nothing; it runs
# two short tests.  It boots with kmemleak=off: the first guest's tests run
# the same library code under kmemleak (bad-input.sh writes bad policy
# names at run time), and kmemleak's tracking and scans took this guest
# from 46 s to 87 s beside the first guest's irq_spread tests.
GUEST_MAIN="guest|kunit.autorun=0 kunit.filter=speed>slow|$PIPELINE_DIR/irq-spread-selftests.list|"
# The third, on the same kernel, is a machine of another shape
# (run-guest.sh --three-core: three cores per node, where the project's
# guest has two): the rule checks of the tests in its list, which skip
# their hand tables there, hold on it too, stress.sh among them, under
# kmemleak; then the upstream netdevsim tests, two at a time.  stress.sh
# and those tests ran last in the first guest, which is the longest of a
# warm run: there they made it 110 s longer, here they use the CPU time
# the first guest leaves.  A fifth field is run-guest.sh's machine
# option.
GUEST_MORE=(
	"guest-isolcpus|isolcpus=managed_irq,2-3,9 irq_spread.policy=numa-core irq_spread.policy=no-such-policy kunit.enable=0 kmemleak=off|$PIPELINE_DIR/irq-spread-isolcpus.list|"
	"guest-3core|kunit.enable=0|$PIPELINE_DIR/irq-spread-3core.list|$PIPELINE_DIR/netdevsim-selftests.list|--three-core"
)
# churn.sh's CPU hotplug cycles, stress.sh's seconds and irqbalance.sh's
# seconds of the daemon's normal mode in make check: 100 (about 75 s of
# the isolcpus guest), 40 and 20; the tests' own defaults, 300, 60 and
# 60, with IRQ_SPREAD_CHURN_CYCLES=300 IRQ_SPREAD_STRESS_SECONDS=60
# IRQ_SPREAD_IRQBALANCE_SECONDS=60 make check.  fault.sh's operations run
# in the first guest, its pool mode, devlink reload and XPS work in the
# three-core one (IRQ_SPREAD_FAULT).  The guests share the host's two cores, and a warm run is
# as long as the longer of the first guest and the two others in turn.
CHURN_CYCLES=${IRQ_SPREAD_CHURN_CYCLES:-100}
STRESS_SECONDS=${IRQ_SPREAD_STRESS_SECONDS:-40}
IRQBALANCE_SECONDS=${IRQ_SPREAD_IRQBALANCE_SECONDS:-20}
GUEST_PID=
GUEST_T0=
MORE_PID=
NOSMP_PID=
TOOLS_PID=
LOG=$RUN/logs
passed=0
failed=0
skipped=0
# What skipped, a line each ("where: what"); any not in pipeline/expected-
# skips fails the run (check_skips).
skips=()
times=()
notes=()

note()
{
	notes+=("$*")
	echo "$*"
}

fail()
{
	failed=$((failed + 1))
	note "FAIL: $*"
}

# A test or check that skipped: $1 where ("kunit (nosmp)", "guest-3core"),
# $2 what.  Counted, and kept for check_skips.
skip_seen()
{
	skipped=$((skipped + 1))
	skips+=("$1: $2")
}

# Every skip of the run must be one pipeline/expected-skips names (a line
# each, a shell pattern; "#" comments): any other fails, so a test that
# stops checking on a machine where it should check cannot pass for one
# that checked.
check_skips()
{
	local expected=$PIPELINE_DIR/expected-skips s p

	for s in "${skips[@]}"; do
		while read -r p; do
			# shellcheck disable=SC2053
			[[ $s == $p ]] && continue 2
		done < <(grep -v -E '^(#|$)' "$expected")
		fail "unexpected skip: $s (not in pipeline/expected-skips)"
	done
}

# The KUnit cases that skipped in kunit.py parse's output $1, a line each,
# "suite.case" (a parameterised case's "suite.case.parameter"): its lines
# "[SKIPPED] name (why)" under the "==== suite (N subtests) ====" and
# "==== case ====" lines that open each suite and parameterised case, and
# "==== [STATUS] name ====" that close them.
kunit_skips()
{
	awk '/\] =+ \[[A-Z]+\] .* =+$/ { if (n) n--; next }
	     /\] =+ [^[=].* =+$/ {
		s = $0; sub(/^.*\] =+ /, "", s)
		sub(/ *(\([0-9]+ subtests\))? *=+$/, "", s)
		stack[++n] = s; next
	     }
	     /\] \[SKIPPED\] / {
		c = $0; sub(/^.*\] \[SKIPPED\] /, "", c); sub(/ \([^()]*\)$/, "", c)
		k = ""; for (i = 1; i <= n; i++) k = k stack[i] "."
		print k c
	     }' "$1"
}

# Count a kunit.py summary line: "Ran N tests: passed: P, failed: F, ...".
count_kunit()
{
	local what=$1 log=$2 line p f s c e

	line=$(grep -a -o 'Ran [0-9]* tests:.*' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		fail "$what: no KUnit results (log: $log)"
		return
	fi
	p=$(echo "$line" | grep -o 'passed: [0-9]*' | grep -o '[0-9]*')
	f=$(echo "$line" | grep -o 'failed: [0-9]*' | grep -o '[0-9]*')
	s=$(echo "$line" | grep -o 'skipped: [0-9]*' | grep -o '[0-9]*')
	c=$(echo "$line" | grep -o 'crashed: [0-9]*' | grep -o '[0-9]*')
	e=$(echo "$line" | grep -o 'errors: [0-9]*' | grep -o '[0-9]*')
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0} + ${c:-0} + ${e:-0}))
	note "$what: $line"
	[ $((${p:-0} + ${f:-0} + ${s:-0} + ${c:-0})) -gt 0 ] ||
		fail "$what: no KUnit case ran (log: $log)"
	while read -r c; do
		skip_seen "$what" "$c"
	done < <(kunit_skips "$log")
	if [ $((${f:-0} + ${c:-0} + ${e:-0})) -ne 0 ]; then
		grep -a -E '\[(FAILED|CRASHED)\]|# .*(Expected|EXPECTATION|ASSERTION)' "$log" | head -n 20
	fi
}

# Project files, as paths inside the kernel tree.
project_files()
{
	grep -E "$1" "$CACHE/laid" | while read -r f; do
		[ -e "$ORIG/$f" ] || echo "$f"
	done
}

stage_deps()
{
	bash "$PIPELINE_DIR/install-deps.sh" || fail "deps: install-deps.sh failed"
}

stage_prepare()
{
	bash "$PIPELINE_DIR/prepare-tree.sh" || { fail "prepare: build tree not ready"; return 1; }
}

# checkpatch's verdict on a file depends only on its path, its content and
# the base tree's checkpatch.pl: files found clean are remembered under
# $BUILD/checkpatch-clean, so that a warm run checks only what changed.
checkpatch_key()
{
	{ cat "$SRC/.irq_spread-base"; echo "$1"; cat "$2"; } | sha256sum |
		cut -c1-64
}

# Run checkpatch.pl --strict, with option $1 (-f or nothing), in $SRC on
# the files named in $2 (relative to $SRC, or absolute) that it did not find
# clean before.
checkpatch_new()
{
	local mode=$1 f k todo=() keys=()

	for f in $2; do
		k=$(cd "$SRC" && checkpatch_key "$f" "$f")
		[ -e "$BUILD/checkpatch-clean/$k" ] && continue
		todo+=("$f")
		keys+=("$k")
	done
	[ ${#todo[@]} -gt 0 ] || return 0
	# shellcheck disable=SC2086
	(cd "$SRC" && perl scripts/checkpatch.pl --strict --terse --no-summary \
		--show-types $mode "${todo[@]}") || return 1
	mkdir -p "$BUILD/checkpatch-clean"
	for k in "${keys[@]}"; do
		: > "$BUILD/checkpatch-clean/$k"
	done
}

gate_checkpatch()
{
	local files p bad=0

	# The tool's compat headers (include/: the library's, and mlx5_shim.h,
	# the bench's for mlx5's own source) mimic kernel interfaces under their
	# kernel names (typedefs, macros that drop arguments): checkpatch's rules
	# are for the code that uses them.
	# The fuzz targets' entry points have libFuzzer's names, and their
	# messages stay whole lines, as coding-style.rst wants of messages.
	files=$(project_files '\.(c|h)$|(^|/)Kconfig[^/]*$' |
		grep -v -e '^tools/irq_spread/include/' -e '^tools/irq_spread/fuzz/')
	checkpatch_new -f "$files" || bad=1
	files=$(project_files '^tools/irq_spread/fuzz/.*\.c$')
	checkpatch_new "-f --ignore CAMELCASE,LONG_LINE_STRING" "$files" || bad=1
	# The base is Debian's tarball, without git history: checkpatch cannot
	# look up the commit ids of Fixes: tags.
	for p in $(grep -v -E '^(#|$)' "$REPO_DIR/patches/series" 2>/dev/null); do
		checkpatch_new "--ignore UNKNOWN_COMMIT_ID" "$REPO_DIR/patches/$p" ||
			bad=1
	done
	[ $bad -eq 0 ] || fail "gates: checkpatch --strict"
}

gate_kernel_doc()
{
	local files out

	files=$(project_files '\.(c|h)$')
	[ -n "$files" ] || return 0
	# shellcheck disable=SC2086
	out=$(cd "$SRC" && perl scripts/kernel-doc -none -Wall $files 2>&1)
	if [ -n "$out" ]; then
		echo "$out"
		fail "gates: kernel-doc -Wall"
	fi
}

# The files YNL generates from the netdev spec, which the series changes,
# are what tools/net/ynl/ynl-regen.sh -f would write: each is generated
# again, as the script does (the spec and mode from the file's YNL-GEN
# comment), into a scratch directory and compared.
gate_ynl_regen()
{
	local f tmp out bad= params args

	tmp=$(mktemp -d)
	for f in include/uapi/linux/netdev.h tools/include/uapi/linux/netdev.h \
		 net/core/netdev-genl-gen.c net/core/netdev-genl-gen.h; do
		# shellcheck disable=SC2207
		params=($(grep -B1 -h '/\* YNL-GEN' "$SRC/$f" | sed 's@/\*\(.*\)\*/@\1@'))
		args=$(sed -n 's@/\* YNL-ARG \(.*\) \*/@\1@p' "$SRC/$f")
		out=$tmp/${f//\//_}/${f##*/}
		mkdir -p "${out%/*}"
		# shellcheck disable=SC2086
		if ! (cd "$SRC" && /usr/bin/python3 tools/net/ynl/pyynl/ynl_gen_c.py \
			--mode "${params[2]}" "--${params[3]}" \
			--spec "$SRC/${params[0]}" $args -o "$out") > "$tmp/log" 2>&1; then
			cat "$tmp/log"
			bad+=" $f"
		elif ! cmp -s "$SRC/$f" "$out"; then
			diff -u "$SRC/$f" "$out" | head -n 40
			bad+=" $f"
		fi
	done
	rm -rf "$tmp"
	[ -z "$bad" ] || fail "gates: ynl-regen: not what the spec generates:$bad"
}

# W=1 builds of the project's objects, each in a build directory of its own
# so that the guest and UML builds never see their objects' flags change:
# one configured as the guest, and the config corner of a uniprocessor
# kernel, the same config with CONFIG_SMP=n.  Warnings fail.
gate_w1()
{
	local objs

	objs=$(project_files '\.c$' | grep -v '^tools/' | sed 's/\.c$/.o/')
	[ -n "$objs" ] || return 0
	w1_build w1 config "W=1" "$objs"
	w1_build w1-nosmp config-nosmp "W=1 (SMP=n)" "$objs"
}

# W=1 build in $BUILD/$1 configured by build-guest.sh $2; $3 names it in
# failures, $4 is the objects.
w1_build()
{
	local dir=$BUILD/$1 log=$LOG/$1.log what=$3

	bash "$PIPELINE_DIR/build-guest.sh" "$2" "$dir" > "$log" 2>&1 ||
		{ cat "$log"; fail "gates: $what config"; return; }
	: > "$LOG/w1.stamp"
	# shellcheck disable=SC2086
	if ! W1_DIR=$dir with_progress "gates: $what" w1_progress "$log" \
		make -C "$SRC" O="$dir" -j"$JOBS" W=1 $4; then
		tail -n 40 "$log"
		fail "gates: $what build"
		return
	fi
	if grep -E 'warning:|error:' "$log"; then
		fail "gates: $what warnings"
	fi
}

# The .c files under drivers/ that a patch of the series touches.
series_driver_files()
{
	local p

	for p in $(grep -v -E '^(#|$)' "$REPO_DIR/patches/series" 2>/dev/null); do
		sed -n 's|^+++ b/\(drivers/[^\t]*\.c\)\(\t.*\)\{0,1\}$|\1|p' \
			"$REPO_DIR/patches/$p"
	done | sort -u
}

# The warnings and errors of build log $1, sorted, one per line as "path:
# warning: text", without the source tree $2, without the line and column
# numbers, which a patch shifts, and with the locale's quotes as '.
w1_warnings()
{
	grep -a -E ': (warning|error): ' "$1" |
		LC_ALL=C sed -E -e "s|^$2/||" -e 's|^\./||' \
			-e 's|^([^:]+):[0-9]+(:[0-9]+)?: |\1: |' \
			-e "s/\xe2\x80[\x98\x99]/'/g" | LC_ALL=C sort
}

# What the W=1 verdict on driver file $1 depends on: the base, the file,
# the guest config (and with it the compiler), its content and that of
# every file the project lays that its last build included (its .o.cmd).
w1_driver_key()
{
	local f=$1 cmd

	cmd=$BUILD/w1/${f%/*}/.$(basename "${f%.c}").o.cmd
	{
		cat "$SRC/.irq_spread-base"
		echo "$f"
		cat "$BUILD/w1/.config" "$SRC/$f"
		[ -f "$cmd" ] && sed "s|^|$SRC/|" "$CACHE/laid" |
			grep -o -F -f - "$cmd" | LC_ALL=C sort -u |
			while read -r h; do
				echo "$h"
				cat "$h"
			done
	} | sha256sum | cut -c1-64
}

# The same for the base's copy of $1: the base, the file, the guest config.
w1_base_key()
{
	{
		cat "$SRC/.irq_spread-base"
		echo "$1"
		cat "$BUILD/w1/.config" "$ORIG/$1"
	} | sha256sum | cut -c1-64
}

# The pristine base tree, $BUILD/w1-base/src: symbolic links into $SRC
# (cp -as, 3 s), made once per base, in which every file the project lays
# is the pristine copy, or absent for the project's own files; and its
# build directory, configured from the guest's W=1 config.
w1_base_tree()
{
	local top=$BUILD/w1-base tree=$BUILD/w1-base/src f

	link_tree_make "$top" || return 1
	while read -r f; do
		if [ -e "$ORIG/$f" ]; then
			[ ! -L "$tree/$f" ] && cmp -s "$ORIG/$f" "$tree/$f" && continue
			rm -f "$tree/$f"
			cp "$ORIG/$f" "$tree/$f"
		else
			rm -f "$tree/$f"
		fi
	done < "$CACHE/laid"
	link_tree_config "$top" "$BUILD/w1/.config"
}

# Build object $2 of tree $1 in build directory $3 with W=1, from scratch,
# output into log $4; fails if it does not build or is not in the config.
w1_object()
{
	rm -f "$3/$2"
	make -C "$1" O="$3" W=1 "$2" > "$4" 2>&1 && [ -f "$3/$2" ]
}

# W=1 gate of the upstream driver files the series patches, with the guest
# config: a file's warnings (without line numbers) must be among those the
# base's copy of it gives, so an upstream file that warns already fails
# only on new warnings; the base's copy is built only for a file that
# warns.  The base's warnings are kept per base, file and
# config in $BUILD/w1-warnings; a file found clean is remembered under
# $BUILD/w1-drivers-clean by w1_driver_key, so a warm run builds nothing.
gate_w1_drivers()
{
	local f o k bk log=$LOG/w1-drivers.log base=$BUILD/w1-base
	local files todo=() new clean=0

	files=$(series_driver_files)
	[ -n "$files" ] || return 0
	if [ ! -f "$BUILD/w1/.config" ]; then
		bash "$PIPELINE_DIR/build-guest.sh" config "$BUILD/w1" > "$log" 2>&1 ||
			{ cat "$log"; fail "gates: W=1 (drivers) config"; return; }
	fi
	for f in $files; do
		k=$(w1_driver_key "$f")
		[ -e "$BUILD/w1-drivers-clean/$k" ] || todo+=("$f")
	done
	[ ${#todo[@]} -gt 0 ] || return 0
	mkdir -p "$BUILD/w1-warnings" "$BUILD/w1-drivers-clean"
	for f in "${todo[@]}"; do
		o=${f%.c}.o
		if ! w1_object "$SRC" "$o" "$BUILD/w1" "$log"; then
			tail -n 40 "$log"
			fail "gates: W=1 (drivers) build of $o"
			continue
		fi
		new=$(w1_warnings "$log" "$SRC")
		# Only a file that warns needs the base's copy built (and, the
		# first time, the base's build directory prepared: minutes).
		bk=$BUILD/w1-warnings/$(w1_base_key "$f")
		if [ -n "$new" ] && [ ! -f "$bk" ]; then
			if ! w1_base_tree > "$log.base" 2>&1 ||
			   ! w1_object "$base/src" "$o" "$base/build" "$log.base"; then
				tail -n 40 "$log.base"
				fail "gates: W=1 (drivers) base build of $o"
				continue
			fi
			w1_warnings "$log.base" "$base/src" > "$bk"
		fi
		[ -z "$new" ] || new=$(echo "$new" | LC_ALL=C comm -13 "$bk" -)
		if [ -n "$new" ]; then
			echo "$new"
			fail "gates: W=1 (drivers) new warnings in $o"
			continue
		fi
		: > "$BUILD/w1-drivers-clean/$(w1_driver_key "$f")"
		clean=$((clean + 1))
	done
	echo "W=1 (drivers): ${#todo[@]} of $(echo "$files" | wc -l) patched driver files built, $clean with no new warnings"
}

# Every .cocci file of the project over the project's own C files, by
# directory as make coccicheck M= runs them, and over the upstream driver
# files the series patches: any report fails, so the project never
# open-codes what its own scripts find (irq_spread.cocci: IRQ placement).
gate_coccicheck()
{
	local cocci log=$LOG/coccicheck.log dirs patched c d f found

	cocci=$(project_files '\.cocci$')
	if [ -z "$cocci" ]; then
		echo "coccicheck: the project has no .cocci files yet"
		return 0
	fi
	dirs=$(project_files '\.c$' | grep -v '^tools/' | xargs -r -n1 dirname | sort -u)
	patched=$(series_driver_files)
	: > "$log"
	for c in $cocci; do
		for d in $dirs; do
			make -C "$SRC" O="$BUILD/w1" coccicheck MODE=report COCCI="$SRC/$c" \
				M="$d" >> "$log" 2>&1 || { tail -n 20 "$log"; fail "gates: coccicheck $c on $d"; }
		done
		for f in $patched; do
			(cd "$SRC" && spatch -D report --very-quiet --no-includes \
				--include-headers --sp-file "$c" "$f") >> "$log" 2>&1 ||
				{ tail -n 20 "$log"; fail "gates: spatch $c on $f"; }
		done
	done
	# The placement script's own tests: the shapes it must find, leave
	# alone and rewrite (tools/testing/irq_spread/cocci).
	bash "$REPO_DIR/tools/testing/irq_spread/cocci/run.sh" \
		"$SRC/scripts/coccinelle/api/irq_spread.cocci" > "$LOG/cocci-tests.tap" 2>&1
	count_ktap "gates: irq_spread.cocci tests" "$LOG/cocci-tests.tap"
	found=$(grep -a -E '^[^ ]+:[0-9]+:[0-9]+-[0-9]+: (WARNING|ERROR)' "$log")
	if [ -n "$found" ]; then
		echo "$found"
		fail "gates: coccicheck reports the project's own code"
	fi
	echo "coccicheck: $(echo "$cocci" | wc -w) script(s) over $(echo "$dirs" | wc -w) project directories and $(echo "$patched" | wc -w) patched driver files: no report"
}

# The project's .kunitconfig files must configure under UML as kunit.py
# run takes them (every symbol they set stuck), without building: the
# kunit stage, which builds and runs them, is not in the default run.
gate_kunitconfig()
{
	local log=$LOG/kunitconfig.log cfgs=() f

	while read -r f; do
		cfgs+=(--kunitconfig "$SRC/$f")
	done < <(project_files '(^|/)\.kunitconfig$')
	[ ${#cfgs[@]} -gt 0 ] || { fail "gates: no .kunitconfig in the project"; return; }
	if ! (cd "$SRC" && python3 tools/testing/kunit/kunit.py config \
		--arch=um --build_dir="$BUILD/uml" "${cfgs[@]}") > "$log" 2>&1; then
		tail -n 20 "$log"
		fail "gates: a .kunitconfig does not configure under UML"
	fi
}

# The words of Makefile variable $2 (a ":=" with "\" continued lines) in
# Makefile $1.
make_var()
{
	awk -v v="$2" '$1 == v && $2 == ":=" { on = 1; $1 = $2 = "" }
		on { sub(/#.*/, ""); c = sub(/\\$/, ""); print; on = c }' "$1" |
		tr -s ' \t' '\n' | grep -v '^$'
}

# The irq_spread selftests the pipeline's lists run ($2...) are those of
# their folder's Makefile ($1/Makefile, TEST_PROGS); every
# script of the folder is in TEST_PROGS or TEST_FILES, every one of those
# there: a test kselftest installs is a test the pipeline runs.
gate_lists()
{
	local dir=$1 mk=$1/Makefile progs files listed f bad=0

	shift
	progs=$(make_var "$mk" TEST_PROGS | LC_ALL=C sort)
	files=$(make_var "$mk" TEST_FILES)
	listed=$(sed -e 's/#.*//' "$@" | grep -o '^irq_spread/[^ ]*' |
		sed 's,^irq_spread/,,' | LC_ALL=C sort -u)
	f=$(LC_ALL=C comm -3 <(echo "$progs") <(echo "$listed") | tr -d '\t')
	[ -z "$f" ] || { echo "in TEST_PROGS or in a list, not both: $f"; bad=1; }
	for f in "$dir"/*; do
		f=${f##*/}
		echo "$progs $files Makefile config" | tr ' ' '\n' | grep -q -x -F "$f" ||
			{ echo "$f: in neither TEST_PROGS nor TEST_FILES"; bad=1; }
	done
	for f in $progs $files; do
		[ -e "$dir/$f" ] || { echo "$f: in the Makefile, not in $dir"; bad=1; }
	done
	[ $bad -eq 0 ] || fail "gates: the irq_spread selftests of $mk and of the pipeline's lists differ"
}

# The harness's own rules, each fed a failing case (tools/testing/
# irq_spread/harness): a check that fails is never hidden.
gate_harness()
{
	bash "$REPO_DIR/tools/testing/irq_spread/harness/run.sh" \
		> "$LOG/harness.tap" 2>&1
	count_ktap "gates: harness rules" "$LOG/harness.tap"
}

stage_gates()
{
	gate_lists "$REPO_DIR/tools/testing/selftests/irq_spread" "$PIPELINE_DIR"/irq-spread-*.list
	gate_harness
	gate_checkpatch
	gate_kernel_doc
	gate_ynl_regen
	gate_kunitconfig
	gate_w1
	gate_w1_drivers
	gate_coccicheck
}

stage_kunit()
{
	local log=$LOG/kunit-uml.log cfgs=() f

	while read -r f; do
		cfgs+=(--kunitconfig "$SRC/$f")
	done < <(project_files '(^|/)\.kunitconfig$')
	if [ ${#cfgs[@]} -eq 0 ]; then
		fail "kunit: no .kunitconfig in the project"
		return
	fi
	mkdir -p "$BUILD/uml"
	: > "$LOG/kunit.stamp"
	: > "$log"
	KUNIT_LOG=$log with_progress "kunit (UML)" kunit_progress "$log" \
		kunit_run "${cfgs[@]}"
	grep -a -E '^\[[0-9:]+\] ' "$log" | grep -a -v -E '\[PASSED\]' | tail -n 40
	count_kunit "kunit (UML)" "$log"
}

# At idle priority beside the guests (guest_start), the UML kernel may
# wait minutes for a CPU: kunit.py's own 300 s for the run is too short.
kunit_run()
{
	cd "$SRC" && python3 tools/testing/kunit/kunit.py run --arch=um \
		--build_dir="$BUILD/uml" --jobs "$JOBS" --timeout 1800 "$@"
}

# How far the UML KUnit run is: its kernel's objects, then its cases.
kunit_progress()
{
	echo "$(find "$BUILD/uml" -name '*.o' -newer "$LOG/kunit.stamp" | wc -l) objects compiled, $(grep -a -c '\[PASSED\]' "$KUNIT_LOG") cases passed"
}

# The objects of W=1 build directory $W1_DIR made since the gate began.
w1_progress()
{
	echo "$(find "$W1_DIR" -name '*.o' -newer "$LOG/w1.stamp" | wc -l) objects compiled in ${W1_DIR##*/}"
}

# The preview tool is user space: built from the tree's copy, whose files
# keep their times from run to run (a clone's are new), into $BUILD/tools;
# its machines are the clone's (they are not laid: NOT_LAID).  The build,
# the tests and the fuzz targets run at idle priority (SCHED_IDLE) in the
# background when the guest stage runs, so that they take only what the
# guests leave of the CPUs; the guest stage reports them.
stage_tools()
{
	case " $want " in
	*" guest "*)
		(chrt --idle -p 0 $BASHPID && tools_run) > "$LOG/tools-job.log" 2>&1 &
		TOOLS_PID=$!
		;;
	*)
		tools_run
		tools_results
		;;
	esac
}

# Run by stage_tools, maybe in a shell of its own: writes every result to
# $RUN/tools.
tools_run()
{
	local out=$BUILD/tools log=$LOG/tools.log tool=$SRC/tools/irq_spread
	local t

	rm -rf "$RUN/tools"
	mkdir -p "$out" "$RUN/tools"
	if ! make -C "$tool" OUTPUT="$out/" -j"$JOBS" all tests > "$log" 2>&1; then
		echo "build" > "$RUN/tools/failed"
		return
	fi
	python3 "$REPO_DIR/tools/testing/irq_spread/machines/make-machines.py" \
		--check >> "$log" 2>&1 || echo "machines" >> "$RUN/tools/failed"
	python3 "$REPO_DIR/tools/testing/irq_spread/preview_test.py" \
		"$out/irq_spread" "$REPO_DIR/$NOT_LAID" > "$RUN/tools/preview.tap" 2>> "$log"
	for t in $(make -s -C "$tool" OUTPUT="$out/" list-tests); do
		"$out/$t" > "$RUN/tools/${t##*/}.tap" 2>> "$log"
	done
	# run.sh builds the targets (clang, ASan, UBSan) in $BUILD/fuzz and
	# runs both at once from copies of the seed corpora.
	bash "$tool/fuzz/run.sh" 60 "$BUILD/fuzz" > "$RUN/tools/fuzz.txt" 2>> "$log" ||
		echo "fuzz" >> "$RUN/tools/failed"
	: > "$RUN/tools/done"
}

tools_results()
{
	local f

	[ -e "$RUN/tools/done" ] || [ -e "$RUN/tools/failed" ] ||
		{ fail "tools: did not run to its end (log: $LOG/tools.log)"; return; }
	if grep -qx build "$RUN/tools/failed" 2>/dev/null; then
		tail -n 30 "$LOG/tools.log"
		fail "tools: build"
		return
	fi
	grep -qx machines "$RUN/tools/failed" 2>/dev/null &&
		fail "tools: machines differ from make-machines.py (log: $LOG/tools.log)"
	for f in "$RUN/tools/"*.tap; do
		count_ktap "tools: $(basename "$f" .tap)" "$f"
	done
	cat "$RUN/tools/fuzz.txt" 2>/dev/null
	while read -r f; do
		note "tools: $f"
	done < <(grep -h 'execs' "$RUN/tools/fuzz.txt" 2>/dev/null)
	grep -qx fuzz "$RUN/tools/failed" 2>/dev/null &&
		fail "tools: a fuzz target crashed or did not build (see $BUILD/fuzz, $LOG/tools.log)"
}

# The KTAP lines "ok N name # SKIP why" of file $2 as skips of $1.
ktap_skips()
{
	local c

	while read -r c; do
		skip_seen "$1" "$c"
	done < <(sed -n 's/^ok [0-9]* \(.*[^ ]\) *# SKIP.*/\1/p' "$2")
}

# Count the KTAP lines "ok N name", "ok N name # SKIP why" and "not ok N
# name" of file $2, written by $1; its plan "1..N" must match them.  Each
# failure is shown with the "# " lines under it.
count_ktap()
{
	local what=$1 f=$2 p s n plan

	[ -f "$f" ] || { fail "$what: no results ($f)"; return; }
	p=$(grep -c -E '^ok [0-9]+ ' "$f")
	s=$(grep -c -E '^ok [0-9]+ .*# SKIP' "$f")
	n=$(grep -c -E '^not ok [0-9]+ ' "$f")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$f")
	passed=$((passed + p - s))
	failed=$((failed + n))
	ktap_skips "$what" "$f"
	note "$what: $((p - s)) passed, $n failed, $s skipped ($f)"
	[ "${plan:-none}" = $((p + n)) ] ||
		fail "$what: ${plan:-no} planned checks, $((p + n)) ran"
	awk '/^not ok / { show = 1; print; next }
	     /^(ok |1\.\.)/ { show = 0 }
	     show && /^#/' "$f" | head -n 60
}

# The uniprocessor guest: a CONFIG_SMP=n kernel (pipeline/nosmp.config)
# with netdevsim and irq_spread built in, where placement is a no-op, on one
# vCPU.  Its job (guest/nosmp-job.sh) creates, checks and removes netdevsim
# ports, one KTAP line per check.  The stage builds the kernel; the guest
# then runs in the background, beside UML KUnit and the other guests, and
# the guest stage reports it (or this stage, when the guest stage is not
# run).
stage_nosmp()
{
	bash "$PIPELINE_DIR/build-guest.sh" build-nosmp "$BUILD/nosmp" ||
		{ fail "nosmp: kernel did not build"; return; }
	case " $want " in
	*" guest "*)
		# A guest of its own: at the guests' priority, not at idle.
		(chrt --other -p 0 $BASHPID && nosmp_run) &
		NOSMP_PID=$!
		;;
	*)
		nosmp_run
		nosmp_results
		;;
	esac
}

# Boot the uniprocessor guest and run its job; the exit code of run-guest.sh
# lands in $RUN/nosmp.rc, its run time in $RUN/nosmp.secs.
nosmp_run()
{
	local job=$RUN/nosmp-job.sh t0

	mkdir -p "$RUN"
	cat > "$job" <<-JOB
		SRC=$SRC
		. $PIPELINE_DIR/guest/nosmp-job.sh
	JOB
	echo "nosmp: booting (console: $RUN/nosmp/console.log)"
	t0=$(date +%s)
	bash "$PIPELINE_DIR/run-guest.sh" --nosmp "$RUN/nosmp" "$job" 600 \
		"kunit.filter=speed>slow" > "$LOG/run-nosmp.log" 2>&1
	echo $? > "$RUN/nosmp.rc"
	echo $(($(date +%s) - t0)) > "$RUN/nosmp.secs"
}

# Check the uniprocessor guest's results: its run, its job's exit code, its
# KUnit suites, its KTAP checks, its kernel log.
nosmp_results()
{
	echo "nosmp: ran $(cat "$RUN/nosmp.secs" 2>/dev/null)s from power-on to power-off"
	guest_job_ok nosmp "$(cat "$RUN/nosmp.rc" 2>/dev/null || echo none)"
	(cd "$SRC" && python3 tools/testing/kunit/kunit.py parse \
		"$RUN/nosmp/dmesg.txt") > "$LOG/kunit-nosmp.log" 2>&1
	count_kunit "kunit (nosmp)" "$LOG/kunit-nosmp.log"
	count_ktap nosmp "$RUN/nosmp/ktap.txt"
	check_splats "$RUN/nosmp" nosmp
}

# Guest $1 (results in $RUN/$1, qemu log in $LOG/run-$1.log) ran its job to
# the end: $2, the exit code of its run-guest.sh, is 0, and so is the job's
# own.  Each that is not is one failure.
guest_job_ok()
{
	local name=$1 out=$RUN/$1 rc

	if [ "$2" != 0 ]; then
		cat "$LOG/run-$name.log"
		fail "$name: the guest did not finish its job"
	fi
	rc=$(cat "$out/job.rc" 2>/dev/null || echo none)
	[ "$rc" = 0 ] || fail "$name: the guest job exited $rc (console: $out/console.log)"
}

# The helper programs the selftests run that their folders build (the
# kselftest Makefiles would), from net/lib: xdp_helper, for drivers/net's
# queues.py, and the XDP program xdp_dummy.bpf.o, for drivers/net/hw's
# irq.py (with libbpf's headers, as its Makefile builds it).  Built on the
# host into the tree the guests run from.
selftest_helpers()
{
	local d=$SRC/tools/testing/selftests/net/lib

	if [ ! "$d/xdp_helper" -nt "$d/xdp_helper.c" ]; then
		gcc -O2 -Wall -I "$SRC/tools/include/uapi" -o "$d/xdp_helper" \
			"$d/xdp_helper.c" || return 1
	fi
	[ "$d/xdp_dummy.bpf.o" -nt "$d/xdp_dummy.bpf.c" ] && return 0
	clang -O2 -g -target bpf -I "/usr/include/$(gcc -print-multiarch)" \
		-c "$d/xdp_dummy.bpf.c" -o "$d/xdp_dummy.bpf.o"
}

stage_guest_build()
{
	bash "$PIPELINE_DIR/build-guest.sh" build "$BUILD/guest" ||
		{ fail "guest-build: guest kernel did not build"; return 1; }
	selftest_helpers || fail "guest-build: a selftest helper did not build"
	case " $want " in *" guest "*) guest_start ;; esac
}

# Boot guest $1 (a GUEST_* entry) and run its job; its results go to
# $RUN/<name>, its qemu log to $LOG/run-<name>.log.
guest_run()
{
	local name args alone paired shape job rc

	IFS='|' read -r name args alone paired shape <<< "$1"
	job=$RUN/$name-job.sh
	cat > "$job" <<-JOB
		SRC=$SRC
		PIPELINE_DIR=$PIPELINE_DIR
		export IRQ_SPREAD_MODULES=$BUILD/guest
		export IRQ_SPREAD_CHURN_CYCLES=$CHURN_CYCLES
		export IRQ_SPREAD_STRESS_SECONDS=$STRESS_SECONDS
		export IRQ_SPREAD_IRQBALANCE_SECONDS=$IRQBALANCE_SECONDS
		$([ "$1" = "$GUEST_MAIN" ] && echo export IRQ_SPREAD_TABLES=required RUN_KUNIT=1 IRQ_SPREAD_FAULT=ops)
		$([ "$1" = "$GUEST_MAIN" ] || echo export IRQ_SPREAD_FAULT=devices)
		ALONE_LIST=$alone
		PAIRED_LIST=$paired
		. $PIPELINE_DIR/guest/selftests-job.sh
	JOB
	echo "$name: booting${args:+ with $args} (console: $RUN/$name/console.log)"
	# shellcheck disable=SC2086
	bash "$PIPELINE_DIR/run-guest.sh" $shape "$RUN/$name" "$job" 2400 \
		"$args" > "$LOG/run-$name.log" 2>&1
	rc=$?
	return $rc
}

# Boot the first guest in the background, and the others after it
# (guests_more_start); then put this shell, and with it every stage still
# to run before the guest stage, at idle priority (SCHED_IDLE).  A guest's
# vCPU threads and a compiler sharing the host's two cores slowed both: in
# a cold run with the uniprocessor kernel building beside the guests at
# the same priority, that build took 988 s, the isolcpus guest's churn.sh
# 264 s (116 s in a warm run), the whole run 2906 s.  At idle priority
# the builds, the gates and UML KUnit take only what the guests leave of
# the CPUs, so the guests run as fast as alone, and the builds at full
# speed once they are done.  The guest stage puts the shell back
# (SCHED_OTHER).
guest_start()
{
	mkdir -p "$RUN"
	rm -f "$RUN/${GUEST_MAIN%%|*}/booted"
	GUEST_T0=$(date +%s)
	guest_run "$GUEST_MAIN" &
	GUEST_PID=$!
	guests_more_start
	chrt --idle -p 0 $$
}

# The other guests, one after the other in the background, once the first
# has booted (its job leaves booted in its results): the second beside the
# first's selftests, the third beside its last tests.  Each of the first's
# tests runs one process at a time on about 1.4 of the host's two cores,
# and the later guests' tests are what fills the rest: started after the
# first's selftests (its irq_spread ones, or the last of them,
# irqbalance.sh, mostly waiting), the later guests ran after the first
# was done, and warm runs took 748 s and 674 s.  Not more at once: two
# NUMA guests side by side share the host's two cores between 32 vCPU
# threads, and a vCPU that spins on a lock whose holder's thread is not
# running wastes its turn (with the upstream tests moved to a second guest
# started with the first, ethtool-ring.sh took 186 s instead of 53 s).
# They start from guest_start, so that in a cold run, where the
# uniprocessor kernel builds at idle priority for long after, the guests
# run without a gap.  Each one's exit code lands in $RUN/<name>.rc.
guests_more_start()
{
	local g booted=$RUN/${GUEST_MAIN%%|*}/booted

	{
		while [ ! -e "$booted" ] && kill -0 "$GUEST_PID" 2> /dev/null; do
			sleep 2
		done
		for g in "${GUEST_MORE[@]}"; do
			guest_run "$g"
			echo $? > "$RUN/${g%%|*}.rc"
		done
	} &
	MORE_PID=$!
}

# Report splats in the kernel log of guest $2 (default: guest), whose
# results are in $1, and its kmemleak report, which it must have unless
# booted with kmemleak=off ($3: its boot arguments): kmemleak that turned
# itself off gives none.  Each kind found is one failure.
check_splats()
{
	local out=$1 what=${2:-guest} args=${3:-} pat hits

	pat='BUG: |WARNING: |Oops|Kernel panic|general protection fault|UBSAN: |'
	pat+='INFO: possible |kernel BUG at|Call Trace:|kmemleak: [0-9]+ new suspected'
	hits=$(cat "$out/dmesg.txt" 2>/dev/null || cat "$out/console.log")
	hits=$(echo "$hits" | grep -a -E "$pat" | head -n 20)
	if [ -n "$hits" ]; then
		echo "$hits"
		fail "$what: kernel splat (full log: $out/dmesg.txt)"
	fi
	if [ -s "$out/kmemleak.txt" ]; then
		head -n 40 "$out/kmemleak.txt"
		fail "$what: kmemleak reports leaks ($out/kmemleak.txt)"
	elif [ ! -e "$out/kmemleak.txt" ]; then
		case " $args " in
		*" kmemleak=off "*) ;;
		*) fail "$what: no kmemleak report: kmemleak was off (its log: $(grep -a -m1 'kmemleak: ' "$out/dmesg.txt" 2>/dev/null))" ;;
		esac
	fi
}

# Count the selftest results of a guest ($1: its OUTDIR, $2: its name, $3: a
# prefix for its tests in the report, then its lists): each listed test must
# have run.
count_selftests()
{
	local out=$1 guest=$2 name=$3 listed=0 ran rc secs t l

	shift 3
	for l in "$@"; do
		listed=$((listed + $(grep -c -v -E '^(#|$)' "$l")))
	done
	ran=$(cat "$out/selftests.rc" 2>/dev/null | wc -l)
	[ "$ran" -eq "$listed" ] || fail "$guest: $ran of the $listed listed selftests ran"

	while read -r rc secs t; do
		l=$out/selftests/${t//\//_}.log
		case $rc in
		0) passed=$((passed + 1)); echo "selftest ok   $name$t (${secs}s)" ;;
		4) skip_seen "$guest" "$t"; note "selftest skip $name$t (${secs}s)" ;;
		*) fail "selftest $name$t (exit $rc, ${secs}s; log: $l)" ;;
		esac
		# Checks it skipped, whatever its exit code.
		ktap_skips "$guest: $t" "$l"
	done < <(cat "$out/selftests.rc" 2>/dev/null)
}

# Check a guest's results ($1: a GUEST_* entry, $2: whether its qemu run
# ended well): its job's exit code, its selftests, its kernel log.
guest_results()
{
	local name args alone paired shape out tag lists=()

	IFS='|' read -r name args alone paired shape <<< "$1"
	out=$RUN/$name
	tag=${name#guest}
	tag=${tag#-}
	guest_job_ok "$name" "$2"
	[ -z "$alone" ] || lists+=("$alone")
	[ -z "$paired" ] || lists+=("$paired")
	count_selftests "$out" "$name" "${tag:+($tag) }" "${lists[@]}"
	check_splats "$out" "$name" "$args"
}

# How far the guests are: per guest of this run, the selftests that ended
# and the one last started (its console's last "selftest:" line).
guests_progress()
{
	local d n cur out=

	for d in "$RUN"/*/; do
		[ "$d/console.log" -nt "$LOG/run.stamp" ] || continue
		[ -e "$d/job.sh" ] && grep -q selftests-job "$d/job.sh" || continue
		n=$(cat "$d/selftests.rc" 2>/dev/null | wc -l)
		cur=$(grep -a -o 'selftest: [^ ]*' "$d/console.log" | tail -n 1)
		out+="$(basename "$d"): $n selftests done${cur:+, last started ${cur#selftest: }}; "
	done
	echo "${out:-booting}"
}

stage_guest()
{
	local rc g mon

	[ -n "$GUEST_PID" ] || guest_start
	chrt --other -p 0 $$
	progress "guests" $$ guests_progress &
	mon=$!
	wait "$GUEST_PID"
	rc=$?
	echo "guest: ran $(($(date +%s) - GUEST_T0))s from power-on to power-off"
	(cd "$SRC" && python3 tools/testing/kunit/kunit.py parse \
		"$RUN/${GUEST_MAIN%%|*}/kunit.ktap") \
		> "$LOG/kunit-guest.log" 2>&1
	count_kunit "kunit (guest)" "$LOG/kunit-guest.log"
	guest_results "$GUEST_MAIN" $rc

	wait "$MORE_PID"
	for g in "${GUEST_MORE[@]}"; do
		guest_results "$g" "$(cat "$RUN/${g%%|*}.rc" 2>/dev/null || echo none)"
	done

	if [ -n "$NOSMP_PID" ]; then
		wait "$NOSMP_PID"
		nosmp_results
	fi
	if [ -n "$TOOLS_PID" ]; then
		wait "$TOOLS_PID"
		tools_results
	fi
	kill $mon 2>/dev/null
	wait $mon 2>/dev/null
}

run_stage()
{
	local s=$1 t0 rc

	echo
	echo "=== $s ==="
	t0=$(date +%s)
	"stage_${s//-/_}"
	rc=$?
	times+=("$(printf '%-12s %5ds' "$s" $(($(date +%s) - t0)))")
	return $rc
}

main()
{
	local want=${*:-$DEFAULT_STAGES} s t0

	t0=$(date +%s)
	mkdir -p "$LOG"
	: > "$LOG/run.stamp"
	for s in $want; do
		case " $STAGES " in *" $s "*) ;; *) die "unknown stage $s (stages: $STAGES)" ;; esac
	done
	for s in $STAGES; do
		case " $want " in *" $s "*) ;; *) continue ;; esac
		run_stage "$s" && continue
		# Nothing can run without a tree, nor in a guest without a kernel.
		[ "$s" = prepare ] && break
		[ "$s" = guest-build ] && want=${want//guest-build/} && want=${want//guest/}
	done

	check_skips
	echo
	echo "=== summary (build dir $CACHE, base linux-source-$BASE_SERIES $(cat "$SRC/.irq_spread-base" 2>/dev/null)) ==="
	printf '%s\n' "${times[@]}"
	printf '%-12s %5ds\n' total $(($(date +%s) - t0))
	[ ${#notes[@]} -eq 0 ] || printf '%s\n' "${notes[@]}"
	if [ $skipped -ne 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ $failed -eq 0 ]
}

# Sourced (the harness's tests), it only defines.
[ "${BASH_SOURCE[0]}" != "$0" ] || main "$@"
