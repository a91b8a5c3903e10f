#!/bin/sh
# SPDX-License-Identifier: MIT
#
# test_slurm.sh - the Slurm path of the regression runner, for real: a
# one-node Slurm cluster on this machine, a small sharded regression through
# it, the merged report checked.
#
# Usage: [LIST=FILE] [SHARDS=N] tb/regress/slurm/test_slurm.sh
#        (from the repository root; build/ built; the Debian packages of
#        `tools/deps.sh slurm`).  LIST (default tb/regress/smoke.list) and
#        SHARDS (default 2) run another list through the same cluster, e.g.
#        LIST=tb/regress/rand1000.list to time it.
#
# It starts munged, slurmctld and slurmd as the current user, configured for
# localhost only (free ports, every file in a temporary folder; nothing in
# /etc), runs `regress.py slurm --shards 2` over tb/regress/smoke.list, and
# checks the merged JUnit file: every instance of the list exactly once, the
# counts, each shard's log; then the runner's selftest cases (a failure, a
# timeout, a skip) through it: each failure's command and waves in the
# merged report.  The daemons it started are stopped at the end,
# on failure and on a signal too (trap).  Exit 0 pass, 1 fail, 77 skipped
# (the packages are not installed).
set -u
for p in munged slurmctld slurmd sbatch sinfo; do
	command -v $p > /dev/null || [ -x /usr/sbin/$p ] || {
		echo "test_slurm: $p not installed: skipped (make test-slurm installs the packages and runs it)"; exit 77; }
done
PATH=$PATH:/usr/sbin
ROOT=$(pwd)
T=$(mktemp -d /tmp/gpusim-slurm.XXXXXX)
PIDS=""
RUN=""
bad=0

stop() {
	# the jobs first, while the daemons that end them are up
	[ -n "${RUN:-}" ] && kill "$RUN" 2> /dev/null
	if [ -n "${SLURM_CONF:-}" ] && squeue -h 2> /dev/null | grep -q .; then
		scancel -u "$(id -un)" 2> /dev/null
		i=0
		while squeue -h 2> /dev/null | grep -q . && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
	fi
	for pid in $PIDS; do kill "$pid" 2> /dev/null; done
	for pid in $PIDS; do
		i=0
		while kill -0 "$pid" 2> /dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$pid" 2> /dev/null
	done
	if [ $bad -ne 0 ]; then
		for f in "$T"/slurmctld.log "$T"/slurmd.log "$T"/munged.log; do
			[ -f "$f" ] && { echo "--- $f (end)"; tail -n 20 "$f"; }
		done
	fi
	rm -rf "$T"
}
trap stop EXIT
trap 'bad=1; exit 1' INT TERM HUP
fail() { echo "test_slurm: FAIL: $*"; bad=1; }
die() { fail "$*"; exit 1; }

# munge: a key of our own, its socket in $T
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2> /dev/null
chmod 600 "$T/munge.key"
munged --foreground --force --key-file="$T/munge.key" --socket="$T/munge.socket" \
	--pid-file="$T/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munged.seed" \
	> /dev/null 2>&1 &
PIDS="$!"

