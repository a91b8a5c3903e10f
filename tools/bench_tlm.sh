#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_tlm.sh - the TLM platform's figures (make bench; README, "The GPU in
# a SystemC virtual platform").
#
# Usage: tools/bench_tlm.sh [GPUSIM]     (gpusim_vp beside it)
#
# Prints, one line each:
#   speed WORKLOAD VERILATOR_S TLM_S ratio R  CPU time (user + system, the
#       fastest of REPS runs each, in one run) of `gpusim WORKLOAD` on the
#       verilator backend and on tlm (gpusim_tlm and gm_mem_tlm in the
#       platform gm_create builds, quantum 1 us), R verilator's time over
#       tlm's (1.0: as fast; moves with the host's load);
#   instructions WORKLOAD VERILATOR TLM ratio R  the same by the whole
#       program's instructions (callgrind: steady under load);
#   register read ... the cost of a register access through BAR0 (gpusim_vp --regs);
#   parity NAME CYCLES_VERILATOR CYCLES_TLM same|DIFFERS  the demo and every
#       scenario.
set -eu
BIN=${1:-build/bin/gpusim}
VP=$(dirname "$BIN")/gpusim_vp
REPS=${REPS:-3}
TIMEFORMAT='%U %S'

cpu() { # the fastest CPU time of REPS runs of "$@"
	local best= t
	for _ in $(seq "$REPS"); do
		t=$({ time "$@" > /dev/null; } 2>&1 | awk '{ print $1 + $2 }')
		best=$(awk -v a="$t" -v b="${best:-$t}" 'BEGIN { print (a < b ? a : b) }')
	done
	echo "$best"
}

# Whole-program instructions (callgrind): steady under load, unlike CPU time.
instr() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
		sed -n 's/.*Collected : *//p'
}

for w in "demo --rounds 200" "run evict" "run copies"; do
	# shellcheck disable=SC2086 # w is words
	vl=$(cpu "$BIN" $w --quiet)
	# shellcheck disable=SC2086
	tl=$(cpu "$BIN" $w --quiet --backend tlm)
	echo "speed $(echo "$w" | sed 's/ --rounds /x/; s/^run //') $vl $tl" |
		awk '{ printf "%s %s %.2f\n", $0, "ratio", ($4 > 0 ? $3 / $4 : 0) }'
done
for w in "demo --rounds 20" "run copies"; do
	# shellcheck disable=SC2086
	vl=$(instr "$BIN" $w --quiet)
	# shellcheck disable=SC2086
	tl=$(instr "$BIN" $w --quiet --backend tlm)
	echo "instructions $(echo "$w" | sed 's/ --rounds /x/; s/^run //') $vl $tl" |
		awk '{ printf "%s %s %.2f\n", $0, "ratio", ($4 > 0 ? $3 / $4 : 0) }'
done
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$VP" --regs 200000 | grep '^register read'
cyc() { sed -n 's/^\(demo\|run [a-z]*\): \([0-9]*\) cycles.*/\1 \2/p'; }
paste -d' ' <({ "$BIN" demo --quiet; "$BIN" run all --quiet; } | cyc) \
	<({ "$BIN" demo --quiet --backend tlm; "$BIN" run all --quiet --backend tlm; } | cyc) |
	awk '{ n = $1 == "run" ? $2 : $1; a = $1 == "run" ? $3 : $2; b = $NF;
		print "parity", n, a, b, (a == b ? "same" : "DIFFERS") }'
