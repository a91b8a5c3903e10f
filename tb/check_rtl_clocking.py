#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_rtl_clocking - the RTL has one clock and a synchronous active-low reset.

Usage: tb/check_rtl_clocking.py [--self-test] [FILE.sv...]
       (default: every rtl/**/*.sv; run from the repository root)

The RTL has a single clock domain and a synchronous active-low reset (the
rule of rtl/, house style).  Lint and synthesis pass either way, so this
reads the sources (comments removed) and fails, naming file and line, on
  - a sequential block that is not `always_ff @(posedge clk_i)`: another
    clock, a negedge, a reset in the sensitivity list (asynchronous), a
    plain `always @(...)` or an `always_latch`;
  - an always_ff that uses rst_ni other than as `if (!rst_ni)` (blocks in
    `ifndef SYNTHESIS, the assertions, may guard on rst_ni; storage without
    reset is allowed), or a module with sequential logic and no such reset;
  - a module with sequential logic but no `clk_i` / `rst_ni` input, or with
    another input named like a clock or a reset;
  - an instance connecting .clk_i or .rst_ni to anything but clk_i / rst_ni
    (no derived clocks or resets).
--self-test also checks that broken copies of a module fail.  Exit 0 when
clean, 1 otherwise, 2 on a usage error.
"""
import glob
import os
import re
import sys


def strip_comments(text):
    """@text without // and /* */ comments, line breaks kept."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def block_body(text, start):
    """The text of the begin ... end block that starts at or after @start."""
    m = re.compile(r"\bbegin\b").search(text, start)
    if not m:
        return ""
    depth, pos = 0, m.start()
    for t in re.finditer(r"\b(begin|end)\b", text[pos:]):
        depth += 1 if t.group(1) == "begin" else -1
        if depth == 0:
            return text[pos:pos + t.end()]
    return text[pos:]


def in_ranges(pos, ranges):
    return any(a <= pos < b for a, b in ranges)


def splice_includes(raw, inc_dir):
    """@raw with each `include of a file under @inc_dir (the -I directory:
    gpu_top's generated port list) spliced in on the include's own line, its
    comments stripped and its lines joined, so the line numbers stay the file's.
    A macro's definition is left out (prim_assert.svh's bodies name their
    clock as a parameter, __clk, whose default is clk_i): it is not code
    until used, and a use names no always_ff of its own."""
    def splice(m):
        path = os.path.join(inc_dir, m.group(1))
        if not os.path.isfile(path):
            return m.group(0)
        with open(path, encoding="utf-8") as fh:
            text = strip_comments(fh.read())
        text = re.sub(r"`define(?:[^\n]*\\\n)*[^\n]*", "", text)
        return " ".join(text.split("\n"))
    return re.sub(r'`include\s+"([^"]+)"', splice, raw)


def check_text(name, raw):
    errs = []
    text = strip_comments(raw)
    sim_only = [(a.start(), (re.compile(r"`endif\b").search(text, a.end()) or a).end())
                for a in re.finditer(r"`ifndef\s+SYNTHESIS\b", text)]
    for m in re.finditer(r"\balways(_ff|_latch|_comb)?\b\s*(@\s*\(([^)]*)\))?", text):
        kind, sens = m.group(1), m.group(3)
        where = "%s:%d" % (name, line_of(text, m.start()))
        if kind == "_comb":
            continue
        if kind != "_ff" or sens is None or " ".join(sens.split()) != "posedge clk_i":
            errs.append("%s: %s is not `always_ff @(posedge clk_i)` (one clock, synchronous "
                        "reset)" % (where, " ".join(m.group(0).split())))
            continue
        body = block_body(text, m.end())
        if in_ranges(m.start(), sim_only) or not re.search(r"\brst_ni\b", body):
            continue  # assertions; storage without reset
        if not re.search(r"\bif\s*\(\s*!\s*rst_ni\s*\)", body):
            errs.append("%s: always_ff uses rst_ni but not as `if (!rst_ni)` (active-low reset)"
                        % where)
    for m in re.finditer(r"\bmodule\s+(\w+)(.*?)\bendmodule\b", text, re.S):
        mod, body = m.group(1), m.group(2)
        where = "%s:%d" % (name, line_of(text, m.start()))
        inputs = re.findall(r"\binput\b[^;,)]*?(\w+)\s*(?:\[[^\]]*\]\s*)*[,)\n]", body)
        if re.search(r"\balways_ff\b", body):
            if not re.search(r"\bif\s*\(\s*!\s*rst_ni\s*\)", body):
                errs.append("%s: module %s has sequential logic and no `if (!rst_ni)` reset"
                            % (where, mod))
            for port in ("clk_i", "rst_ni"):
                if port not in inputs:
                    errs.append("%s: module %s has sequential logic but no input %s"
                                % (where, mod, port))
        for port in inputs:
            if port not in ("clk_i", "rst_ni") and re.search(r"(^|_)(clk|clock|rst|reset)", port):
                errs.append("%s: module %s has another clock or reset input %s"
                            % (where, mod, port))
    for m in re.finditer(r"\.(clk_i|rst_ni)\s*\(\s*([^)]*?)\s*\)", text):
        if m.group(2) != m.group(1):
            errs.append("%s:%d: .%s(%s): a derived clock or reset"
                        % (name, line_of(text, m.start()), m.group(1), m.group(2)))
    return errs


GOOD = """module m (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic d_i
);
  logic q_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      q_q <= 1'b0;
    end else begin
      q_q <= d_i;
    end
  end
  sub u_sub (.clk_i(clk_i), .rst_ni(rst_ni));
endmodule
"""

BROKEN = {
    "a negedge clock": ("@(posedge clk_i)", "@(negedge clk_i)"),
    "an asynchronous reset": ("@(posedge clk_i)", "@(posedge clk_i or negedge rst_ni)"),
    "another clock": ("@(posedge clk_i)", "@(posedge clk2_i)"),
    "an active-high reset": ("if (!rst_ni)", "if (rst_ni)"),
    "a plain always": ("always_ff @(posedge clk_i)", "always @(posedge clk_i)"),
    "a latch": ("always_ff @(posedge clk_i)", "always_latch"),
    "a second clock input": ("input  logic d_i", "input  logic clk_b_i"),
    "no reset input": ("input  logic rst_ni,", ""),
    "a derived clock": (".clk_i(clk_i)", ".clk_i(clk_div)"),
}


def self_test():
    bad = []
    if check_text("good.sv", GOOD):
        bad.append("self-test: the good module fails: %s" % check_text("good.sv", GOOD))
    for what, (old, new) in BROKEN.items():
        if not check_text("broken.sv", GOOD.replace(old, new)):
            bad.append("self-test: a module with %s passes" % what)
    return bad


def main(argv):
    args = argv[1:]
    selftest = "--self-test" in args
    files = [a for a in args if a != "--self-test"]
    if any(f.startswith("-") for f in files):
        print(__doc__, file=sys.stderr)
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not files:
        files = sorted(glob.glob(os.path.join(root, "rtl", "**", "*.sv"), recursive=True))
    errs, nff = [], 0
    for f in files:
        try:
            with open(f, encoding="utf-8") as fh:
                raw = fh.read()
        except OSError as e:
            print("check_rtl_clocking: %s" % e, file=sys.stderr)
            return 2
        raw = splice_includes(raw, os.path.join(root, "rtl"))
        nff += len(re.findall(r"\balways_ff\b", strip_comments(raw)))
        errs += check_text(os.path.relpath(f, root), raw)
    if selftest:
        errs += self_test()
    for e in errs:
        print(e, file=sys.stderr)
    print("check_rtl_clocking: %d files, %d always_ff blocks%s%s" % (
        len(files), nff, ", %d problems" % len(errs) if errs else ": one clock (clk_i), "
        "synchronous active-low reset (rst_ni)", "; self-test passed" if selftest and not errs
        else ""))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
