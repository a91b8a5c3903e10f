#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check_run_view.sh - the view gpusim writes next to a waveform (model/gm_view.c):
# every signal exists in the dump, the filters it names exist, the zoom
# starts at the window, and the named markers carry the run's fences and its
# error, on the cycle the queue's error latch took it; the failing queue's
# group open and the other collapsed; run hang's TDR, queue reset and
# recovery marked; run lock's markers merged where they would collide; a
# replay's waves with the same markers as the captured run's.  The demo's queue 1 runs a bad opcode on purpose.  Then waves on
# failure: a scenario and the demo made to fail an RTL assertion (error
# injection) report the model error, run again and name the view of their
# last cycles, whose marker names the assertion, inside the dump.
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
# The error's marker on the cycle queue 1's error latch took it (its err_irq_q
# rises), not where the driver's handler read it; and the check can fail: the
# same view with the marker 14 cycles late (where it was) is refused.
Q1='TOP.gpu_top.g_queue[1].u_queue.u_exec'
python3 "$TB/check_views.py" run-view.fst run-view.gtkw --mark "q1 BAD_OPCODE" "$Q1.err_irq_q" ||
	fail "the BAD_OPCODE marker is not on the latch's cycle"
t=$(sed -n 's/^\*[-0-9.]* \([-0-9]*\) .*/\1/p' run-view.gtkw)
test "$t" -gt 0 || fail "no primary marker at the error"
sed "/^\*/s/ $t / $((t + 14000)) /g" run-view.gtkw > run-view-late.gtkw
if python3 "$TB/check_views.py" run-view.fst run-view-late.gtkw --mark "q1 BAD_OPCODE" "$Q1.err_irq_q" \
	> run-view-late.out; then
	fail "a marker 14 cycles off the latch passed"
fi
# The failing queue's group open, the other queue's collapsed (GTKWave's TR_CLOSED).
grep -A1 '^@800200$' run-view.gtkw | grep -q '^-Queue 1$' || fail "queue 1 (failing) not open"
grep -A1 '^@c00200$' run-view.gtkw | grep -q '^-Queue 0$' || fail "queue 0 not collapsed"
# TDR, the queue's reset and the recovery marked (merged: one pixel apart at this zoom).
"$G" run hang --quiet --wave hang-view.fst > /dev/null || fail "run hang --wave failed"
grep -q '^\[markername\] [A-Z]TDR (timeout) / q0 reset / recovered, 1 resubmitted$' hang-view.gtkw ||
	fail "run hang: no TDR, queue reset and recovery marker"
# Markers that would collide are merged with a count: no two closer than 16 pixels
# (zoom *Z: 2^-Z / 200 ps a pixel), and the lock notes say how many they are.
"$G" run lock --quiet --wave lock-view.fst --wave-from 200000 --wave-to 230000 > /dev/null ||
	fail "run lock --wave failed"
awk '/^\*/ { px = 2 ^ -$1 / 200; n = 0
	for (i = 3; i <= NF; i++) if ($i >= 0) t[n++] = $i
	for (i = 1; i < n; i++) if (t[i] - t[i - 1] < 16 * px) { print "markers at " t[i - 1] " and " t[i]; bad = 1 } }
	END { exit bad }' lock-view.gtkw || fail "run lock: markers closer than 16 pixels"
grep -q '^\[markername\] [A-Z]lock: through an aperture range.* (x[0-9]*)$' lock-view.gtkw ||
	fail "run lock: no merged marker with its count"
# A replay's waves carry the markers of the run it captured: the model's own
# (errors, resets) and the driver's (fence watches, TDR and recovery notes).
for what in demo "run hang"; do
	name=${what#run }
	# shellcheck disable=SC2086
	"$G" $what --quiet --capture "rv-$name.gcap" --wave "rv-$name-run.fst" > /dev/null ||
		fail "$what --capture --wave failed"
	"$G" replay "rv-$name.gcap" --quiet --wave "rv-$name-replay.fst" || fail "replay of $what failed"
	grep '^\[markername\]\|^\*' "rv-$name-run.gtkw" > "rv-$name-run.marks"
	grep '^\[markername\]\|^\*' "rv-$name-replay.gtkw" > "rv-$name-replay.marks"
	grep -q '^\[markername\] [A-Z]fence q' "rv-$name-replay.marks" || fail "replay of $what: no fence markers"
	diff "rv-$name-run.marks" "rv-$name-replay.marks" || fail "replay of $what: other markers than the run's"
done
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
	grep -q '^\[markername\] [A-Z]assert a_arb_rsp_routed' "gpusim-fail-$name.gtkw" ||
		fail "$what: no marker at the assertion"
	# inside the window: the dump goes on a few cycles past the failure
	at=$(sed -n 's/.*a_arb_rsp_routed.* failed at cycle \([0-9]*\);.*/\1/p' "fail-$name.out" | head -1)
	end=$(sed -n 's/^\[\*\] gpusim: the view of .*, cycles [0-9]* to \([0-9]*\) .*/\1/p' \
		"gpusim-fail-$name.gtkw")
	if [ -z "$at" ] || [ "$end" -lt $((at + 8)) ]; then
		fail "$what: the waves end at cycle $end, the failure at ${at:-?}: its marker is on the edge"
	fi
done
echo "check_run_view: ok ($n filters; waves on failure for a scenario and the demo)"
