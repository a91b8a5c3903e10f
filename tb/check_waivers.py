#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_waivers - lint waivers live in the waiver files, each with a reason.

Usage: tb/check_waivers.py [--self-test]   (run from the repository root)

The RTL is -Wall clean under Verilator with waivers only in a waiver file,
each with a reason (rtl/lint/, `make lint`).  `make lint` proves the first
half; this fails, naming file and line, on
  - a `verilator lint_off` (or `lint_off` pragma) in an RTL source
    (rtl/**/*.sv, *.svh): waivers belong in rtl/lint/*.vlt;
  - a lint_off in a .vlt whose rule the file's comments do not name (the
    comments are the reasons: each rule waived is explained there).
--self-test also checks that broken copies fail.  Exit 0 when clean, 1
otherwise.
"""
import glob
import os
import re
import sys


def check_source(name, text):
    return ["%s:%d: a lint waiver in an RTL source (put it in rtl/lint/*.vlt with a reason)"
            % (name, n) for n, line in enumerate(text.splitlines(), 1)
            if re.search(r"\b(verilator|lint)\b.*\blint_off\b|/\*\s*verilator\s+lint_off", line)]


def check_vlt(name, text):
    errs = []
    comments = " ".join(re.findall(r"//([^\n]*)", text))
    comments += " ".join(re.findall(r"/\*(.*?)\*/", text, re.S))
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("//"):
            continue
        m = re.search(r"\blint_off\b(?:.*?-rule\s+(\w+))?", line)
        if not m:
            continue
        if not m.group(1):
            errs.append("%s:%d: a lint_off without -rule (waives every warning)" % (name, n))
        elif not re.search(r"\b%s\b" % m.group(1), comments):
            errs.append("%s:%d: lint_off -rule %s, but no comment of the file gives its reason"
                        % (name, n, m.group(1)))
    return errs


def self_test():
    good = ("// UNUSEDSIGNAL x_i: observed only.\n`verilator_config\n"
            "lint_off -rule UNUSEDSIGNAL -file \"*a.sv\" -match \"*'x_i'*\"\n")
    bad = []
    if check_vlt("good.vlt", good):
        bad.append("self-test: a waiver with its reason fails")
    if not check_vlt("bad.vlt", good.replace("UNUSEDSIGNAL x_i", "x_i")):
        bad.append("self-test: a waiver without a reason passes")
    if not check_vlt("bad.vlt", good + "lint_off -file \"*\"\n"):
        bad.append("self-test: a waiver of every rule passes")
    if not check_source("bad.sv", "  // verilator lint_off WIDTH\n"):
        bad.append("self-test: a waiver in an RTL source passes")
    if check_source("good.sv", "  // the lint is clean\n"):
        bad.append("self-test: a source without waivers fails")
    return bad


def main(argv):
    if any(a != "--self-test" for a in argv[1:]):
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    srcs = sorted(glob.glob(os.path.join(root, "rtl", "**", "*.sv"), recursive=True) +
                  glob.glob(os.path.join(root, "rtl", "**", "*.svh"), recursive=True))
    vlts = sorted(glob.glob(os.path.join(root, "rtl", "**", "*.vlt"), recursive=True))
    errs, waivers = [], 0
    for f in srcs + vlts:
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        name = os.path.relpath(f, root)
        if f.endswith(".vlt"):
            waivers += len(re.findall(r"^\s*lint_off\b", text, re.M))
            errs += check_vlt(name, text)
        else:
            errs += check_source(name, text)
    if "--self-test" in argv[1:]:
        errs += self_test()
    for e in errs:
        print(e, file=sys.stderr)
    print("check_waivers: %d RTL sources without waivers, %d waivers in %d files%s%s"
          % (len(srcs), waivers, len(vlts), ", %d problems" % len(errs) if errs else
             ", each rule explained", "; self-test passed" if "--self-test" in argv[1:]
             and not errs else ""))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
