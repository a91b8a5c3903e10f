#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_views - every signal a GTKWave view names exists in a gpusim dump.

Usage: tb/check_views.py DUMP.fst VIEW.gtkw... [--mark NAME SIGNAL]...

Reads the dump's signal list (the header fst2vcd prints, up to
$enddefinitions) and each view's signal lines, and fails naming every signal
a view shows that the dump does not have: a view that refers to a renamed
or removed signal shows an empty row in GTKWave, silently.  A bit of a
vector, (N)TOP.a.v[7:0] (N counting from the MSB, GTKWave's own form), is
there when the vector is and N is within it: a field of a packed struct is
shown as its bits, #{name} (N)v[msb:lsb] ... (M)v[msb:lsb].

--mark NAME SIGNAL: each named marker of each view whose name begins with
NAME, and each event the view lists ("[*] event PS NAME", before markers
are merged), sits on a dump time where SIGNAL takes a new nonzero value (a
1-bit latch rising, a counter counting: an error's marker on the cycle its
latch took it, not where the driver noticed); fails when none has the name
or one is elsewhere, naming both times.

Exit 0 when all hold, 1 otherwise, 2 on a usage error or an unreadable dump.
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


def rises(path, signal):
    """The dump times (ps) at which @signal of @path takes a new nonzero value."""
    scope, ident, out, t, last = [], None, [], 0, None
    with subprocess.Popen(["fst2vcd", path], stdout=subprocess.PIPE, text=True) as p:
        for line in p.stdout:
            w = line.split()
            if not w:
                continue
            if ident is None:
                if w[0] == "$scope":
                    scope.append(w[2])
                elif w[0] == "$upscope":
                    scope.pop()
                elif w[0] == "$var" and ".".join(scope + [w[4]]) + (
                        w[5] if len(w) > 6 and w[5].startswith("[") else "") == signal:
                    ident = w[3]
                elif w[0] == "$enddefinitions":
                    p.kill()
                    return None
            elif line[0] == "#":
                t = int(line[1:])
            else:
                if line[0] in "01" and line[1:].strip() == ident:
                    v = int(line[0])
                elif line[0] == "b" and len(w) == 2 and w[1] == ident and "x" not in w[0]:
                    v = int(w[0][1:], 2)
                else:
                    continue
                if v and v != last:
                    out.append(t)
                last = v
    return out


def view_marks(path):
    """[(name, time (ps))] of the named markers and listed events of view @path."""
    times, names, events = [], {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("*"):
                times = [int(x) for x in line.split()[2:]]
            elif line.startswith("[markername] "):
                names[line[len("[markername] ") + 1:].rstrip("\n")] = ord(line[13]) - ord("A")
            elif line.startswith("[*] event "):
                w = line.rstrip("\n").split(" ", 3)
                events.append((w[3], int(w[2])))
    return [(n, times[i]) for n, i in names.items() if i < len(times)] + events


def check_mark(dump, view, prefix, signal):
    """0 when a marker of @view named @prefix... sits on a rise of @signal."""
    at = [t for n, t in view_marks(view) if n.startswith(prefix)]
    edges = rises(dump, signal)
    if edges is None:
        print("%s: --mark: %s is not in the dump" % (view, signal))
        return 1
    if not at:
        print("%s: no marker named %s..." % (view, prefix))
        return 1
    bad = [t for t in at if t not in edges]
    for t in bad:
        print("%s: marker %s... at %d ps (cycle %d), but %s takes a new value at %s" %
              (view, prefix, t, t // 1000, signal, ", ".join(str(e) for e in edges) or "no time"))
    if not bad:
        print("check_views: %s: marker %s... at cycle %s, where %s takes a new value" %
              (view, prefix, ", ".join(str(t // 1000) for t in at), signal))
    return 1 if bad else 0


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
    args, marks = sys.argv[1:], []
    while "--mark" in args:
        i = args.index("--mark")
        if len(args) < i + 3:
            print(__doc__.strip().splitlines()[2], file=sys.stderr)
            return 2
        marks.append((args[i + 1], args[i + 2]))
        del args[i:i + 3]
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    have = dump_signals(args[0])
    if not have:
        print("check_views: no signals in %s" % args[0], file=sys.stderr)
        return 2
    bad = 0
    for view in args[1:]:
        for prefix, signal in marks:
            bad += check_mark(args[0], view, prefix, signal)
        shown = view_signals(view)
        missing = [(n, s) for n, s in shown if not present(s, have)]
        for n, sig in missing:
            print("%s:%d: %s is not in the dump" % (view, n, sig))
        bad += len(missing)
        print("check_views: %s: %d signals, %d missing" % (view, len(shown), len(missing)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