# two free TCP ports on localhost
set -- $(python3 -c 'import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
CTLD_PORT=$1 SLURMD_PORT=$2
HOST=$(hostname -s)
USER_NAME=$(id -un)
CPUS=$(nproc)
mkdir -p "$T/state" "$T/spool"
cat > "$T/slurm.conf" << EOF
ClusterName=gpusimtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=$USER_NAME
SlurmdUser=$USER_NAME
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=regress Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"

i=0
until [ -S "$T/munge.socket" ]; do
	i=$((i + 1)); [ $i -gt 50 ] && die "munged did not start"; sleep 0.1
done
slurmctld -D -i -f "$SLURM_CONF" > "$T/slurmctld.out" 2>&1 &
PIDS="$PIDS $!"
slurmd -D -f "$SLURM_CONF" -N "$HOST" > "$T/slurmd.out" 2>&1 &
PIDS="$PIDS $!"
i=0
until sinfo -h -o %t 2> /dev/null | grep -qx idle; do
	i=$((i + 1)); [ $i -gt 60 ] && die "the node is not idle after 30 s: $(sinfo -h 2>&1)"
	sleep 0.5
done
echo "test_slurm: cluster up ($HOST, slurmctld :$CTLD_PORT, slurmd :$SLURMD_PORT, $CPUS CPUs)"

# the smoke list in two shards, a CPU each
R="python3 tb/regress/regress.py"
LIST_FILE=${LIST:-tb/regress/smoke.list}
SHARDS=${SHARDS:-2}
LIST="--list $LIST_FILE --rotate-seed 4242 --work $T/work"
$R --dry-run $LIST | sed -n 's/^  \([^:]*\): .*/\1/p' | sort > "$T/want"
[ -s "$T/want" ] || die "no instances in the list"
start=$(date +%s)
# in the background: a signal to this script is taken at once (wait), not
# after sbatch --wait returns
$R slurm $LIST --shards "$SHARDS" -j 1 --no-waves > "$T/slurm.log" 2>&1 &
RUN=$!
wait $RUN
rc=$?
RUN=""
cat "$T/slurm.log"
echo "test_slurm: the regression through Slurm took $(($(date +%s) - start)) s"
[ $rc -eq 0 ] || fail "regress.py slurm: exit $rc"
n=$(wc -l < "$T/want")
[ "$(tail -n 1 "$T/slurm.log")" = "$n passed, 0 failed" ] ||
	fail "closing line '$(tail -n 1 "$T/slurm.log")', want '$n passed, 0 failed'"
grep -q "rotate" "$LIST_FILE" && ! grep -q "^rotating seed: rand_scoreboard GPUSIM_SEED=4242$" "$T/slurm.log" &&
	fail "rotating seed not printed"
D=$(ls -d "$T"/work/slurm-* 2> /dev/null | head -n 1)
[ -n "$D" ] || die "no Slurm folder"
python3 - "$D/junit.xml" "$T/want" "$SHARDS" << 'EOF' || fail "merged report"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
want = open(sys.argv[2]).read().split()
got = [c.get("name") for c in root.iter("testcase")]
suites = [s.get("name") for s in root.iter("testsuite")]
assert sorted(got) == sorted(want), ("cases", sorted(got), sorted(want))
n = int(sys.argv[3])
assert suites == ["gpusim shard %d/%d" % (k, n) for k in range(1, n + 1)], suites
assert root.get("tests") == str(len(want)) and root.get("failures") == "0", root.attrib
for c in root.iter("testcase"):
    assert c.find("properties/property[@name='command']") is not None, c.get("name")
print("test_slurm: merged report: %d cases, each once, from %d shards" % (len(got), len(suites)))
EOF
for k in $(seq 1 "$SHARDS"); do
	grep -q "^regress: $LIST_FILE, shard $k/$SHARDS:" "$D/shard-$k.log" ||
		fail "shard $k's log does not show it ran shard $k/$SHARDS"
done

# failures through Slurm (the runner's selftest cases: a failure with its
# waves, a timeout, a skip): exit 1, each failure's command in the merged
# report, the closing line
if [ "$LIST_FILE" = tb/regress/smoke.list ]; then
	$R slurm --tests tb/regress/selftest.cmake --list tb/regress/selftest.list \
		--work "$T/fail" --shards 2 -j 1 > "$T/fail.log" 2>&1 &
	RUN=$!
	wait $RUN
	rc=$?
	RUN=""
	[ $rc -eq 1 ] || fail "failing list through Slurm: exit $rc, want 1"
	[ "$(tail -n 1 "$T/fail.log")" = "2 passed, 2 failed, 1 skipped" ] ||
		fail "failing list: closing line '$(tail -n 1 "$T/fail.log")'"
	grep -qF "FAILED fail: reproduce with: (cd build && GPUSIM_SEED=10 sh -c 'exec tests/test_rand --count 2 --quiet --inject-bad-rsp 3000')" "$T/fail.log" ||
		fail "failing list: no reproducing command in the merged report"
	grep -q "^    waves: .*test_rand-10.fst" "$T/fail.log" || fail "failing list: the failure's waves not named"
	echo "test_slurm: a failing list through Slurm: $(tail -n 1 "$T/fail.log")"
fi

[ $bad -eq 0 ] && echo "test_slurm: ok"
exit $bad
