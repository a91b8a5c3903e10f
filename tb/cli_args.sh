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
mkdir "$tmp/dir.fst"
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

# --help and run --list stand alone; replay --disasm runs no model, so takes
# no model option; a waveform is .fst or .vcd on every command, refused
# before the run like every other usage error.
row 0 'usage: gpusim' "$G" --help
row 0 'usage: gpusim' "$G" demo --help
row 0 'usage: gpusim' "$G" run --help
row 2 '--help takes no other argument: extra' "$G" --help extra
row 2 '--help takes no other argument: extra' "$G" -h extra
row 2 '--help takes no other argument: --quiet' "$G" demo --quiet --help
row 2 '--help takes no other argument: extra' "$G" run --help extra
row 2 '--help takes no other argument: extra' "$G" bench --help extra
row 0 'copies' "$G" run --list
row 2 'run --list takes no other argument: extra' "$G" run --list extra
row 2 'run --list takes no other argument: copies' "$G" run copies --list
row 2 'replay --disasm takes only a FILE: --backend' "$G" replay --disasm ../traces/capture/hang.gcap --backend ref
row 2 'replay --disasm takes only a FILE: --wave' "$G" replay --wave x.fst --disasm ../traces/capture/hang.gcap
row 2 'replay --disasm takes only a FILE: --quiet' "$G" replay --disasm --quiet ../traces/capture/hang.gcap
row 2 '--wave FILE must end in .fst or .vcd: x.txt' "$G" demo --wave x.txt
row 2 '--wave FILE must end in .fst or .vcd: x.txt' "$G" run copies --wave x.txt
row 2 '--wave FILE must end in .fst or .vcd: x.txt' "$G" replay ../traces/capture/hang.gcap --wave x.txt
row 2 '--wave FILE must end in .fst or .vcd: x.txt' "$G" idle --wave x.txt
row 2 '--wave FILE must end in .fst or .vcd: .fst' "$G" demo --wave .fst

