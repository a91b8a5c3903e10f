#!/bin/sh
# SPDX-License-Identifier: MIT
#
# deps.sh - install the Debian packages gpusim needs, only those missing.
#
# Usage: tools/deps.sh [build|test|bench|fuzz|slurm|coverage]   (the Makefile calls it)
# Says what it installs.  Uses apt-get directly as root, else sudo.
set -eu

# Every package and why.
PKGS_BUILD="
make g++ gcc
python3
verilator
libsystemc-dev
zlib1g-dev
gtkwave
"
# gtkwave: fst2vcd for VCD output and wave tests; the .gtkw views.
PKGS_TEST="
cmake
libcmocka-dev
yosys
valgrind
clang
libclang-rt-14-dev
"
# cmake: ctest runs the regression and writes JUnit; cmocka: C unit tests;
# yosys: the synthesis (no latch) check of make lint; valgrind: memcheck runs;
# clang and its runtimes (only recommended by clang): the ThreadSanitizer
# build of the user-mode driver's test.
PKGS_BENCH=""
PKGS_FUZZ="
clang
libclang-rt-14-dev
"
# clang: libFuzzer and the sanitizers of make fuzz; libclang-rt-14-dev holds
# libFuzzer's runtime (only recommended by clang, so named here).
PKGS_SLURM="
cmake
slurmctld
slurmd
slurm-client
munge
"
# The Slurm test (tb/regress/slurm/test_slurm.sh): a one-node cluster on
# localhost, controller, node daemon and sbatch/squeue, with munge for
# their authentication; cmake: ctest runs each shard.

PKGS_COV="
lcov
"
# lcov: make coverage's HTML (genhtml) of the RTL's and the C code's counts.

want="$PKGS_BUILD"
case "${1:-build}" in
build) ;;
test) want="$want $PKGS_TEST" ;;
bench) want="$want $PKGS_TEST $PKGS_BENCH" ;;
fuzz) want="$want $PKGS_FUZZ" ;;
slurm) want="$want $PKGS_SLURM" ;;
coverage) want="$want $PKGS_TEST $PKGS_COV" ;;
*) echo "usage: $0 [build|test|bench|fuzz|slurm|coverage]" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing Debian packages:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "deps: done"
