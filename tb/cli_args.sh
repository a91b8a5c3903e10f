#!/bin/sh
# SPDX-License-Identifier: MIT
#
# cli_args.sh - the command line's table of bad arguments and edge inputs.
#
# Usage: sh ../tb/cli_args.sh bin/gpusim    (CTest runs it from build/)
#
# Each row is an exit code, a text and a command.  A usage error (exit 2)
# must say what is wrong on stderr (the text) and print nothing on stdout;
# a run that succeeds (exit 0) must print the text on stdout.  Every row
# runs, and each failure prints the command that reproduces it.
set -u

G=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rows=0
fails=0

# row CODE TEXT COMMAND...   (an empty TEXT checks the exit code only)
row() {
	code=$1
	text=$2
	shift 2
	rows=$((rows + 1))
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	where="$tmp/err"
	[ "$code" -eq 0 ] && where="$tmp/out"
	if [ "$rc" -ne "$code" ] || { [ -n "$text" ] && ! grep -qF -- "$text" "$where"; } ||
	   { [ "$code" -eq 2 ] && [ -s "$tmp/out" ]; }; then
		fails=$((fails + 1))
		cmd=
		for a in "$@"; do
			cmd="$cmd '$a'"
		done
		echo "FAIL: exit $rc, expected $code and \"$text\" on std${where##*/};" \
			"reproduce with: (cd $(pwd) &&$cmd)"
		head -c 2000 "$tmp/out" "$tmp/err"
	fi
}

# Usage errors of every command.
row 2 'unknown command: frobnicate' "$G" frobnicate
row 2 'unknown backend: nope' "$G" demo --backend nope
row 2 '--wave-from/--wave-to need --wave' "$G" demo --wave-from 5
row 2 'bad --rounds: 0' "$G" demo --rounds 0
row 2 'bad --rounds: 1000001' "$G" demo --rounds 1000001
row 2 'unknown scenario: nosuch' "$G" run nosuch
row 2 'bad --seed: x' "$G" run copies --seed x
row 2 'bad --inject-bad-rsp: 0' "$G" run copies --inject-bad-rsp 0
row 2 'bad --inject-bad-rsp: x' "$G" demo --inject-bad-rsp x
row 2 '--wave-from/--wave-to need --wave' "$G" run copies --wave-to 5
row 2 'empty wave window' "$G" run copies --wave x.fst --wave-from 9 --wave-to 9

# bench: --rounds N with 1 <= N <= 1000000, as demo; nothing else.
row 2 'bad --rounds: 0' "$G" bench --rounds 0
row 2 'bad --rounds: 1000001' "$G" bench --rounds 1000001
row 2 'bad --rounds: 4294967296' "$G" bench --rounds 4294967296
row 2 'bad --rounds: -1' "$G" bench --rounds -1
row 2 'bad --rounds: 5x' "$G" bench --rounds 5x
row 2 'missing value for: --rounds' "$G" bench --rounds
row 2 'unknown option: --frobnicate' "$G" bench --frobnicate
row 2 'bench takes no NAME: all' "$G" bench all
row 0 'usage: gpusim' "$G" bench --help

# A VCD is converted by fst2vcd: refused before the run when it is not on PATH.
row 2 'needs fst2vcd (package gtkwave)' env PATH=/nonexistent "$G" demo --quiet --wave "$tmp/d.vcd"
row 2 'needs fst2vcd (package gtkwave)' env PATH=/nonexistent "$G" run copies --quiet --wave "$tmp/r.vcd"
for f in d.vcd d.vcd.tmp.fst r.vcd r.vcd.tmp.fst; do
	row 1 '' test -e "$tmp/$f"
done

