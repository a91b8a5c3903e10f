#!/bin/sh
# SPDX-License-Identifier: MIT
#
# gtkw_shots.sh - one screenshot of each kind of GTKWave view, taken under
# Xvfb (packages xvfb, xauth, imagemagick; gtkwave): each static view of
# traces/gtkw/ on a dump that exercises it, and the views gpusim writes next
# to a waveform for the demo (its queue error), run hang (TDR and
# recovery), run lock (merged markers) and a failed run (an assertion).
# They are how the views look when opened; README "Debugging with waves"
# links them.
#
# Usage: sh tools/gtkw_shots.sh GPUSIM OUTDIR   (from the repository root)
set -eu
if [ $# -ne 2 ] || [ ! -x "$1" ]; then
	echo "usage: sh tools/gtkw_shots.sh GPUSIM OUTDIR   (GPUSIM an executable gpusim)" >&2
	exit 2
fi
G=$(realpath "$1")
OUT=$(realpath "$2")
ROOT=$(pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

for t in xvfb-run import gtkwave; do
	command -v "$t" > /dev/null || { echo "gtkw_shots: needs $t (apt-get install xvfb xauth imagemagick gtkwave)" >&2; exit 2; }
done
mkdir -p "$OUT"
(
	cd "$T"
	"$G" demo --quiet --wave demo.fst > /dev/null
	"$G" run copies --quiet --wave copies.fst > /dev/null
	"$G" run hang --quiet --wave hang.fst > /dev/null
	"$G" run lock --quiet --wave lock.fst --wave-from 200000 --wave-to 230000 > /dev/null
	# the first lock through an aperture range, at the static view's zoom
	"$G" run lock --quiet --wave apt.fst --wave-from 212650 --wave-to 214550 > /dev/null
	"$G" demo --quiet --inject-bad-rsp 1000 > /dev/null 2>&1 || true
)

# shot NAME ARGS...: gtkwave ARGS on a 1600x1000 screen into OUT/NAME.png
shot() {
	name=$1
	shift
	xvfb-run -a -s "-screen 0 1600x1000x24" sh -c '
		gtkwave "$@" > /dev/null 2>&1 &
		p=$!
		sleep 5
		import -window root "$0"
		kill $p' "$T/$name.png" "$@"
	# 32 colours hold GTKWave's palette and its text
	convert "$T/$name.png" -colors 32 "PNG8:$OUT/$name.png"
	echo "gtkw_shots: $OUT/$name.png"
}

cd "$ROOT"
shot static-cp "$T/demo.fst" traces/gtkw/cp.gtkw
shot static-mmu "$T/demo.fst" traces/gtkw/mmu.gtkw
shot static-mem "$T/demo.fst" traces/gtkw/mem.gtkw
shot static-ce "$T/copies.fst" traces/gtkw/ce.gtkw
shot static-apt "$T/apt.fst" traces/gtkw/apt.gtkw
shot run-demo "$T/demo.gtkw"
shot run-hang "$T/hang.gtkw"
shot run-lock "$T/lock.gtkw"
shot run-failure "$T/gpusim-fail-demo.gtkw"
