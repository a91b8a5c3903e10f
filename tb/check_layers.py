#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_layers - the C layers include only downwards (hw/README.md).

Usage: tb/check_layers.py [--self-test]   (run from the repository root)

Every #include "x.h" of a C or C++ source is resolved to the folder that
holds x.h, and the including folder must be allowed to use it:

  hw/            the hardware facts: itself, and model/gm_status.h only
  dma/           hw/ (and gm_status.h)
  mmu/           dma/, hw/
  model/         hw/ (model/ref/ included: it no longer reaches into dma/)
  fw/            mmu/, dma/, model/, hw/
  tools/         fw/, mmu/, dma/, model/, hw/ (what gpusim ships: no tb/)
  tb/            anything (the tests are the top layer)

A header found in no folder of the repository (system, Verilator, cmocka,
generated into build/) is not checked.  Fails naming file, line and the
include; --self-test also checks that a broken tree fails.  Exit 0 when
clean, 1 otherwise.
"""
import glob
import os
import re
import sys

# folder -> the folders it may include from (besides itself)
ALLOWED = {
    "hw": {"model/gm_status.h"},
    "dma": {"hw", "model/gm_status.h"},
    "mmu": {"dma", "hw", "model/gm_status.h"},
    "model": {"hw"},
    "fw": {"mmu", "dma", "model", "hw"},
    "tools": {"fw", "mmu", "dma", "model", "hw"},
    "tb": None,  # anything
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer(rel):
    """The layer (top-level folder) of the repository path @rel."""
    return rel.split("/", 1)[0]


def check(files):
    """@files: {relative path: text}.  The list of violations."""
    where = {}
    for rel in files:
        where.setdefault(os.path.basename(rel), []).append(rel)
    errs = []
    for rel, text in sorted(files.items()):
        src = layer(rel)
        if src not in ALLOWED or ALLOWED[src] is None:
            continue
        for m in INCLUDE.finditer(text):
            n = text.count("\n", 0, m.start()) + 1
            same_dir = os.path.join(os.path.dirname(rel), m.group(1))
            hits = [same_dir] if same_dir in files else where.get(os.path.basename(m.group(1)), [])
            for hdr in hits:
                dst = layer(hdr)
                if dst == src or dst in ALLOWED[src] or hdr in ALLOWED[src]:
                    continue
                errs.append('%s:%d: #include "%s": %s/ may not use %s (%s/ is above it)'
                            % (rel, n, m.group(1), src, hdr, dst))
    return errs


def tree(root):
    files = {}
    for top in ALLOWED:
        for ext in ("c", "h", "cpp", "hpp"):
            for path in glob.glob(os.path.join(root, top, "**", "*." + ext), recursive=True):
                with open(path, encoding="utf-8") as f:
                    files[os.path.relpath(path, root)] = f.read()
    return files


def self_test():
    good = {"hw/gpu_tile.h": '#include "gm_status.h"\n', "model/gm_status.h": "",
            "model/ref/ref_apt.c": '#include "gpu_tile.h"\n', "dma/dma_buf.h": "",
            "tb/unit/t.c": '#include "scen.h"\n', "tools/scen/scen.h": '#include "dma_buf.h"\n'}
    bad = []
    if check(good):
        bad.append("self-test: a tree that includes downwards fails")
    broken = dict(good)
    broken["model/ref/ref_apt.c"] += '#include "dma_buf.h"\n'
    if not check(broken):
        bad.append("self-test: model/ref including dma/ passes")
    broken = dict(good)
    broken["tools/scen/scen.h"] += '#include "tb_seed.h"\n'
    broken["tb/tb_seed.h"] = ""
    if not check(broken):
        bad.append("self-test: tools/ including tb/ passes")
    broken = dict(good)
    broken["hw/gpu_tile.h"] += '#include "gm.h"\n'
    broken["model/gm.h"] = ""
    if not check(broken):
        bad.append("self-test: hw/ including model/ beyond gm_status.h passes")
    return bad


def main(argv):
    errs = check(tree("."))
    if "--self-test" in argv:
        errs += self_test()
    for e in errs:
        print(e)
    if errs:
        print("check_layers: %d include(s) point upwards" % len(errs))
        return 1
    print("check_layers: every include points down (hw/README.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
