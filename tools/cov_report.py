#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cov_report.py - line and toggle coverage per RTL source file (one module
each; rtl/gpu_defs.svh holds the generated functions every module includes)
from a Verilator coverage file (make coverage).

    python3 tools/cov_report.py build-cov/coverage.dat [--uncovered]

A point counts once however many instances and including modules it has
(the two cp_queue instances, a gpu_defs.svh function compiled into several
modules): it is covered when any of them hit it.  Line coverage is
Verilator's v_line and v_branch points, toggle coverage its v_toggle points.
With --uncovered, each file's uncovered lines are listed.

Then every cover point of the RTL (its v_user points: `c_*: cover`), in
source order, with its count summed over the instances (both cp_queue
instances, both ce_walk walkers) and "NOT HIT" when that is 0.
"""
import collections
import re
import sys


DEFS = "rtl/gpu_defs.svh"


def points(path):
    """Yield (fields, count) for every point of a coverage.dat file."""
    with open(path, encoding="latin-1") as f:
        for line in f:
            m = re.match(r"^C '(.*)' (\d+)\s*$", line)
            if not m:
                continue
            fields = {}
            for part in m.group(1).split("\x01"):
                if "\x02" in part:
                    k, v = part.split("\x02", 1)
                    fields[k] = v
            yield fields, int(m.group(2))


def ranges(nums):
    """'3-5,9' from [3, 4, 5, 9]."""
    out, nums = [], sorted(set(nums))
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        out.append(str(nums[i]) if i == j else "%d-%d" % (nums[i], nums[j]))
        i = j + 1
    return ",".join(out)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    hit = {}  # (module, kind, file, line, column, comment) -> covered
    covers = {}  # (file, line, label) -> count over the instances
    for fields, count in points(argv[1]):
        page = fields.get("page", "")
        if "/" not in page:
            continue
        kind, module = page.split("/", 1)
        if kind == "v_user":
            key = (fields.get("f", "?"), int(fields.get("l", "0")), fields.get("o", "?"))
            covers[key] = covers.get(key, 0) + count
            continue
        kind = {"v_line": "line", "v_branch": "line", "v_toggle": "toggle"}.get(kind)
        if not kind:
            continue
        fname = fields.get("f", "?")
        module = fname  # one module per file, and the shared functions
        key = (module, kind, fname, int(fields.get("l", "0")), fields.get("n", ""),
               fields.get("o", ""))
        hit[key] = hit.get(key, False) or count > 0
    tot = collections.defaultdict(lambda: [0, 0, 0, 0])  # line hit, line all, toggle hit, all
    unc = collections.defaultdict(list)
    for (module, kind, fname, line, _, _), covered in hit.items():
        t = tot[module]
        i = 0 if kind == "line" else 2
        t[i] += covered
        t[i + 1] += 1
        if kind == "line" and not covered:
            unc[module].append((fname, line))
    print("%-22s %20s %20s" % ("file", "line", "toggle"))
    sums = [0, 0, 0, 0]
    for module in sorted(tot):
        t = tot[module]
        sums = [a + b for a, b in zip(sums, t)]
        print("%-22s %6d/%-6d %5.1f%% %6d/%-6d %5.1f%%" % (
            module, t[0], t[1], 100.0 * t[0] / max(t[1], 1), t[2], t[3], 100.0 * t[2] / max(t[3], 1)))
    print("%-22s %6d/%-6d %5.1f%% %6d/%-6d %5.1f%%" % (
        "total", sums[0], sums[1], 100.0 * sums[0] / max(sums[1], 1), sums[2], sums[3],
        100.0 * sums[2] / max(sums[3], 1)))
    # Verilator instruments every function of the generated package in each
    # module that includes it, called there or not (opcode_legal is called
    # nowhere): the design's own lines are the total without that file.
    d = [a - b for a, b in zip(sums, tot.get(DEFS, [0, 0, 0, 0]))]
    print("%-22s %6d/%-6d %5.1f%% %6d/%-6d %5.1f%%" % (
        "total w/o " + DEFS.split("/")[-1], d[0], d[1], 100.0 * d[0] / max(d[1], 1), d[2], d[3],
        100.0 * d[2] / max(d[3], 1)))
    if "--uncovered" in argv:
        for module in sorted(unc):
            files = collections.defaultdict(list)
            for fname, line in unc[module]:
                files[fname].append(line)
            for fname, lines in sorted(files.items()):
                print("uncovered %s: %s" % (fname, ranges(lines)))
    if covers:
        hits = sum(1 for c in covers.values() if c)
        print("cover points: %d of %d hit" % (hits, len(covers)))
        for (fname, line, label), count in sorted(covers.items()):
            print("  %-28s %-18s %10d%s" % (label, "%s:%d" % (fname, line), count,
                                            "" if count else "  NOT HIT"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
