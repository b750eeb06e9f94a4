#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [STAGE...]: the project's test pipeline (make check).
#
# Stages, in order (default: all):
#   deps         install what is missing (apt-get, idempotent)
#   prepare      base + overlay + patches into the build tree
#   guest-build  the x86_64 NUMA guest kernel; then the guest boots in the
#                background, beside gates and kunit
#   gates        checkpatch --strict, kernel-doc, W=1, coccicheck
#   kunit        KUnit under UML, one .kunitconfig per suite
#   guest        waits for the guest: KUnit and kselftests in the NUMA
#                guest, splat check; boots a second guest with
#                isolcpus=managed_irq for the tests that need it
#
# Every stage runs even when an earlier one failed (except those that need
# its output), so one run reports everything.  Ends with the stage times and
# one line "N passed, N failed" counting KUnit cases and selftests; a failed
# gate, build or splat check adds one to "failed".  Exits 0 iff nothing failed.
set -uo pipefail

. "$(dirname "$0")/lib.sh"

STAGES="deps prepare guest-build gates kunit guest"
# The second guest's extra boot arguments: CPUs that irq_spread must never
# choose (a whole core, {2,3}, and one thread of another, 9), and a default
# policy followed by a value that names none, which must be logged and
# change nothing.  It runs short tests beside the first guest: no KUnit and
# no kmemleak scans, which the first guest does, to leave it the host's CPUs.
ISOLCPUS_ARGS="isolcpus=managed_irq,2-3,9 irq_spread.policy=numa-core"
ISOLCPUS_ARGS+=" irq_spread.policy=no-such-policy kunit.enable=0 kmemleak=off"
GUEST_PID=
GUEST_T0=
ISOL_PID=
LOG=$RUN/logs
passed=0
failed=0
skipped=0
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
	skipped=$((skipped + ${s:-0}))
	note "$what: $line"
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

gate_checkpatch()
{
	local files p bad=0

	# shellcheck disable=SC2046
	files=$(project_files '\.(c|h)$|(^|/)Kconfig[^/]*$')
	if [ -n "$files" ] && ! (cd "$SRC" && perl scripts/checkpatch.pl --strict --terse \
			--no-summary --show-types -f $files); then
		bad=1
	fi
	for p in $(grep -v -E '^(#|$)' "$REPO_DIR/patches/series" 2>/dev/null); do
		(cd "$SRC" && perl scripts/checkpatch.pl --strict --terse --no-summary \
			--show-types "$REPO_DIR/patches/$p") || bad=1
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

# W=1 in a build directory of its own (same config as the guest), so that the
# guest and UML builds never see their objects' flags change.
gate_w1()
{
	local objs log=$LOG/w1.log

	objs=$(project_files '\.c$' | sed 's/\.c$/.o/')
	[ -n "$objs" ] || return 0
	bash "$PIPELINE_DIR/build-guest.sh" config "$BUILD/w1" > "$log" 2>&1 ||
		{ cat "$log"; fail "gates: W=1 config"; return; }
	# shellcheck disable=SC2086
	if ! make -C "$SRC" O="$BUILD/w1" -j"$JOBS" W=1 $objs >> "$log" 2>&1; then
		tail -n 40 "$log"
		fail "gates: W=1 build"
		return
	fi
	if grep -E 'warning:|error:' "$log"; then
		fail "gates: W=1 warnings"
	fi
}

gate_coccicheck()
{
	local cocci log=$LOG/coccicheck.log dirs

	cocci=$(project_files '\.cocci$')
	if [ -z "$cocci" ]; then
		echo "coccicheck: the project has no .cocci files yet"
		return 0
	fi
	dirs=$(project_files '\.c$' | xargs -r -n1 dirname | sort -u)
	: > "$log"
	for c in $cocci; do
		for d in $dirs; do
			make -C "$SRC" O="$BUILD/w1" coccicheck MODE=report COCCI="$SRC/$c" \
				M="$d" >> "$log" 2>&1 || { tail -n 20 "$log"; fail "gates: coccicheck $c on $d"; }
		done
	done
}

stage_gates()
{
	gate_checkpatch
	gate_kernel_doc
	gate_w1
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
	mkdir -p "$BUILD"
	(cd "$SRC" && python3 tools/testing/kunit/kunit.py run --arch=um \
		--build_dir="$BUILD/uml" --jobs "$JOBS" "${cfgs[@]}") > "$log" 2>&1
	grep -a -E '^\[[0-9:]+\] ' "$log" | grep -a -v -E '\[PASSED\]' | tail -n 40
	count_kunit "kunit (UML)" "$log"
}

stage_guest_build()
{
	bash "$PIPELINE_DIR/build-guest.sh" build "$BUILD/guest" ||
		{ fail "guest-build: guest kernel did not build"; return 1; }
	case " $want " in *" guest "*) guest_start ;; esac
}

