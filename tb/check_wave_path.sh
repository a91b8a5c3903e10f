#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check_wave_path.sh - --wave FILE as a user types it, for a file that does
# not exist yet: a fresh name in an existing folder (.vcd and .fst, with a
# folder and without), which writes the waveform and its view; and a name
# in a folder that does not exist, or is a file, or a name that is a
# folder, which makes nothing and says why, naming the path (exit 1, a run
# that could not complete; a replay refuses, exit 2).
#
# Usage: tb/check_wave_path.sh GPUSIM   (from the build folder, by ctest)
set -u
G=$1
D=wave-path
fail() { echo "check_wave_path: $*" >&2; exit 1; }

rm -rf "$D" w-here.vcd w-here.gtkw w-here-filters
mkdir "$D" || fail "cannot make $D"
for w in "$D/w.vcd" "$D/w.fst" w-here.vcd; do
	"$G" demo --quiet --wave "$w" > "$D/out" 2>&1 || { cat "$D/out"; fail "demo --wave $w failed"; }
	v=${w%.*}.gtkw
	test -s "$w" || fail "demo --wave $w: no $w"
	test -s "$v" || fail "demo --wave $w: no $v"
	grep -q "^\[dumpfile\] \"$(pwd)/$w\"$" "$v" || fail "$v does not name $(pwd)/$w"
	grep -q "^view: $v " "$D/out" || fail "demo --wave $w: the view is not named"
done
grep -q 'enddefinitions' "$D/w.vcd" || fail "$D/w.vcd is not a VCD"
rm -rf w-here.vcd w-here.gtkw w-here-filters
: > "$D/afile"
mkdir "$D/adir.fst"
"$G" demo --quiet --capture "$D/d.gcap" > /dev/null || fail "demo --capture failed"
# the folder missing, or a file: exit 1 (2 for replay), the path and why,
# nothing made; a folder given as FILE is a usage error (exit 2)
for c in "demo --quiet" "run shared --quiet" "replay $D/d.gcap --quiet"; do
	for w in "$D/nodir/w.vcd" "$D/nodir/w.fst" "$D/afile/w.fst" "$D/adir.fst"; do
		# shellcheck disable=SC2086
		"$G" $c --wave "$w" > "$D/out" 2> "$D/err"
		rc=$?
		want=1
		case $c/$w in replay*|*/adir.fst) want=2 ;; esac
		test "$rc" -eq "$want" || fail "$c --wave $w exited $rc, not $want"
		case $w in
		*nodir*) why="the folder $D/nodir does not exist" ;;
		*afile*) why="the folder $D/afile is not a folder" ;;
		*) why="is a folder, not a file" ;;
		esac
		case $w in */adir.fst) msg="--wave FILE is a folder: $w" ;;
		*) msg="gpusim: --wave $w: $why" ;;
		esac
		grep -qF -- "$msg" "$D/err" || { cat "$D/err"; fail "$c --wave $w: no clear error"; }
		test ! -e "$D/nodir" || fail "$c --wave $w made $D/nodir"
	done
done
echo "check_wave_path: ok (fresh .vcd/.fst names written with their views; a missing folder refused with its name)"
