#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_roles - the driver's roles (fw/) depend on each other one way.

Usage: tb/check_roles.py [--root DIR] [-v] [--self-test]
       (run from the repository root; CTest runs it as check_roles)

The driver is split by WDDM role: the user-mode driver (fw/umd/), the
pipeline that brings the roles up and links them (fw/dxgkrnl/), the video
memory manager's roles (fw/vidmm/: segments and allocations, paging, Lock,
GPU-VA), the scheduler's roles (fw/vidsch/: submission scheduling and TDR,
monitored fences) and the miniport (fw/kmd/: device bring-up, Render, Patch,
SubmitCommand and BuildPagingBuffer, the objects the roles pass each other).
ROLES below names each role's files by their file name, so the check reads
the flat fw/ of older trees as well (--root).

Every `#include "x.h"` of a file of role A naming a header of role B != A is
an arrow A -> B (a role calls another only through its header, so the arrows
of the includes hold the arrows of the calls).  The script prints the role
graph (and, with -v, the include lines behind each arrow), then the graph of
the folders, and fails, naming the roles of the circle and the include lines
that close it, when the role graph has a circle.  It also fails on a file of
fw/ that no role claims, so a new file has to be placed.  Headers outside
fw/ (model/, dma/, mmu/) are below every role and not drawn.