# The parser (getopt_long): --opt=VALUE and --opt VALUE, abbreviations,
# `gpusim help [CMD]`, CMD --help, --version; an unknown name lists the
# valid ones; every option given a hostile value is refused before the run.
row 0 '16 checks, 0 failed' "$G" demo --rounds=2 --quiet
row 0 '16 checks, 0 failed' "$G" demo --qui --rou=2
row 2 'demo: unknown option: --bogus' "$G" demo --quiet --bogus
row 2 '(demo takes: --backend B --wave FILE' "$G" demo --quiet --bogus
row 2 'unknown option: --wave-' "$G" demo --wave- 5
row 2 'the option takes no value: --quiet=1' "$G" demo --quiet=1
row 2 'missing value for: --wave' "$G" demo --wave
row 2 'demo takes no NAME: extra' "$G" demo extra
row 2 '(valid: copies evict shared hang vaupdate tiled deferred lock)' "$G" run nosuch
row 2 '(valid: verilator systemc ref tlm)' "$G" demo --backend nope
row 2 '(valid: demo run replay disasm bench idle backends help)' "$G" frobnicate
row 0 'usage: gpusim COMMAND' "$G" help
row 0 'usage: gpusim run NAME|all' "$G" help run
row 0 'usage: gpusim run NAME|all' "$G" run --help
row 0 'usage: gpusim replay FILE' "$G" replay --help
row 0 'usage: gpusim idle' "$G" idle --help
row 2 'unknown command: nosuch' "$G" help nosuch
row 2 'help takes one COMMAND: run' "$G" help demo run
row 0 'gpusim 0.1 (register and packet interface version 1' "$G" --version
row 0 'backends: verilator systemc ref tlm' "$G" --version
row 2 '--version takes no other argument: x' "$G" --version x
# empty
row 2 'empty value for: --rounds' "$G" demo --rounds=
row 2 'empty value for: --wave' "$G" demo --wave ''
row 2 'empty value for: --capture' "$G" run copies --capture=
row 2 'empty value for: --backend' "$G" replay ../traces/capture/hang.gcap --backend ''
row 2 'empty value for: --cycles' "$G" idle --cycles ''
# huge
row 2 'bad --rounds: 99999999999999999999' "$G" demo --rounds=99999999999999999999
row 2 'bad --wave-from: 18446744073709551616' "$G" demo --wave x.fst --wave-from=18446744073709551616
row 2 'bad --seed: 4294967296' "$G" run copies --seed=4294967296
row 2 'bad --cycles: 1000000001' "$G" idle --cycles 1000000001
# negative
row 2 'bad --seed: -1' "$G" run copies --seed -1
row 2 'bad --cycles: -5' "$G" idle --cycles=-5
row 2 'bad --wave-to: -1' "$G" demo --wave x.fst --wave-to -1
row 2 'bad --inject-bad-rsp: -3' "$G" demo --inject-bad-rsp=-3
# a folder, a missing file, a path in a folder that does not exist
row 2 '--wave FILE is a folder' "$G" demo --quiet --wave "$tmp/dir.fst"
row 2 '--capture FILE is a folder' "$G" run copies --quiet --capture "$tmp"
row 2 '--capture FILE is a folder' "$G" demo --quiet --capture "$tmp"
row 1 'GM_ERR_IO (cannot create the --wave or --capture FILE)' "$G" demo --quiet --wave "$tmp/nodir/x.fst"
row 1 'GM_ERR_IO (cannot create the --wave or --capture FILE)' "$G" run copies --quiet --capture "$tmp/nodir/x.gcap"
row 2 'cannot open the waveform' "$G" replay ../traces/capture/hang.gcap --quiet --wave "$tmp/nodir/x.fst"
row 2 'cannot open' "$G" replay "$tmp/nodir/x.gcap"
row 2 'cannot open' "$G" disasm ''
# Verilator's plusargs: the two the model takes, handed over as
# GPUSIM_VERILATOR_ARGS; anything else refused before the run
row 0 '11 checks, 0 failed' "$G" demo --quiet +verilator+seed+5 +verilator+rand+reset+2
row 0 '11 checks, 0 failed' "$G" demo --quiet --backend tlm +verilator+seed+7
row 2 'bad plusarg (takes +verilator+seed+N' "$G" demo +verilator+seed+x
row 2 'bad plusarg (takes +verilator+seed+N' "$G" demo +verilator+seed+
row 2 'bad plusarg (takes +verilator+seed+N' "$G" demo +verilator+seed+1234567890
row 2 'bad plusarg (takes +verilator+seed+N' "$G" demo +verilator+seed+-1
row 2 'bad plusarg (takes +verilator+seed+N' "$G" run copies +verilator+rand+reset+3
row 2 'bad plusarg (takes +verilator+seed+N' "$G" idle +verilator+bogus
row 2 'plusargs are for the verilator and tlm backends, not: ref' "$G" demo --backend ref +verilator+seed+1
row 2 'replay --disasm takes only a FILE: +verilator+' "$G" replay --disasm ../traces/capture/hang.gcap +verilator+seed+1
row 2 'bench takes no NAME: +verilator+seed+1' "$G" bench +verilator+seed+1

# Reporting never moves the clock (gm_reg_peek): the demo's cycles are the
# same with its report of counters and without it, on every backend.
same_cycles() {
	q=$("$G" demo --quiet --backend "$1" | grep 'cycles,')
	v=$("$G" demo --backend "$1" | grep '^demo: ')
	echo "$1: verbose '$v', quiet '$q'"
	[ -n "$q" ] && [ "$q" = "$v" ] && echo "$1: same cycles"
}
for b in verilator systemc ref tlm; do
	row 0 "$b: same cycles" same_cycles "$b"
done