# disasm FILE: whole dwords, at most 64 MiB.
printf '\000\020\000\300\000\020\000\300' >"$tmp/nop2"  # two NOPs, COUNT 0
printf '\000\020\000\300\001' >"$tmp/tail1"
printf '\000\020\000\300\001\002' >"$tmp/tail2"
printf '\000\020\000\300\001\002\003' >"$tmp/tail3"
: >"$tmp/empty"
truncate -s 67108868 "$tmp/big"  # 64 MiB + 1 dword, sparse
row 0 'NOP' "$G" disasm "$tmp/nop2"
row 0 '' "$G" disasm "$tmp/empty"
row 2 'disasm takes one FILE' "$G" disasm
row 2 'disasm takes one FILE' "$G" disasm "$tmp/nop2" "$tmp/nop2"
row 2 'cannot open' "$G" disasm "$tmp/nosuch"
row 2 'Is a directory' "$G" disasm "$tmp"
row 2 '(1 trailing byte)' "$G" disasm "$tmp/tail1"
row 2 '(2 trailing bytes)' "$G" disasm "$tmp/tail2"
row 2 '(3 trailing bytes)' "$G" disasm "$tmp/tail3"
row 2 'larger than 64 MiB' "$G" disasm "$tmp/big"
row 2 'larger than 64 MiB' sh -c "head -c 67108865 /dev/zero | \"$G\" disasm /dev/stdin"
row 2 'larger than 64 MiB' timeout 30 "$G" disasm /dev/zero

# replay FILE: a capture (traces/FORMAT.md) refused with the record number
# and the reason, never a crash; --capture on demo and run.
C=../traces/capture
cap=$C/hang.gcap
head -c 5 "$cap" >"$tmp/cut-magic.gcap"
head -c 40 "$cap" >"$tmp/cut-header.gcap"
head -c 100 "$cap" >"$tmp/cut-record.gcap"
{ head -c 8 "$cap"; printf '\002'; tail -c +10 "$cap"; } >"$tmp/future.gcap"
{ printf 'GPUSIMCX'; tail -c +9 "$cap"; } >"$tmp/magic.gcap"
{ head -c 90 "$cap"; printf '\377'; tail -c +92 "$cap"; } >"$tmp/flip.gcap"
row 2 'replay needs a capture FILE' "$G" replay
row 2 'replay takes one FILE' "$G" replay "$cap" "$cap"
row 2 'unknown backend: nope' "$G" replay "$cap" --backend nope
row 2 'unknown option: --frob' "$G" replay "$cap" --frob
row 2 'cannot open' "$G" replay "$tmp/nosuch.gcap"
row 2 'cannot read' "$G" replay "$tmp"
row 2 'record 0 at byte 0: the header is cut off after 0 bytes' "$G" replay "$tmp/empty"
row 2 'GM_CAP_ERR_MAGIC' "$G" replay "$tmp/magic.gcap"
row 2 'GM_CAP_ERR_TRUNCATED' "$G" replay "$tmp/cut-magic.gcap"
row 2 'record 0 at byte 0: the header is cut off after 40 bytes' "$G" replay "$tmp/cut-header.gcap"
row 2 'record 2 at byte 96: the file ends 4 bytes into the record' "$G" replay "$tmp/cut-record.gcap"
row 2 'format version 2, this gpusim reads 1..1 (GM_CAP_ERR_VERSION)' "$G" replay "$tmp/future.gcap"
row 2 'record 1 at byte 72: checksum' "$G" replay "$tmp/flip.gcap"
row 2 'GM_CAP_ERR_CRC' "$G" replay --disasm "$tmp/flip.gcap"
row 2 'GM_CAP_ERR_TRUNCATED' "$G" replay --disasm "$tmp/cut-record.gcap"
row 0 '(doorbell)' "$G" replay --disasm "$cap"
row 0 'INDIRECT_BUFFER' "$G" replay --disasm "$C/demo.gcap"
row 0 '' "$G" replay --quiet "$cap"
# the reference model's aperture is cycle-exact: an RTL capture that locks
# through it replays on ref with every result checked
row 0 'checks passed' "$G" replay "$C/copies.gcap" --backend ref
# a capture from the reference model diverges on the RTL: the first mismatch
row 1 'the capture has' "$G" replay "$C/ref/demo.gcap" --backend verilator
row 1 'GM_ERR_IO' "$G" demo --quiet --capture "$tmp/nodir/x.gcap"
row 2 'missing value for: --capture' "$G" run hang --capture

echo "cli_args: $rows rows, $fails failed"
[ "$fails" -eq 0 ]
