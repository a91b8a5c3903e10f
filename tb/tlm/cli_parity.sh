#!/bin/sh
# cli_parity.sh BIN: `gpusim demo` and every `gpusim run NAME` on the tlm
# backend (gpusim_tlm and gm_mem_tlm in a platform gm_create builds, the
# driver's calls as TLM transactions) print the verilator backend's
# transcript exactly: cycles, counters, checks.  The demo's first line names
# the backend and is left out.
B=${1:-build/bin/gpusim}
d=$(mktemp -d)
rc=0
$B demo | tail -n +2 > $d/vl.txt
$B demo --backend tlm | tail -n +2 > $d/tlm.txt
diff -u $d/vl.txt $d/tlm.txt || { echo "FAILED: demo differs on tlm"; rc=1; }
for n in $($B run --list | cut -d' ' -f1); do
	$B run $n > $d/vl.txt
	$B run $n --backend tlm > $d/tlm.txt
	diff -u $d/vl.txt $d/tlm.txt > $d/diff.txt || { echo "FAILED: run $n differs on tlm"; head -20 $d/diff.txt; rc=1; }
	grep '^run ' $d/tlm.txt
done
rm -rf $d
[ $rc = 0 ] && echo "tlm transcripts identical to verilator's"
exit $rc
