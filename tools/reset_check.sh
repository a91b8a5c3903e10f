#!/bin/bash
# SPDX-License-Identifier: MIT
#
# reset_check.sh BIN XU_BUILD [SEEDS]: the results must not depend on the
# flops' power-up values.  XU_BUILD is a build of `make XU=1` (the model
# verilated with --x-assign unique --x-initial unique).  For each seed N of
# SEEDS (default "1 2") and each of Verilator's reset modes 1 (all ones) and
# 2 (random), the demo and every `gpusim run` scenario of XU_BUILD/bin/gpusim
# under GPUSIM_VERILATOR_ARGS="+verilator+seed+N +verilator+rand+reset+M"
# must print BIN's transcript byte for byte (every result and every cycle
# count), and XU_BUILD/tests/test_rand (random programs, RTL against ref) must
# pass.  Prints each case and the command that reproduces it; exit 1 on a
# difference, 2 on bad arguments.
set -u
bin=${1:-}; xu=${2:-}; seeds=${3:-1 2}
if [ -z "$bin" ] || [ -z "$xu" ] || [ ! -x "$bin" ] || [ ! -x "$xu/bin/gpusim" ] ||
   [ ! -x "$xu/tests/test_rand" ]; then
	echo "usage: reset_check.sh BIN XU_BUILD [SEEDS] (BIN and XU_BUILD/bin/gpusim, XU_BUILD/tests/test_rand built)" >&2
	exit 2
fi
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
"$bin" demo > "$d/demo.want" && "$bin" run all > "$d/run.want" || { echo "reset_check: $bin failed" >&2; exit 1; }
rc=0; cases=0
for n in $seeds; do
	for m in 1 2; do
		args="+verilator+seed+$n +verilator+rand+reset+$m"
		for what in demo "run all" "test_rand"; do
			cases=$((cases + 1))
			case $what in
			demo) cmd="$xu/bin/gpusim demo"; want=$d/demo.want ;;
			"run all") cmd="$xu/bin/gpusim run all"; want=$d/run.want ;;
			*) cmd="$xu/tests/test_rand --count 20 --quiet"; want= ;;
			esac
			repro="GPUSIM_VERILATOR_ARGS=\"$args\" GPUSIM_SEED=$n $cmd"
			if ! GPUSIM_VERILATOR_ARGS="$args" GPUSIM_SEED=$n $cmd > "$d/got" 2>&1; then
				echo "FAIL ($what exited non-zero): $repro"; tail -5 "$d/got"; rc=1; continue
			fi
			if [ -n "$want" ] && ! diff -u "$want" "$d/got" > "$d/diff"; then
				echo "FAIL ($what differs from $bin): $repro"; head -20 "$d/diff"; rc=1; continue
			fi
			echo "ok: $repro"
		done
	done
done
echo "reset_check: $cases cases, $([ $rc = 0 ] && echo "all identical to the default build" || echo FAILED)"
exit $rc
