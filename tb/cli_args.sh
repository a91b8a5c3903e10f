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

echo "cli_args: $rows rows, $fails failed"
[ "$fails" -eq 0 ]
