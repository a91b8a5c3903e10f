#!/bin/sh
# SPDX-License-Identifier: MIT
#
# captures.sh - the capture corpus (traces/capture/, traces/FORMAT.md): the
# demo and every `gpusim run` scenario captured on the Verilator backend
# (DIR/NAME.gcap, replayed on verilator and systemc by make test), and those
# the reference model runs captured on it (DIR/ref/NAME.gcap, replayed on
# ref: its cycle counts differ from the RTL's, so an RTL capture diverges
# there at the first timing-dependent read).
#
#   sh tools/captures.sh GPUSIM DIR          write the corpus into DIR (make captures)
#   sh tools/captures.sh --check GPUSIM DIR  capture again into a temporary
#       folder and compare byte for byte: exit 1, naming each capture that
#       differs, when the firmware no longer sends what the corpus holds;
#       and each run again without capturing: its summary (cycles, checks)
#       must be the same, capturing costs no cycle
set -u

RTL_CAPS="demo copies evict shared hang vaupdate tiled deferred lock"
REF_CAPS="$RTL_CAPS"

check=0
if [ "${1:-}" = "--check" ]; then
	check=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: $0 [--check] GPUSIM DIR" >&2
	exit 2
fi
gpusim=$1
dir=$2

# capture NAME BACKEND FILE: the demo or scenario NAME on BACKEND into FILE
# (FILE empty: not captured); its summary line on stdout
capture() {
	if [ "$1" = demo ]; then
		set -- demo "$2" "$3" demo
	else
		set -- "$1" "$2" "$3" run "$1"
	fi
	c_be=$2 c_file=$3
	shift 3
	c_out=$("$gpusim" "$@" --quiet --backend "$c_be" ${c_file:+--capture "$c_file"})
	c_st=$?
	printf '%s\n' "$c_out" | grep "cycles"
	return $c_st
}

out=$dir
if [ $check = 1 ]; then
	out=$(mktemp -d) || exit 2
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out/ref" || exit 2
rc=0
# one NAME BACKEND FILE: capture it; when checking, run it uncaptured too
one() {
	with=$(capture "$1" "$2" "$3") || { echo "captures: $1 on $2 failed to run" >&2; rc=1; }
	[ $check = 1 ] || return 0
	without=$(capture "$1" "$2" "")
	if [ "$with" != "$without" ]; then
		echo "captures: $1 on $2: capturing changed the run: '$with' against '$without'" >&2
		rc=1
	fi
}
for name in $RTL_CAPS; do
	one "$name" verilator "$out/$name.gcap"
done
for name in $REF_CAPS; do
	one "$name" ref "$out/ref/$name.gcap"
done
if [ $check = 0 ]; then
	ls -l "$dir"/*.gcap "$dir"/ref/*.gcap
	exit $rc
fi
for f in $(cd "$out" && ls *.gcap ref/*.gcap); do
	if ! cmp -s "$out/$f" "$dir/$f"; then
		echo "captures: $dir/$f: the current firmware sends something else" \
			"($(wc -c < "$out/$f") bytes now, $(wc -c < "$dir/$f" 2>/dev/null || echo no) bytes in the corpus)" >&2
		rc=1
	fi
done
if [ $rc != 0 ]; then
	echo "captures: if the change is intended, update the corpus with 'make captures' and" \
		"commit traces/capture (see what changed: gpusim replay --disasm FILE, old and new)" >&2
else
	echo "captures: all $(cd "$out" && ls *.gcap ref/*.gcap | wc -l) captures are what the firmware sends," \
		"and each run takes the cycles it takes uncaptured"
fi
exit $rc
