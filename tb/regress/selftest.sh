#!/bin/sh
# SPDX-License-Identifier: MIT
#
# selftest.sh - the regression runner's own test (CTest regress_selftest).
#
# Usage: tb/regress/selftest.sh  (from the repository root, build/ built)
#
# Over tb/regress/selftest.cmake (a pass, a failing seeded test with an
# injected model error, a timeout, a skip): the exit status and the closing
# line; the failure's command with its seed and its waves; the timeout
# named; every case's seed in the JUnit file; a shard spec such as 3/2 or 0/0
# refused, and a bad list (a bad seed, a seed twice, per= alone, no file);
# the shards of a list disjoint and together the whole list; and
# the shards' JUnit files merged, each case once.
set -u
R="python3 tb/regress/regress.py"
T=$(mktemp -d)
# (and the waves test_rand writes into build/ for the failing case's seeds)
trap 'rm -rf "$T" build/test_rand-10* build/test_rand-11*' EXIT
ST="--tests tb/regress/selftest.cmake --list tb/regress/selftest.list --work $T"
bad=0
fail() { echo "selftest: FAIL: $*"; bad=1; }

for s in 3/2 0/0 1/0 0/1 x 1/ /2 1/2/3 "" 2.0/3; do
	$R --dry-run --shard "$s" $ST > "$T/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "shard '$s': exit $rc, want 2"
	grep -q "bad shard" "$T/out" || fail "shard '$s': no 'bad shard' message"
done

# a bad list: exit 2 and the line that is wrong
printf 'pass seeds=1..2,x\n' > "$T/bad.list"
printf 'pass seeds=1..4,3\n' > "$T/dup.list"
printf 'skip per=2\n' > "$T/per.list"
for l in "$T/bad.list:1: bad seed 'x'" "$T/dup.list" "$T/per.list:1: per= without seeds=" \
	"$T/no-such.list: No such file"; do
	$R --dry-run --tests tb/regress/selftest.cmake --list "${l%%:*}" --work "$T" > "$T/out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "list ${l%%:*}: exit $rc, want 2"
	case "$l" in *:*) grep -qF "$l" "$T/out" || fail "list: no message '$l'";; esac
done

$R $ST -j 2 > "$T/run.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "run: exit $rc, want 1"
[ "$(tail -n 1 "$T/run.log")" = "2 passed, 2 failed, 1 skipped" ] ||
	fail "run: closing line '$(tail -n 1 "$T/run.log")'"
grep -qF "FAILED fail (seed 10): reproduce with: (cd build && GPUSIM_SEED=10 sh -c 'exec tests/test_rand --count 2 --quiet --inject-bad-rsp 3000')" "$T/run.log" ||
	fail "run: no reproducing command with the seed"
grep -qF "the test says: seed 10: reproduce with GPUSIM_SEED=10 build/tests/test_rand --count 1 --inject-bad-rsp 3000" "$T/run.log" ||
	fail "run: the test's own line for its seed"
# test_rand writes a mismatch's waves itself (into its directory, build/)
# and names them; the runner reports the files it named
w=$(sed -n 's/^    waves: \(.*test_rand-10\.fst\) (view: gtkwave .*/\1/p' "$T/run.log")
[ -n "$w" ] || fail "run: waves not named"
[ -n "$w" ] && [ -s "$w" ] && [ -s "${w%.fst}.gtkw" ] || fail "run: no waves of the failure ('$w')"
grep -q "FAILED hang (timeout after 2 s)" "$T/run.log" || fail "run: timeout not named"
python3 - "$T/junit-1-of-1.xml" <<'EOF' || fail "run: JUnit"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
seeds = {c.get("name"): c.find("properties/property[@name='seed']") for c in r.iter("testcase")}
want = {"pass@1-2": "1", "pass@3-4": "3", "fail": "10", "hang": None, "skip": None}
got = {n: (s.get("value") if s is not None else None) for n, s in seeds.items()}
assert got == want, got
assert (r.get("tests"), r.get("failures"), r.get("skipped")) == ("5", "2", "1"), r.attrib
# a dashboard's view: the failing check and the command in the message
f = {c.get("name"): c.find("failure") for c in r.iter("testcase")}
m = f["fail"].get("message")
assert "a_arb_rsp_routed failed" in m.split("; reproduce with:")[0], m
assert m.endswith("reproduce with: (cd build && GPUSIM_SEED=10 sh -c 'exec tests/test_rand "
                  "--count 2 --quiet --inject-bad-rsp 3000')"), m
assert f["fail"].text.startswith("FAILED fail (") and "GPUSIM_SEED=10 " in f["fail"].text, \
    f["fail"].text
assert f["hang"].get("message").startswith("timeout after 2 s; reproduce with:"), f["hang"].attrib
EOF

# a program that is not built: an error only if the list runs it
printf 'add_test(built sh -c true)\nadd_test(unbuilt tests/test_no_such_program)\n' > "$T/unbuilt.cmake"
printf 'unbuilt skip\n*\n' > "$T/skip.list"
printf '*\n' > "$T/all.list"
$R --dry-run --tests "$T/unbuilt.cmake" --list "$T/skip.list" --work "$T" > "$T/out" 2>&1 ||
	fail "an unbuilt program the list skips stops the run"
$R --dry-run --tests "$T/unbuilt.cmake" --list "$T/all.list" --work "$T" > "$T/out" 2>&1
[ $? -eq 2 ] && grep -q "test unbuilt: its program is not built" "$T/out" ||
	fail "an unbuilt program the list runs not refused"

# shards: disjoint, together the list (ci.list over tb/tests.cmake)
for k in 1 2 3; do
	$R --dry-run --shard $k/3 --rotate-seed 5 --work "$T" | grep '^  ' > "$T/s$k" ||
		fail "dry run of shard $k/3"
done
$R --dry-run --rotate-seed 5 --work "$T" | grep '^  ' | sort > "$T/all"
sort "$T/s1" "$T/s2" "$T/s3" > "$T/union"
cmp -s "$T/all" "$T/union" || fail "shards 1-3/3 are not the list, each instance once"
$R --dry-run --shard 2/3 --rotate-seed 5 --work "$T" | grep '^  ' | cmp -s - "$T/s2" ||
	fail "shard 2/3 differs between two runs"

# two shards merged: each case once, the counts
$R $ST --no-waves --shard 1/2 > /dev/null 2>&1
$R $ST --no-waves --shard 2/2 > /dev/null 2>&1
$R merge -o "$T/merged.xml" "$T/junit-1-of-2.xml" "$T/junit-2-of-2.xml" > "$T/merge.log"
[ "$(tail -n 1 "$T/merge.log")" = "2 passed, 2 failed, 1 skipped" ] ||
	fail "merge: closing line '$(tail -n 1 "$T/merge.log")'"
$R merge -o "$T/twice.xml" "$T/junit-1-of-2.xml" "$T/junit-1-of-2.xml" > "$T/twice.log"
grep -q "FAILED pass@1-2: in" "$T/twice.log" || fail "merge: a case in two shards not caught"
$R merge -o "$T/missing.xml" "$T/junit-1-of-2.xml" "$T/no-such.xml" > "$T/missing.log"
[ $? -eq 1 ] && grep -q "FAILED shard report" "$T/missing.log" || fail "merge: a missing shard not caught"

[ $bad -eq 0 ] && echo "selftest: runner ok"
exit $bad
