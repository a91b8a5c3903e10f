#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_tlm.sh - the TLM platform's figures (make bench; README, "The GPU in
# a SystemC virtual platform").
#
# Usage: tools/bench_tlm.sh [GPUSIM]     (gpusim_vp beside it)
#
# Prints, one line each:
#   speed WORKLOAD VERILATOR_S TLM_S RATIO  CPU time (user + system, the
#       fastest of REPS runs each, taken in turns in one run) of `gpusim
#       WORKLOAD` on the verilator backend and on tlm (gpusim_tlm and
#       gm_mem_tlm in the platform gm_create builds, quantum 1 us), and
#       verilator's time over tlm's (1.0: as fast);
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

for w in "demo --rounds 200 --quiet" "run evict --quiet" "run copies --quiet"; do
	vl=$(cpu "$BIN" $w)
	tl=$(cpu "$BIN" $w --backend tlm)
	echo "speed ${w% --quiet} $vl $tl $(awk -v a="$vl" -v b="$tl" 'BEGIN { printf "%.2f", b > 0 ? a / b : 0 }')" |
		sed 's/ --rounds 200/x200/; s/^speed run /speed /'
done
"$VP" --regs 200000 | grep '^register read'
cyc() { sed -n 's/^\(demo\|run [a-z]*\): \([0-9]*\) cycles.*/\1 \2/p'; }
paste -d' ' <({ "$BIN" demo --quiet; "$BIN" run all --quiet; } | cyc) \
	<({ "$BIN" demo --quiet --backend tlm; "$BIN" run all --quiet --backend tlm; } | cyc) |
	awk '{ n = $1 == "run" ? $2 : $1; a = $1 == "run" ? $3 : $2; b = $NF;
		print "parity", n, a, b, (a == b ? "same" : "DIFFERS") }'
