#!/bin/bash
# SPDX-License-Identifier: MIT
#
# bench_blocks.sh - host instructions per simulated cycle, by RTL block.
#
# Usage: tools/bench_blocks.sh [GPUSIM]   (make bench-blocks)
#   GPUSIM  a model whose Verilator C++ has line info (default
#           build-prof/bin/gpusim, which make bench-blocks builds)
#
# Runs idle, the demo and copy streaming (bench_ipc.sh's workloads) under
# callgrind on the Verilator backend, as bench_ipc.sh does, and prints each
# block's share of a cycle (tools/ipc_blocks.py says how lines are charged).
# build-prof/ has no trace support, so its totals are a TRACE=0 model's,
# 1-2 % below bench_ipc.sh's (build/ compiles trace support in).
# For one block's costly lines:
#   tools/ipc_blocks.py CALLGRIND_OUT CYCLES u_ce 3
set -eu

BIN=${1:-build-prof/bin/gpusim}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
HERE=$(dirname "$0")

for w in "idle|idle --cycles 20000" "demo|demo --rounds 20 --quiet" "copy|run copies --quiet"; do
	name=${w%%|*} args=${w#*|}
	# shellcheck disable=SC2086 # args are words
	valgrind --tool=callgrind --toggle-collect=gm_tick --callgrind-out-file="$TMP/cg" \
		"$BIN" $args --backend verilator > "$TMP/out" 2> "$TMP/vg" || {
		echo "bench_blocks: $name failed:"; cat "$TMP/out" "$TMP/vg"; exit 1; }
	cyc=$(grep -oE '[0-9]+ cycles' "$TMP/out" | head -1 | cut -d' ' -f1)
	ir=$(grep -oE 'refs: +[0-9,]+' "$TMP/vg" | tr -d ', ' | cut -d: -f2)
	echo "$name: $cyc cycles, $(awk -v i="$ir" -v c="$cyc" 'BEGIN { printf "%.0f", i / c }') instructions a cycle in gm_tick"
	python3 "$HERE/ipc_blocks.py" "$TMP/cg" "$cyc"
done