--self-test also checks that a planted circle (the lowest role including the
highest role's header) fails naming that circle, and that an unclaimed file
fails.  Exit 0 when the graph has no circle, 1 when it has, 2 on a usage
error.
"""
import fnmatch
import glob
import os
import re
import sys

# (role, folder, file-name patterns), from the top (clients) down.  A file
# belongs to the first role whose pattern matches its name.
ROLES = [
    ("umd", "umd", ["umd*.[ch]", "fw_umd.[ch]"]),
    ("dxgkrnl.pipeline", "dxgkrnl", ["fw_kmd.[ch]"]),
    ("vidmm.lock", "vidmm", ["fw_lock*.[ch]"]),
    ("vidmm.gpuva", "vidmm", ["fw_gpuva*.[ch]"]),
    ("vidmm.paging", "vidmm", ["fw_paging.[ch]", "fw_paging_recover.c"]),
    ("vidsch.sched", "vidsch", ["fw_sched*.[ch]"]),
    ("vidsch.mfence", "vidsch", ["fw_mfence*.[ch]"]),
    ("kmd.submit", "kmd", ["fw_submit*.[ch]", "fw_pagingbuf.[ch]"]),
    ("kmd.render", "kmd", ["fw_render*.[ch]"]),
    ("kmd.types", "kmd", ["fw_kmd_types.h"]),
    ("vidmm.alloc", "vidmm", ["fw_mem.[ch]", "fw_adapter.c", "fw_res.[ch]", "fw_residency.[ch]"]),
    ("kmd.dev", "kmd", ["fw_dev.[ch]", "fw_vm.[ch]"]),
]

INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.M)


def role_of(name):
    """(role, folder) of file name @name, or None."""
    for role, folder, pats in ROLES:
        if any(fnmatch.fnmatch(name, p) for p in pats):
            return role, folder
    return None


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def read_tree(root):
    """{path relative to root: text} of every .c/.h under root/fw."""
    out = {}
    for path in sorted(glob.glob(os.path.join(root, "fw", "**", "*.[ch]"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            out[os.path.relpath(path, root)] = f.read()
    return out


def graph(files):
    """(edges, errors): edges {(role A, role B): [(file, line, header)]} of the
    includes between roles; errors: files no role claims."""
    errors, edges = [], {}
    for path, text in files.items():
        r = role_of(os.path.basename(path))
        if r is None:
            errors.append(f"{path}: no role of tb/check_roles.py ROLES claims this file")
            continue
        body = strip_comments(text)
        for m in INCLUDE_RE.finditer(body):
            h = role_of(os.path.basename(m.group(1)))
            if h is None or h[0] == r[0]:
                continue
            line = body.count("\n", 0, m.start()) + 1
            edges.setdefault((r[0], h[0]), []).append((path, line, m.group(1)))
    return edges, errors


def circles(edges):
    """The strongly connected components of more than one role (Tarjan), each
    as a list of roles, and for each one circle through them."""
    succ = {}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
        succ.setdefault(b, [])
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp, key=order))
    for v in sorted(succ, key=order):
        if v not in index:
            visit(v)
    out = []
    for comp in comps:
        out.append((comp, one_circle(comp, succ)))
    return out


def one_circle(comp, succ):
    """A circle through the first role of @comp, inside @comp (breadth first)."""
    start, inside = comp[0], set(comp)
    prev, todo = {start: None}, [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(succ[v], key=order):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in inside and w not in prev:
                prev[w] = v
                todo.append(w)
    return comp


def order(role):
    names = [r for r, _, _ in ROLES]
    return names.index(role) if role in names else len(names)


def folder(role):
    return next((f for r, f, _ in ROLES if r == role), "?")


def report(edges, errors, verbose, out):
    """Print the graphs; return the number of problems."""
    out.write("role graph (A -> B: a file of A includes a header of B):\n")
    for role, fold, _ in ROLES:
        to = sorted({b for a, b in edges if a == role}, key=order)
        out.write(f"  {role:16} ({fold}/) -> {', '.join(to) if to else '-'}\n")
        if verbose:
            for b in to:
                for path, line, h in edges[(role, b)]:
                    out.write(f"      {path}:{line}: #include \"{h}\"\n")
    layers = {}
    for a, b in edges:
        if folder(a) != folder(b):
            layers.setdefault(folder(a), set()).add(folder(b))
    out.write("folder graph: " + "; ".join(f"{a} -> {', '.join(sorted(layers[a]))}"
                                            for a in sorted(layers)) + "\n")
    problems = len(errors)
    for e in errors:
        out.write(f"error: {e}\n")
    for comp, circ in circles(edges):
        problems += 1
        out.write(f"error: circle of {len(comp)} roles ({', '.join(comp)}), "
                  f"for one: {' -> '.join(circ)}; the arrows among them:\n")
        for a in comp:
            for b in comp:
                if (a, b) not in edges:
                    continue
                path, line, h = edges[(a, b)][0]
                more = len(edges[(a, b)]) - 1
                out.write(f"    {a} -> {b}: {path}:{line}: #include \"{h}\""
                          + (f" (and {more} more)" if more else "") + "\n")
    if not problems:
        out.write("no circle between roles\n")
    return problems


class Sink:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s


def self_test(files):
    """Planted faults fail with their own message; returns a list of failures."""
    bad = []
    top, bottom = ROLES[0], ROLES[-1]
    top_h = next(p for p in files if role_of(os.path.basename(p)) and
                 role_of(os.path.basename(p))[0] == top[0] and p.endswith(".h"))
    low_c = next(p for p in files if role_of(os.path.basename(p)) and
                 role_of(os.path.basename(p))[0] == bottom[0] and p.endswith(".c"))
    planted = dict(files)
    planted[low_c] = f'#include "{os.path.basename(top_h)}"\n' + planted[low_c]
    s = Sink()
    if not report(*graph(planted), False, s) or \
            not re.search(r"error: circle of \d+ roles \([^)]*%s" % re.escape(bottom[0]), s.text) or \
            f"{low_c}:1: #include" not in s.text:
        bad.append(f"a planted #include of {top_h} in {low_c} did not fail as a circle:\n{s.text}")
    stray = dict(files)
    stray["fw/kmd/stray.c"] = "int x;\n"
    s = Sink()
    if not report(*graph(stray), False, s) or "fw/kmd/stray.c: no role" not in s.text:
        bad.append("an unclaimed file did not fail")
    commented = dict(files)
    commented[low_c] = f'/* #include "{os.path.basename(top_h)}" */\n' + commented[low_c]
    if graph(commented)[0] != graph(files)[0]:
        bad.append("an #include inside a comment was read as an arrow")
    return bad


def main(argv):
    root, verbose, selftest = ".", False, False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--root" and args:
            root = args.pop(0)
        elif a == "-v":
            verbose = True
        elif a == "--self-test":
            selftest = True
        else:
            sys.stderr.write(__doc__)
            return 2
    files = read_tree(root)
    if not files:
        sys.stderr.write(f"check_roles: no fw/ sources under {root}\n")
        return 2
    problems = report(*graph(files), verbose, sys.stdout)
    if selftest:
        for b in self_test(files):
            print(f"self-test: {b}")
            problems += 1
        if not problems:
            print("self-test: a planted circle and an unclaimed file fail")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
