#!/bin/sh
# cli_parity.sh BIN BACKEND: `gpusim demo` and `gpusim run all` on BACKEND
# (tlm: gpusim_tlm and gm_mem_tlm in the platform gm_create builds, the
# driver's calls as TLM transactions; systemc) print the verilator backend's
# transcripts exactly: cycles, counters, checks.  `run all` runs a process
# a scenario on a backend with one model a process.  The demo's first line
# names the backend and is left out.
B=${1:-build/bin/gpusim}
BE=${2:-tlm}
d=$(mktemp -d)
rc=0
$B demo | tail -n +2 > $d/vl.txt
$B demo --backend $BE | tail -n +2 > $d/be.txt
diff -u $d/vl.txt $d/be.txt || { echo "FAILED: demo differs on $BE"; rc=1; }
$B run all > $d/vl.txt
$B run all --backend $BE > $d/be.txt || { echo "FAILED: run all --backend $BE exit $?"; rc=1; }
diff -u $d/vl.txt $d/be.txt > $d/diff.txt || { echo "FAILED: run all differs on $BE"; head -40 $d/diff.txt; rc=1; }
grep '^run ' $d/be.txt
rm -rf $d
[ $rc = 0 ] && echo "$BE transcripts identical to verilator's"
exit $rc
