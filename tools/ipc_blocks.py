#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ipc_blocks.py - host instructions per simulated cycle, by RTL block.

Usage: tools/ipc_blocks.py CALLGRIND_OUT CYCLES [BLOCK_REGEX MIN]   (make bench-blocks)

CALLGRIND_OUT is a callgrind file of a model built with -g (make bench-blocks
builds one: build-prof/, no SystemC, no trace) collected with
--toggle-collect=gm_tick; CYCLES is the run's simulated cycles.

Verilator 5.006 puts the whole model into a few functions (nba_sequent...),
so a per-function profile says nothing about which block costs what.  This
reads callgrind_annotate's per-line counts of the generated C++ instead and
charges each line to the block whose signal it names first
(gpu_top__DOT__u_ce__DOT__... is u_ce; a name of gpu_top itself is "top");
a line naming no signal (a brace, a continuation) goes to the block of the
line before it, and "?" holds what comes before any name in a function
(the evaluation loop, its triggers, each function's entry).  Lines that only call another function are skipped:
the callee's own lines are counted.  The split is approximate at block
boundaries; the total is exact.

With BLOCK_REGEX and MIN it lists instead the generated lines of the blocks
matching BLOCK_REGEX that cost at least MIN instructions a cycle.
"""
import collections
import signal
import re
import subprocess
import sys

BLOCK = re.compile(r'gpu_top__DOT__((?:g_queue__BRA__\d__KET____DOT__)?u_[A-Za-z0-9]+(?:_[a-z]+)?)__DOT__')
LINE = re.compile(r'^\s*([0-9,]+|\.)  (.*)$')  # count, two spaces, the code
SOURCE = re.compile(r'^-- Auto-annotated source: (.*)')
FUNC = re.compile(r'^(?:VL_INLINE_OPT |static )?void \w+\(')


def block_name(raw):
    """u_queue under g_queue[1] reads better as queue1."""
    m = re.match(r'g_queue__BRA__(\d)__KET____DOT__u_queue$', raw)
    return 'u_queue%s' % m.group(1) if m else raw


def lines(path):
    """(block, instructions, code) for every counted line of generated code."""
    out = subprocess.run(['callgrind_annotate', '--auto=yes', '--show-percs=no',
                          '--context=1000000', path],
                         capture_output=True, text=True, check=True).stdout
    src, cur = None, '?'
    for text in out.splitlines():
        m = SOURCE.match(text)
        if m:
            src, cur = m.group(1), '?'
            continue
        if not src or 'DepSet' not in src:
            continue
        m = LINE.match(text)
        if not m or m.group(2).lstrip().startswith('=>') or 'events annotated' in m.group(2):
            continue
        code = m.group(2)
        if FUNC.match(code):  # a function's first line: nobody's block yet
            cur = '?'
        names = BLOCK.findall(code)
        if names:
            cur = block_name(names[0])
        elif 'gpu_top__DOT__' in code:
            cur = 'top'
        if m.group(1) != '.':
            yield cur, int(m.group(1).replace(',', '')), code


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head
    if len(argv) not in (3, 5):
        sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
        return 2
    path, cycles = argv[1], float(argv[2])
    if len(argv) == 5:
        pat, least = re.compile(argv[3]), float(argv[4])
        for blk, n, code in lines(path):
            if pat.search(blk) and n / cycles >= least:
                print('%7.1f  %-8s %s' % (n / cycles, blk, code.strip()[:140]))
        return 0
    per = collections.Counter()
    for blk, n, _ in lines(path):
        per[blk] += n
    for blk, n in per.most_common():
        print('  %-10s %7.0f' % (blk, n / cycles))
    print('  %-10s %7.0f  (generated code; the rest of a cycle is gm.c and the pins)'
          % ('total', sum(per.values()) / cycles))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