# Progress: on stderr when it is a terminal (script gives the run a pty),
# after 2 s, rewritten in place; never when stderr is a file or the run is
# --quiet; and the run's own output is the same with it.  8000 rounds take
# about 4 s here.
progress_on() {
	script -qec "\"$G\" demo --rounds 8000 >$tmp/p-tty.out" "$tmp/p.tty" >/dev/null </dev/null
	"$G" demo --rounds 8000 >"$tmp/p-file.out" 2>"$tmp/p-file.err"
	line=$(tr '\r' '\n' <"$tmp/p.tty" |
		grep 'cycles/s, round [0-9]* of 8000 ([0-9]* %), [0-9.]* s' | tail -1)
	echo "last progress line: $line"
	[ -n "$line" ] && [ ! -s "$tmp/p-file.err" ] && cmp "$tmp/p-tty.out" "$tmp/p-file.out" &&
		echo "the same output with a progress line"
}
progress_quiet() {
	script -qec "\"$G\" demo --rounds 8000 --quiet >/dev/null" "$tmp/q.tty" >/dev/null </dev/null
	n=$(grep -c 'cycles/s' "$tmp/q.tty")
	echo "$n progress lines under --quiet"
	[ "$n" -eq 0 ]
}
if [ -n "${ASAN_OPTIONS:-}" ]; then
	# make test SAN=1: the demo runs several times slower, and three runs of
	# it would take this table past its timeout; the plain build checks it
	echo "cli_args: under the sanitizers: the progress rows did not run"
elif command -v script >/dev/null; then
	row 0 'the same output with a progress line' progress_on
	row 0 '0 progress lines under --quiet' progress_quiet
else
	echo "cli_args: no script(1) (util-linux) for a pty: the progress rows did not run"
fi

# The tests' environment (tb/tb_seed.c, tb/sys/tb_util.c): a GPUSIM_SEED
# that is not a whole number, a GPUSIM_BACKEND that names no backend exactly,
# stop a test before it runs, as a usage error.
T=$(dirname "$(dirname "$G")")/tests
row 2 'GPUSIM_BACKEND=bogus: not a backend' env GPUSIM_BACKEND=bogus "$T/test_cp"
row 2 'GPUSIM_BACKEND=REF: not a backend' env GPUSIM_BACKEND=REF "$T/test_cp"
row 2 'GPUSIM_BACKEND=ref : not a backend' env 'GPUSIM_BACKEND=ref ' "$T/test_cp"
row 0 'test(s) run.' env GPUSIM_BACKEND=ref "$T/test_cp"
row 2 'GPUSIM_SEED=abc: not a seed' env GPUSIM_SEED=abc "$T/test_capture"
row 2 'GPUSIM_SEED=12abc: not a seed' env GPUSIM_SEED=12abc "$T/test_capture"
row 2 'GPUSIM_SEED=-1: not a seed' env GPUSIM_SEED=-1 "$T/test_capture"
row 2 'GPUSIM_SEED=18446744073709551616: not a seed' env GPUSIM_SEED=18446744073709551616 "$T/test_capture"
row 0 ': reproduce with GPUSIM_SEED=16' env GPUSIM_SEED=0x10 "$T/test_capture"

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

# Hostile but well-formed captures: every checksum right (Python's
# zlib.crc32, the CRC-32 FORMAT.md names, not gpusim's), a count, length or
# cycle past FORMAT.md's bounds.  Each is refused while the file is read,
# before a model is built or an upload expanded: under a 1 GB address-space
# limit (an allocation of 1 GiB would fail: exit 1), and within a guard
# timeout (the unbounded replay runs for hours; the guard is not the check).
python3 - "$tmp" <<'PY'
import struct, sys, zlib
d = sys.argv[1]
MIB, GIB = 1 << 20, 1 << 30
def header(reset=4, vram=256 * MIB, sysmem=256 * MIB):
    h = b"GPUSIMCP" + struct.pack("<IIIIQQIIIIIQ", 1, 72, 2, reset, vram, sysmem,
                                  20, 60, 32, 16, 64, reset)
    return h + struct.pack("<I", zlib.crc32(h))
