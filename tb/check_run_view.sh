#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check_run_view.sh - the view gpusim writes next to a waveform (model/gm_view.c):
# every signal exists in the dump, the filters it names exist, the zoom
# starts at the window, and the named markers carry the run's fences and its
# error.  The demo's queue 1 runs a bad opcode on purpose.  Then waves on
# failure: a scenario and the demo made to fail an RTL assertion (error
# injection) report the model error, run again and name the view of their
# last cycles, whose marker names the assertion.
#
# Usage: tb/check_run_view.sh GPUSIM TB_DIR   (from the build folder, by ctest)
set -eu
G=$1
TB=$2
fail() { echo "check_run_view: $*" >&2; exit 1; }

"$G" demo --quiet --wave run-view.fst --wave-from 100 | grep -q 'view: run-view.gtkw' ||
	fail "gpusim did not name the view"
test -s run-view.gtkw || fail "no run-view.gtkw"
python3 "$TB/check_views.py" run-view.fst run-view.gtkw
grep -q '^\[timestart\] 100000$' run-view.gtkw || fail "timestart is not cycle 100 (100000 ps)"
grep -q '^\[markername\] [A-Z]fence q0 = 1$' run-view.gtkw || fail "no marker at queue 0's fence 1"
grep -q '^\[markername\] [A-Z]q1 BAD_OPCODE at 0x' run-view.gtkw || fail "no marker at the BAD_OPCODE"
n=0
for f in $(sed -n 's/^\^[0-9]* //p' run-view.gtkw | sort -u); do
	test -s "$f" || fail "filter $f missing"
	n=$((n + 1))
done
test "$n" -ge 3 || fail "only $n filters named"
# A marker the window does not hold is not shown: a window before any fence.
"$G" demo --quiet --wave early.fst --wave-to 50 >/dev/null
! grep -q '^\[markername\]' early.gtkw || fail "markers outside the window"
for what in "run shared" demo; do
	name=${what#run }
	rm -f "gpusim-fail-$name.fst" "gpusim-fail-$name.gtkw"
	set +e
	# shellcheck disable=SC2086
	"$G" $what --quiet --inject-bad-rsp 1000 > "fail-$name.out" 2>&1
	rc=$?
	set -e
	test "$rc" -eq 1 || fail "$what with an injected fault exited $rc, not 1"
	grep -q 'model error: RTL assertion a_arb_rsp_routed (rtl/cp/cp_mem_arb.sv:' "fail-$name.out" ||
		fail "$what: no model error named"
	grep -q "gtkwave gpusim-fail-$name.gtkw" "fail-$name.out" || fail "$what: no view named"
	python3 "$TB/check_views.py" "gpusim-fail-$name.fst" "gpusim-fail-$name.gtkw"
	grep -q '^\[markername\] [A-Z]assert a_arb_rsp_routed$' "gpusim-fail-$name.gtkw" ||
		fail "$what: no marker at the assertion"
done
echo "check_run_view: ok ($n filters; waves on failure for a scenario and the demo)"
