#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_testplan - the testplan (tb/testplan.txt) names only tests that exist.

Usage: tb/check_testplan.py [--plan FILE] [--spec FILE] [--self-test]
       (run from the repository root; CTest runs it as check_testplan)

Reads the plan (its header says the format) and fails, naming the plan's
line, when
  - a record names a CTest that tb/tests.cmake does not define (foreach
    loops expanded);
  - a record names a sub-test its CTest's sources do not hold: an identifier
    must be a registered cmocka test (an entry of a CMUnitTest array:
    cmocka_unit_test(NAME), or a local wrapper such as T(NAME)) when those
    sources register any, else a word of them; a "quoted string" must occur
    in them verbatim;
  - a record names no test and is not marked GAP, or is GAP without a reason;
  - an ID is malformed or repeated, or a section of @sections has no record;
  - SPEC.md is reachable (default ../shared/SPEC.md, or --spec) and its
    numbered headings of sections 3-8 (### N.M, and "seed NNN" paragraphs of
    section 8 as 8.NNN) differ from the plan's @sections line.
The sources of a CTest are what its command runs: tests/test_X -> tb/**/test_X.c
(a _tsan build: the same source), bin/gpusim -> tb/scen/*.c and tb/umd_work*.c
(the scenarios and the demo), tb/*.sh and tb/*.py scripts, regspec/*.py,
make -> Makefile.

Prints a summary: features, tests referenced, weak, gaps.  --self-test also
checks that broken copies of the plan (an unknown CTest, an unknown
sub-test, a record with no test, a GAP without reason, a repeated ID, a
section without a record, a SPEC section left out) each fail with their own
error, and that a GAP with a reason passes.  Exit 0 when the plan holds, 1 when it does not, 2 on a
usage error or an unreadable file.
"""
import glob
import os
import re
import sys

ID_RE = re.compile(r"^\d+(\.[0-9A-Za-z_-]+)+$")
WORD = r"(?<![A-Za-z0-9_]){}(?![A-Za-z0-9_])"


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def ctests(cmake_text):
    """{ctest name: command text} of tests.cmake, foreach loops (nested, or
    with their value list over several lines) expanded."""
    out = {}
    lines = [l for l in cmake_text.splitlines() if not l.lstrip().startswith("#")]
    expand(out, lines, {})
    return out


def expand(out, lines, env):
    i = 0
    while i < len(lines):
        line = lines[i]
        if re.match(r"\s*foreach\(", line):
            while ")" not in line and i + 1 < len(lines):
                i += 1
                line += " " + lines[i]
            m = re.match(r"\s*foreach\((\w+)\s+([^)]*)\)", line)
            depth, body = 1, []
            i += 1
            while i < len(lines):
                if re.match(r"\s*foreach\(", lines[i]):
                    depth += 1
                elif re.match(r"\s*endforeach", lines[i]):
                    depth -= 1
                    if not depth:
                        break
                body.append(lines[i])
                i += 1
            for v in m.group(2).split():
                expand(out, body, dict(env, **{m.group(1): v}))
        else:
            for var, v in env.items():
                line = line.replace("${" + var + "}", v)
            add_test(out, line)
        i += 1


def add_test(out, line):
    m = re.match(r"\s*add_test\((\S+)\s+(.*)\)\s*$", line)
    if m:
        out[m.group(1)] = m.group(2)


def sources(root, cmd):
    """The source files (relative to @root) of a CTest whose command is @cmd."""
    files = set()
    for name in re.findall(r'(?:^|[\s/"])tests/(test_\w+)', cmd):
        hits = glob.glob(os.path.join(root, "tb", "**", name + ".c"), recursive=True)
        if not hits and name.endswith("_tsan"):
            hits = glob.glob(os.path.join(root, "tb", "**", name[:-5] + ".c"), recursive=True)
        files.update(hits)
    if re.search(r'(?:^|[\s/"])bin/gpusim\b', cmd):
        files.update(glob.glob(os.path.join(root, "tb", "scen", "*.c")))
        files.update(glob.glob(os.path.join(root, "tb", "umd_work*.c")))
    for path in re.findall(r"((?:tb|regspec)/[\w/]+\.(?:sh|py))", cmd):
        files.add(os.path.join(root, path))
    if re.search(r"(?:^|\s)make\s", cmd):
        files.add(os.path.join(root, "Makefile"))
    return sorted(f for f in files if os.path.isfile(f))


def spec_sections(spec_text):
    """Section IDs of SPEC sections 3-8: N, N.M, and 8.NNN per seed paragraph."""
    out, top = [], None
    for line in spec_text.splitlines():
        m = re.match(r"##\s+(\d+)\.\s", line)
        if m:
            top = int(m.group(1))
            if 3 <= top <= 8:
                out.append(str(top))
            continue
        m = re.match(r"###\s+(\d+\.\d+)\s", line)
        if m and top is not None and 3 <= top <= 8:
            out.append(m.group(1))
            continue
        m = re.match(r"\*\*.*\bseed (\d{3})\)?\*\*", line)
        if m and top == 8:
            out.append("8." + m.group(1))
    return out


def parse_tests(field):
    """[(ctest, sub or None, quoted)] of a tests field; raises ValueError."""
    out = []
    for m in re.finditer(r'\s*([\w.-]+)(?::("([^"]*)"|[\w.-]+))?\s*(,|$)', field):
        if not m.group(1):
            continue
        sub, quoted = m.group(2), False
        if sub and sub.startswith('"'):
            sub, quoted = m.group(3), True
        out.append((m.group(1), sub, quoted))
    rebuilt = ",".join(x[0] + ((":" + ('"%s"' % x[1] if x[2] else x[1])) if x[1] else "")
                       for x in out)
    if rebuilt.replace(" ", "") != field.replace(" ", "").rstrip(","):
        raise ValueError("cannot read the tests field %r" % field)
    return out


def check(plan_text, root, spec_text, plan_name):
    """(errors, summary dict) of the plan text."""
    errs = []
    tests = ctests(read(os.path.join(root, "tb", "tests.cmake")))
    src_cache = {}
    sections, records, ids = None, [], {}
    for n, raw in enumerate(plan_text.splitlines(), 1):
        line = raw.strip()
        where = "%s:%d" % (plan_name, n)
        if not line or line.startswith("#"):
            continue
        if line.startswith("@sections"):
            sections = line.split()[1:]
            continue
        f = [x.strip() for x in line.split("|")]
        if len(f) not in (3, 4):
            errs.append("%s: a record has 3 or 4 fields (ID | feature | tests | note), not %d"
                        % (where, len(f)))
            continue
        rid, feature, tfield = f[0], f[1], f[2]
        note = f[3] if len(f) == 4 else ""
        if not ID_RE.match(rid):
            errs.append("%s: malformed ID %r" % (where, rid))
        elif rid in ids:
            errs.append("%s: ID %s repeated (first on line %d)" % (where, rid, ids[rid]))
        ids.setdefault(rid, n)
        if not feature:
            errs.append("%s: %s names no feature" % (where, rid))
        rec = {"id": rid, "line": n, "gap": False, "weak": note.lower().startswith("weak"),
               "tests": []}
        records.append(rec)
        if tfield == "GAP":
            rec["gap"] = True
            if not note:
                errs.append("%s: %s is a GAP without a reason (the note field)" % (where, rid))
            continue
        if not tfield:
            errs.append("%s: %s names no test (write GAP and a reason if none covers it)"
                        % (where, rid))
            continue
        try:
            parsed = parse_tests(tfield)
        except ValueError as e:
            errs.append("%s: %s" % (where, e))
            continue
        for name, sub, quoted in parsed:
            if name == "GAP":
                errs.append("%s: GAP must stand alone in the tests field" % where)
                continue
            if name not in tests:
                errs.append("%s: %s names CTest %r, which tb/tests.cmake does not define"
                            % (where, rid, name))
                continue
            rec["tests"].append(name + (":" + sub if sub else ""))
            if not sub:
                continue
            if name not in src_cache:
                files = sources(root, tests[name])
                text = "".join(read(p) for p in files)
                reg = registered(text)
                src_cache[name] = (files, text, reg)
            files, text, reg = src_cache[name]
            if not files:
                errs.append("%s: %s names sub-test %r of %s, whose command has no source "
                            "this check can read" % (where, rid, sub, name))
            elif quoted:
                if sub not in text:
                    errs.append("%s: %s: %r is not in the sources of %s (%s)"
                                % (where, rid, sub, name, ", ".join(rel(root, files))))
            elif reg and re.fullmatch(r"\w+", sub):
                if sub not in reg:
                    errs.append("%s: %s: %s is not a test %s registers (cmocka_unit_test in %s)"
                                % (where, rid, sub, name, ", ".join(rel(root, files))))
            elif not re.search(WORD.format(re.escape(sub)), text):
                errs.append("%s: %s: %r is not a word of the sources of %s (%s)"
                            % (where, rid, sub, name, ", ".join(rel(root, files))))
    if sections is None:
        errs.append("%s: no @sections line" % plan_name)
        sections = []
    for s in sections:
        if not any(r["id"].startswith(s + ".") for r in records):
            errs.append("%s: section %s has no record" % (plan_name, s))
    for r in records:
        if not any(r["id"].startswith(s + ".") for s in sections):
            errs.append("%s:%d: %s is in no section of @sections" % (plan_name, r["line"], r["id"]))
    if spec_text is not None:
        want = spec_sections(spec_text)
        if want != sections:
            errs.append("%s: @sections %s, but SPEC.md's sections 3-8 are %s (update the plan)"
                        % (plan_name, " ".join(sections), " ".join(want)))
    refs = {t for r in records for t in r["tests"]}
    summary = {
        "features": len(records),
        "tests": len(refs),
        "ctests": len({t.split(":")[0] for t in refs}),
        "weak": sum(r["weak"] for r in records),
        "gaps": [r["id"] for r in records if r["gap"]],
    }
    return errs, summary


def registered(text):
    """The cmocka tests @text registers: the first argument of each entry of
    its CMUnitTest arrays (cmocka_unit_test(NAME), or a local wrapper T(NAME))."""
    out = set()
    for body in re.findall(r"CMUnitTest\s+\w+\s*\[\s*\]\s*=\s*\{(.*?)\};", text, re.S):
        out.update(re.findall(r"\w+\(\s*(\w+)", body))
    return out


def rel(root, files):
    return [os.path.relpath(p, root) for p in files]


def self_test(plan_text, root, spec_text):
    """Broken copies of the plan must each fail with their own error, and a GAP
    with a reason must pass; returns the failures of this."""
    lines = plan_text.splitlines()
    first = next(i for i, l in enumerate(lines)
                 if l.strip() and not l.startswith(("#", "@")) and ":" in l.split("|")[2])
    rid, feat, tf = [x.strip() for x in lines[first].split("|")][:3]
    ctest = next(t for t in tf.split(",") if ":" in t).split(":")[0].strip()
    sec = next(i for i, l in enumerate(lines) if l.startswith("@sections"))

    def with_tests(field):
        return lines[:first] + ["%s | %s | %s" % (rid, feat, field)] + lines[first + 1:]

    cases = {
        "an unknown CTest": (with_tests("no_such_ctest"), "does not define"),
        "an unknown sub-test": (with_tests(ctest + ":no_such_subtest_x"), "is not a"),
        "an unknown quoted sub-test": (with_tests(ctest + ':"no such text in any source"'),
                                       "is not in the sources"),
        "a record with no test": (with_tests(""), "names no test"),
        "a GAP without a reason": (with_tests("GAP"), "GAP without a reason"),
        "a GAP with a reason": (with_tests("GAP | a reason"), None),
        "a repeated ID": (lines + [lines[first]], "repeated"),
        "a section without a record": (lines[:sec] + [lines[sec] + " 99"] + lines[sec + 1:],
                                       "section 99 has no record"),
    }
    if spec_text is not None:
        cases["a section of SPEC.md left out"] = (
            lines[:sec] + [lines[sec].replace(" 3.5 ", " ")] + lines[sec + 1:], "SPEC.md's")
    bad = []
    for what, (ls, want) in cases.items():
        errs, _ = check("\n".join(ls), root, spec_text, "(self-test: %s)" % what)
        if want is None and errs:
            bad.append("self-test: the plan with %s fails: %s" % (what, errs[0]))
        elif want is not None and not any(want in e for e in errs):
            bad.append("self-test: the plan with %s does not fail with %r (%s)"
                       % (what, want, errs[0] if errs else "it passes"))
    return bad


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    plan = os.path.join(root, "tb", "testplan.txt")
    spec = os.path.join(root, "..", "shared", "SPEC.md")
    spec_given, selftest = False, False
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--plan" and args:
            plan = args.pop(0)
        elif a == "--spec" and args:
            spec, spec_given = args.pop(0), True
        elif a == "--self-test":
            selftest = True
        else:
            print(__doc__, file=sys.stderr)
            return 2
    try:
        plan_text = read(plan)
        spec_text = read(spec) if spec_given or os.path.isfile(spec) else None
    except OSError as e:
        print("check_testplan: %s" % e, file=sys.stderr)
        return 2
    name = os.path.relpath(plan, root)
    errs, s = check(plan_text, root, spec_text, name)
    if selftest and not errs:
        errs = self_test(plan_text, root, spec_text)
    for e in errs:
        print(e, file=sys.stderr)
    print("check_testplan: %d features, %d tests referenced (%d CTests), %d weak, %d GAP%s; "
          "SPEC.md %s%s" % (s["features"], s["tests"], s["ctests"], s["weak"], len(s["gaps"]),
                            (" (" + ", ".join(s["gaps"]) + ")") if s["gaps"] else "",
                            "checked" if spec_text is not None else "not found (sections as listed)",
                            "; self-test passed" if selftest and not errs else ""))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