def rec(typ, payload):
    r = struct.pack("<II", len(payload), typ) + payload
    return r + struct.pack("<I", zlib.crc32(r))
def step(cycles, reached):
    return rec(4, struct.pack("<IIQQ", 0, 0, cycles, reached))
def seq_upload(addr, n):   # one arithmetic-sequence run covering n bytes
    return rec(1, struct.pack("<QQII", addr, n, 0, 1) +
               struct.pack("<IIQQ", 0, n | 0x80000000, 0x1000, 0x1000))
def write(name, data):
    open("%s/%s.gcap" % (d, name), "wb").write(data)
write("h-header", header())
write("h-step40", header() + step(1 << 40, 4 + (1 << 40)))
write("h-stepwrap", header() + step((1 << 64) - 1, 3))
write("h-reset", header(reset=0xffffffff))
write("h-seq1g", header() + seq_upload(0, GIB))
write("h-seq16", header(vram=1 << 40) + b"".join(seq_upload(i * GIB, GIB) for i in range(16)))
write("h-expect1g", header() + rec(5, struct.pack("<QQQIIQ", 0, GIB, 0, 0, 0, 0)))
write("h-apt1g", header() + rec(6, struct.pack("<IIIIQQI", 4, 0, 0, 0, GIB, 0, 0)))
PY
bounded() {
	# no limit under ASan (make test SAN=1): its shadow reserves terabytes
	( [ -n "${ASAN_OPTIONS:-}" ] || ulimit -v 1000000; exec timeout 20 "$@" )
}
row 2 'record 1 at byte 80: step of 1099511627776 cycles' bounded "$G" replay "$tmp/h-step40.gcap"
row 2 'GM_CAP_ERR_LIMIT' bounded "$G" replay "$tmp/h-stepwrap.gcap"
row 2 'record 0 at byte 20: reset_cycles 4294967295' bounded "$G" replay "$tmp/h-reset.gcap"
row 2 'GM_CAP_ERR_LIMIT' bounded "$G" replay --disasm "$tmp/h-reset.gcap"
row 2 'record 1 at byte 80: mem_write of 1073741824 bytes' bounded "$G" replay "$tmp/h-seq1g.gcap"
row 2 'GM_CAP_ERR_LIMIT' bounded "$G" replay --disasm "$tmp/h-seq1g.gcap"
row 2 'record 1 at byte 80: mem_write of 1073741824 bytes' bounded "$G" replay "$tmp/h-seq16.gcap"
row 2 'GM_CAP_ERR_LIMIT' bounded "$G" replay --disasm "$tmp/h-seq16.gcap"
row 2 'record 1 at byte 80: mem_expect of 1073741824 bytes' bounded "$G" replay "$tmp/h-expect1g.gcap"
row 2 'record 1 at byte 80: apt call 4 of 1073741824 bytes' bounded "$G" replay "$tmp/h-apt1g.gcap"
# a stream is refused at its first bad bytes, not after reading the 1 GiB
# limit: 1 GiB of zeros (after PREFIX) piped in, and dd (SIGPIPE ignored)
# says how many 64 KiB blocks got into the pipe
zeros_replay() {
	{ cat "$@"; (trap '' PIPE; dd if=/dev/zero bs=65536 count=16384 2>"$tmp/dd"); } |
		"$G" replay /dev/stdin
}
blocks_read() {
	blocks=$(sed -n 's/^\([0-9]*\)+[0-9]* records out$/\1/p' "$tmp/dd")
	echo "$blocks blocks of 64 KiB piped in"
	[ "$blocks" -le "$1" ]
}
row 2 'GM_CAP_ERR_MAGIC' zeros_replay
row 0 'blocks of 64 KiB piped in' blocks_read 8
row 2 'record 1 at byte 72: checksum' zeros_replay "$tmp/h-header.gcap"
row 0 'blocks of 64 KiB piped in' blocks_read 8

echo "cli_args: $rows rows, $fails failed"
[ "$fails" -eq 0 ]
