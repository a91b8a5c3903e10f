#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_views - every signal a GTKWave view names exists in a gpusim dump.

Usage: tb/check_views.py DUMP.fst VIEW.gtkw...

Reads the dump's signal list (the header fst2vcd prints, up to
$enddefinitions) and each view's signal lines, and fails naming every signal
a view shows that the dump does not have: a view that refers to a renamed
or removed signal shows an empty row in GTKWave, silently.  A bit of a
vector, (N)TOP.a.v[7:0] (N counting from the MSB, GTKWave's own form), is
there when the vector is and N is within it: a field of a packed struct is
shown as its bits, #{name} (N)v[msb:lsb] ... (M)v[msb:lsb].  Exit 0 when
all exist, 1 otherwise, 2 on a usage error or an unreadable dump.
"""
import re
import subprocess
import sys


def dump_signals(path):
    """Full names (TOP.a.b.sig, with [msb:lsb] when a vector) of @path."""
    names, scope = set(), []
    with subprocess.Popen(["fst2vcd", path], stdout=subprocess.PIPE, text=True) as p:
        for line in p.stdout:
            w = line.split()
            if not w:
                continue
            if w[0] == "$scope":
                scope.append(w[2])
            elif w[0] == "$upscope":
                scope.pop()
            elif w[0] == "$var":
                rng = w[5] if len(w) > 6 and w[5].startswith("[") else ""
                names.add(".".join(scope + [w[4]]) + rng)
            elif w[0] == "$enddefinitions":
                p.kill()
                break
    return names


def present(sig, have):
    """@sig is in the dump: a signal of @have, or a bit (N) of a vector in it."""
    m = re.fullmatch(r"\((\d+)\)(.*\[(\d+):(\d+)\])", sig)
    if m:
        return m.group(2) in have and int(m.group(1)) <= abs(int(m.group(3)) - int(m.group(4)))
    return sig in have


def view_signals(path):
    """The signal names @path shows, with their line numbers."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line[0] in "[*@-^":
                continue
            if line.startswith("#{"):  # a concatenation: #{name} sig sig ...
                out += [(n, s) for s in line.split("}", 1)[1].split()]
            else:
                out.append((n, line))
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    have = dump_signals(sys.argv[1])
    if not have:
        print("check_views: no signals in %s" % sys.argv[1], file=sys.stderr)
        return 2
    bad = 0
    for view in sys.argv[2:]:
        shown = view_signals(view)
        missing = [(n, s) for n, s in shown if not present(s, have)]
        for n, sig in missing:
            print("%s:%d: %s is not in the dump" % (view, n, sig))
        bad += len(missing)
        print("check_views: %s: %d signals, %d missing" % (view, len(shown), len(missing)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