# Write the job of a guest that runs the selftests of lists $2 (two at a
# time) and $3 (then one at a time), either may be empty, to $1.
guest_job()
{
	cat > "$1" <<-JOB
		SRC=$SRC
		LIST=$2
		SERIAL_LIST=$3
		. $PIPELINE_DIR/guest/selftests-job.sh
	JOB
}

# Boot the guest in the background: it spends its minutes forking selftest
# processes on one or two vCPUs, which leaves room on the host for the gates
# and UML KUnit meanwhile.
guest_start()
{
	local job=$RUN/guest-job.sh

	mkdir -p "$RUN"
	guest_job "$job" "$PIPELINE_DIR/netdevsim-selftests.list" \
		"$PIPELINE_DIR/irq-spread-selftests.list"
	echo "guest: booting in the background (console: $RUN/guest/console.log)"
	GUEST_T0=$(date +%s)
	bash "$PIPELINE_DIR/run-guest.sh" "$RUN/guest" "$job" 2400 \
		> "$LOG/run-guest.log" 2>&1 &
	GUEST_PID=$!
}

# The isolcpus guest runs one short list.  It boots once the gates and UML
# KUnit are done, while the first guest's longest selftest leaves a host
# core idle.
isolcpus_start()
{
	local job=$RUN/guest-isolcpus-job.sh

	guest_job "$job" "" "$PIPELINE_DIR/irq-spread-isolcpus.list"
	echo "guest: booting a second guest with $ISOLCPUS_ARGS"
	bash "$PIPELINE_DIR/run-guest.sh" "$RUN/guest-isolcpus" "$job" 900 \
		"$ISOLCPUS_ARGS" > "$LOG/run-guest-isolcpus.log" 2>&1 &
	ISOL_PID=$!
}

# Report splats in the guest's kernel log; each kind found is one failure.
check_splats()
{
	local out=$1 pat hits

	pat='BUG: |WARNING: |Oops|Kernel panic|general protection fault|UBSAN: |'
	pat+='INFO: possible |kernel BUG at|Call Trace:|kmemleak: [0-9]+ new suspected'
	hits=$(cat "$out/dmesg.txt" 2>/dev/null || cat "$out/console.log")
	hits=$(echo "$hits" | grep -a -E "$pat" | head -n 20)
	if [ -n "$hits" ]; then
		echo "$hits"
		fail "guest: kernel splat (full log: $out/dmesg.txt)"
	fi
	if [ -s "$out/kmemleak.txt" ]; then
		head -n 40 "$out/kmemleak.txt"
		fail "guest: kmemleak reports leaks ($out/kmemleak.txt)"
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
		case $rc in
		0) passed=$((passed + 1)); echo "selftest ok   $name$t (${secs}s)" ;;
		4) skipped=$((skipped + 1)); note "selftest skip $name$t (${secs}s)" ;;
		*) fail "selftest $name$t (exit $rc, ${secs}s; log: $out/selftests/$(echo "$t" | tr / _).log)" ;;
		esac
	done < <(cat "$out/selftests.rc" 2>/dev/null)
}

stage_guest()
{
	local out=$RUN/guest iout=$RUN/guest-isolcpus rc

	[ -n "$GUEST_PID" ] || guest_start
	isolcpus_start
	if ! wait "$GUEST_PID"; then
		cat "$LOG/run-guest.log"
		fail "guest: the guest did not finish its job"
	fi
	echo "guest: ran $(($(date +%s) - GUEST_T0))s from power-on to power-off"
	if ! wait "$ISOL_PID"; then
		cat "$LOG/run-guest-isolcpus.log"
		fail "guest (isolcpus): the guest did not finish its job"
	fi

	(cd "$SRC" && python3 tools/testing/kunit/kunit.py parse "$out/dmesg.txt") \
		> "$LOG/kunit-guest.log" 2>&1
	count_kunit "kunit (guest)" "$LOG/kunit-guest.log"

	rc=$(cat "$out/job.rc" 2>/dev/null || echo none)
	[ "$rc" = 0 ] || fail "guest: the guest job exited $rc (console: $out/console.log)"
	count_selftests "$out" guest "" "$PIPELINE_DIR/netdevsim-selftests.list" \
		"$PIPELINE_DIR/irq-spread-selftests.list"
	check_splats "$out"

	rc=$(cat "$iout/job.rc" 2>/dev/null || echo none)
	[ "$rc" = 0 ] || fail "guest (isolcpus): the guest job exited $rc (console: $iout/console.log)"
	count_selftests "$iout" "guest (isolcpus)" "(isolcpus) " \
		"$PIPELINE_DIR/irq-spread-isolcpus.list"
	check_splats "$iout"
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
	local want=${*:-$STAGES} s t0

	t0=$(date +%s)
	mkdir -p "$LOG"
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

main "$@"
