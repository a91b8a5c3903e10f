#!/bin/sh
# waves.sh BIN: --wave on the tlm backend writes the FST and the run's view
# with the same generated views and markers as on verilator (the view files
# differ only in their paths).
B=${1:-build/bin/gpusim}
d=$(mktemp -d)
rc=0
$B demo --quiet --wave $d/vl.fst > /dev/null || rc=1
$B demo --quiet --backend tlm --wave $d/tlm.fst > /dev/null || rc=1
[ -s $d/tlm.fst ] || { echo "FAILED: no FST on tlm"; rc=1; }
sed "s#$d/vl#X#g" $d/vl.gtkw > $d/vl.view
sed "s#$d/tlm#X#g" $d/tlm.gtkw > $d/tlm.view
diff -u $d/vl.view $d/tlm.view || { echo "FAILED: the views differ"; rc=1; }
rm -rf $d
[ $rc = 0 ] && echo "tlm waves and view as on verilator"
exit $rc
