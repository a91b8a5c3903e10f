#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_ipc.sh - host instructions per simulated cycle, and cycles/s.
#
# Usage: tools/bench_ipc.sh [GPUSIM] [BACKEND...]   (make bench-ipc)
#   GPUSIM    the binary (default build/bin/gpusim: valgrind cannot run a
#             -march=native build on an AVX-512 host)
#   BACKEND   a backend `gpusim backends` lists, or NAME+trace for one with
#             the trace-model capability (default: every backend, and
#             NAME+trace after each trace-model one: verilator,
#             verilator+trace, systemc, ref)
#
# NAME+trace is the backend on its model with trace support (a model made
# for waves: --wave FILE) recording nothing (--wave-from past the run's
# end): the cost of trace support compiled in and off.  Plain NAME runs the
# model without it, as every run without --wave does.  Ratios are against
# the registry's first backend, the default (verilator).
#
# For each short deterministic workload - idle (a model out of reset
# clocked with nothing to do), the demo, copy streaming (`run copies`) and a
# scenario (`run deferred`) - callgrind counts the instructions executed
# inside gm.c's gm_tick(), one call per simulated cycle (--toggle-collect), so
# set-up and the firmware are left out: the figure is the cost of a cycle
# and does not move with machine load.  cycles/s is the same run's cycles
# over its user + system CPU time, set-up included (it moves with load).
set -eu

BIN=${1:-build/bin/gpusim}
shift || true
# The registry (gpusim backends: name, capabilities, what it is).
REGISTRY=$("$BIN" backends)
BACKENDS=${*:-$(awk '{ print $1; if ($2 ~ /(^|,)trace-model(,|$)/) print $1 "+trace" }' <<< "$REGISTRY")}
BASE=$(awk 'NR == 1 { print $1 }' <<< "$REGISTRY")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

WORKLOADS=(
	"idle|idle --cycles 20000"
	"demo|demo --rounds 20 --quiet"
	"copy|run copies --quiet"
	"scenario|run deferred --quiet"
)

cycles_of() { grep -oE '[0-9]+ cycles' "$1" | head -1 | cut -d' ' -f1; }

printf '%-9s %-15s %10s %12s %12s\n' workload backend cycles "Ir/cycle" "cycles/s"
declare -A RATE IPC
for w in "${WORKLOADS[@]}"; do
	name=${w%%|*} args=${w#*|}
	for be in $BACKENDS; do
		bargs="--backend $be"
		case $be in
		*+trace) bargs="--backend ${be%+trace} --wave $TMP/w.fst --wave-from 1000000000" ;;
		esac
		# shellcheck disable=SC2086 # args are words
		valgrind --tool=callgrind --toggle-collect=gm_tick --callgrind-out-file="$TMP/cg" \
			"$BIN" $args $bargs > "$TMP/out" 2> "$TMP/vg" || {
			echo "bench_ipc: $name on $be failed:"; cat "$TMP/out" "$TMP/vg"; exit 1; }
		cyc=$(cycles_of "$TMP/out")
		ir=$(grep -oE 'refs: +[0-9,]+' "$TMP/vg" | tr -d ', ' | cut -d: -f2)
		TIMEFORMAT='%U %S'
		# shellcheck disable=SC2086
		t=$( { time "$BIN" $args $bargs > /dev/null; } 2>&1 )
		rate=$(awk -v c="$cyc" -v t="$t" 'BEGIN { split(t, a, " "); s = a[1] + a[2];
			printf "%.0f", (s > 0 ? c / s : 0) }')
		ipc=$(awk -v i="$ir" -v c="$cyc" 'BEGIN { printf "%.0f", i / c }')
		RATE[$name.$be]=$rate IPC[$name.$be]=$ipc
		printf '%-9s %-15s %10s %12s %12s\n' "$name" "$be" "$cyc" "$ipc" "$rate"
	done
done
# Ratios from the instruction counts (steady) and from cycles/s (noisy).
for w in "${WORKLOADS[@]}"; do
	name=${w%%|*}
	for be in $BACKENDS; do
		if [ "${be%+trace}" != "$be" ]; then
			[ -n "${IPC[$name.${be%+trace}]:-}" ] || continue
			awk -v n="$name" -v iv="${IPC[$name.${be%+trace}]}" -v it="${IPC[$name.$be]}" 'BEGIN {
				printf "%-9s trace support compiled in, off: %+.1f %% instructions per cycle\n",
					n, 100 * (it - iv) / iv }'
			continue
		fi
		[ "$be" = "$BASE" ] && continue
		[ -n "${IPC[$name.$BASE]:-}" ] || continue
		awk -v n="$name" -v b="$be" -v base="$BASE" -v iv="${IPC[$name.$BASE]}" \
			-v ib="${IPC[$name.$be]}" -v rv="${RATE[$name.$BASE]}" -v rb="${RATE[$name.$be]}" 'BEGIN {
			printf "%-9s %s/%s: %.2fx by instructions per cycle, %.2fx by cycles/s\n",
				n, b, base, iv / ib, (rv > 0 ? rb / rv : 0) }'
	done
done
