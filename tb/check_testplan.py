#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_testplan - every rule of gpusim's documents has a testplan record,
and every record names only tests that exist.

Usage: tb/check_testplan.py [--plan FILE] [--self-test]
       (run from the repository root; CTest runs it as check_testplan)

The plan (tb/testplan.txt; its header says the format) is keyed to documents
(@doc lines): the project's own - regspec/REGISTERS.md, traces/FORMAT.md, the
README - and the public WDDM documents the driver follows.  The rules of a
document are
  - regspec/REGISTERS.md: derived from regspec/gpusim.json, the file it is
    generated from: regs.header (the packet header), regs.block.GLOBAL and
    regs.block.PREFIX for each register block, regs.pkt.NAME for each
    packet, regs.layout.NAME (PTE, PDE), regs.desc.NAME for each memory
    descriptor (QDESC, RLE), regs.tile.MODE for each tile mode, and one rule
    for each error cause other than NONE: regs.cause.NAME (Q_ERR_CAUSE),
    regs.fault.NAME (MMU fault kinds), regs.apt_err.NAME (APT_ERR_STATUS
    causes), regs.rl_err.NAME (runlist refusals);
  - traces/FORMAT.md: read from its tables: format.record.NAME for each
    record type, format.error.NAME for each error;
  - any other document: its @rules lines in the plan.
The check fails, naming the plan's line, when
  - a rule has no record (a packet, block or cause added to
    regspec/gpusim.json, a record type or error to traces/FORMAT.md, a rule
    to @rules), or a record belongs to no rule of its document (a rule
    renamed or removed), or names a document without an @doc line;
  - an @doc names a repository document that does not exist or lies outside
    the repository, gives @rules to a document whose rules are derived, or
    leaves a document without rules;
  - a record names a CTest that tb/tests.cmake does not define (foreach
    loops expanded);
  - a record names a sub-test its CTest's sources do not hold: an identifier
    must be a registered cmocka test (an entry of a CMUnitTest array:
    cmocka_unit_test(NAME), or a local wrapper such as T(NAME)) when those
    sources register any, else a word of them; a "quoted string" must occur
    in them verbatim;
  - a record names no test and is not marked GAP, or is GAP without a reason;
  - an ID is malformed (DOC.RULE[.ASPECT]) or repeated.
The sources of a CTest are what its command runs: tests/test_X -> tb/**/test_X.c
(a _tsan build: the same source), bin/gpusim -> tools/scen/*.c
(the scenarios and the demo), tb/*.sh and tb/*.py scripts, regspec/*.py,
make -> Makefile.

Prints a summary: records, rules (per document), tests referenced, weak,
gaps.  --self-test also checks that broken plans and documents each fail
with their own error (see self_test), and that a GAP with a reason passes.
Exit 0 when the plan holds, 1 when it does not, 2 on a usage error or an
unreadable file.
"""
import copy
import glob
import json
import os
import re
import sys

ID_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[0-9A-Za-z_-]+)+$")
WORD = r"(?<![A-Za-z0-9_]){}(?![A-Za-z0-9_])"
REGSPEC_DOC = "regspec/REGISTERS.md"
REGSPEC_SRC = "regspec/gpusim.json"
FORMAT_DOC = "traces/FORMAT.md"
# The enums of regspec/gpusim.json that are error causes: enum -> rule prefix.
ERROR_ENUMS = {"cause": "cause", "mmu_fault": "fault", "apt_err": "apt_err", "rl_err": "rl_err"}


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
        files.update(glob.glob(os.path.join(root, "tools", "scen", "*.c")))
    for path in re.findall(r"((?:tb|regspec)/[\w/]+\.(?:sh|py))", cmd):
        files.add(os.path.join(root, path))
    if re.search(r"(?:^|\s)make\s", cmd):
        files.add(os.path.join(root, "Makefile"))
    return sorted(f for f in files if os.path.isfile(f))


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




def registered(text):
    """The cmocka tests @text registers: the first argument of each entry of
    its CMUnitTest arrays (cmocka_unit_test(NAME), or a local wrapper T(NAME))."""
    out = set()
    for body in re.findall(r"CMUnitTest\s+\w+\s*\[\s*\]\s*=\s*\{(.*?)\};", text, re.S):
        out.update(re.findall(r"\w+\(\s*(\w+)", body))
    return out


def rel(root, files):
    return [os.path.relpath(p, root) for p in files]


def regspec_rules(spec):
    """The rules of regspec/REGISTERS.md from the parsed regspec/gpusim.json
    @spec (without the "regs." key); raises ValueError when a part the
    rules come from is missing."""
    out = []
    if "header" in spec:
        out.append("header")
    if spec.get("registers"):
        out.append("block.GLOBAL")
    out += ["block." + b["prefix"] for b in spec.get("blocks", [])]
    out += ["pkt." + p["name"] for p in spec.get("packets", [])]
    out += ["layout." + l["name"] for l in spec.get("layouts", [])]
    out += ["desc." + d["name"] for d in spec.get("descriptors", [])]
    enums = {e["name"]: e for e in spec.get("enums", [])}
    for name, prefix in [("tile_mode", "tile")] + sorted(ERROR_ENUMS.items()):
        if name not in enums:
            raise ValueError("%s has no enum %r (update tb/check_testplan.py)"
                             % (REGSPEC_SRC, name))
        skip0 = name in ERROR_ENUMS
        out += ["%s.%s" % (prefix, v["name"]) for v in enums[name]["values"]
                if not (skip0 and int(str(v["value"]), 0) == 0)]
    return out


def format_rules(text):
    """The rules of traces/FORMAT.md @text: a record type per row of the table
    under "### Records" (| type | `name` | ...), an error per row of the table
    under "## Errors" (| `GM_CAP_ERR_X` | ...); raises ValueError when either
    table has no row."""
    out, part = {"record": [], "error": []}, None
    for line in text.splitlines():
        if line.startswith("#"):
            part = ("record" if re.match(r"###\s+Records\b", line) else
                    "error" if re.match(r"##\s+Errors\b", line) else None)
            continue
        if part == "record":
            m = re.match(r"\|\s*\d+\s*\|\s*`(\w+)`\s*\|", line)
        elif part == "error":
            m = re.match(r"\|\s*`(\w+)`\s*\|", line)
        else:
            m = None
        if m:
            out[part].append(m.group(1))
    for part, names in out.items():
        if not names:
            raise ValueError("%s: no %s table found (update tb/check_testplan.py)"
                             % (FORMAT_DOC, part))
    return ["record." + n for n in out["record"]] + ["error." + n for n in out["error"]]


class Repo:
    """The repository files the check reads, with overrides for the
    self-test: @files maps a relative path to its text, or to None for a
    file that does not exist."""

    def __init__(self, root, files=None, cache=None):
        self.root, self.files = root, dict(files or {})
        self.cache = {} if cache is None else cache  # CTest -> its sources, read once

    def with_files(self, files):
        """This repository with @files overridden (the self-test's broken copies)."""
        return Repo(self.root, dict(self.files, **files), self.cache)

    def exists(self, rel):
        if rel in self.files:
            return self.files[rel] is not None
        return os.path.isfile(os.path.join(self.root, rel))

    def text(self, rel):
        if rel in self.files and self.files[rel] is not None:
            return self.files[rel]
        return read(os.path.join(self.root, rel))


def derived_rules(repo, path):
    """The rules of repository document @path that the check derives, or None
    when the plan lists them (@rules); raises ValueError or OSError."""
    if path == REGSPEC_DOC:
        return regspec_rules(json.loads(repo.text(REGSPEC_SRC)))
    if path == FORMAT_DOC:
        return format_rules(repo.text(FORMAT_DOC))
    return None


def parse_plan(plan_text, plan_name, errs):
    """(docs, declared, records) of the plan: docs {key: (line, kind, name)}
    with kind "repo" or "public"; declared {key: [(rule, line)]} from @rules;
    records [dict] in order.  Format errors go to @errs."""
    docs, declared, records, ids = {}, {}, [], {}
    for n, raw in enumerate(plan_text.splitlines(), 1):
        line = raw.strip()
        where = "%s:%d" % (plan_name, n)
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            word, _, rest = line.partition(" ")
            key, _, arg = rest.strip().partition(" ")
            arg = arg.strip()
            if word == "@doc" and re.fullmatch(r"[a-z][a-z0-9_]*", key) and arg:
                if key in docs:
                    errs.append("%s: @doc %s repeated (first on line %d)"
                                % (where, key, docs[key][0]))
                elif arg.startswith("public:") and arg[7:].strip():
                    docs[key] = (n, "public", arg[7:].strip())
                elif arg.startswith("public:") or " " in arg:
                    errs.append("%s: @doc %s: a repository path, or public: and a title"
                                % (where, key))
                else:
                    docs[key] = (n, "repo", arg)
            elif word == "@rules" and key and arg:
                declared.setdefault(key, []).extend((r, n) for r in arg.split())
            else:
                errs.append("%s: cannot read %r (@doc KEY PATH, @doc KEY public: TITLE, "
                            "@rules KEY RULE...)" % (where, line))
            continue
        f = [x.strip() for x in line.split("|")]
        if len(f) not in (3, 4):
            errs.append("%s: a record has 3 or 4 fields (ID | feature | tests | note), not %d"
                        % (where, len(f)))
            continue
        rid, note = f[0], (f[3] if len(f) == 4 else "")
        if not ID_RE.match(rid):
            errs.append("%s: malformed ID %r: want DOC.RULE or DOC.RULE.ASPECT, DOC an @doc key%s"
                        % (where, rid, " (a numbered ID of the old plan: key it to the rule of"
                           " a document it checks)" if re.match(r"\d", rid) else ""))
        elif rid in ids:
            errs.append("%s: ID %s repeated (first on line %d)" % (where, rid, ids[rid]))
        ids.setdefault(rid, n)
        if not f[1]:
            errs.append("%s: %s names no feature" % (where, rid))
        records.append({"id": rid, "line": n, "where": where, "tfield": f[2], "note": note,
                        "gap": f[2] == "GAP", "weak": note.lower().startswith("weak"),
                        "tests": []})
    return docs, declared, records


def doc_rules(repo, docs, declared, plan_name, errs):
    """{doc key: [full rule IDs]} of the plan's documents; errors to @errs."""
    rules = {}
    for key, (n, kind, name) in docs.items():
        where = "%s:%d" % (plan_name, n)
        derived = None
        if kind == "repo":
            if os.path.isabs(name) or ".." in name.replace("\\", "/").split("/"):
                errs.append("%s: @doc %s: %s is outside the repository" % (where, key, name))
                continue
            if not repo.exists(name):
                errs.append("%s: @doc %s: %s does not exist in the repository" % (where, key, name))
                continue
            try:
                derived = derived_rules(repo, name)
            except (ValueError, OSError, KeyError, TypeError) as e:
                errs.append("%s: @doc %s: cannot derive the rules of %s: %s"
                            % (where, key, name, e))
                continue
        if derived is not None:
            if key in declared:
                errs.append("%s:%d: @rules %s: the rules of %s are derived from the repository, "
                            "not listed" % (plan_name, declared[key][0][1], key, name))
            names = derived
        else:
            names = [r for r, _ in declared.get(key, [])]
            if not names:
                errs.append("%s: @doc %s (%s) has no @rules" % (where, key, name))
            seen = set()
            for r, ln in declared.get(key, []):
                if not re.fullmatch(r"[0-9A-Za-z_-]+(\.[0-9A-Za-z_-]+)*", r):
                    errs.append("%s:%d: @rules %s: malformed rule %r" % (plan_name, ln, key, r))
                elif r in seen:
                    errs.append("%s:%d: @rules %s: rule %s repeated" % (plan_name, ln, key, r))
                seen.add(r)
        rules[key] = ["%s.%s" % (key, r) for r in names]
    for key, decl in declared.items():
        if key not in docs:
            errs.append("%s:%d: @rules %s: no @doc %s" % (plan_name, decl[0][1], key, key))
    return rules


def rule_of(rid, rules):
    """The longest rule of @rules (a list) that record ID @rid is or lies under."""
    best = None
    for r in rules:
        if (rid == r or rid.startswith(r + ".")) and (best is None or len(r) > len(best)):
            best = r
    return best


def check_tests(rec, root, tests, src_cache, errs):
    """Check the tests field of record @rec (errors to @errs)."""
    where, rid, tfield = rec["where"], rec["id"], rec["tfield"]
    if tfield == "GAP":
        if not rec["note"]:
            errs.append("%s: %s is a GAP without a reason (the note field)" % (where, rid))
        return
    if not tfield:
        errs.append("%s: %s names no test (write GAP and a reason if none covers it)"
                    % (where, rid))
        return
    try:
        parsed = parse_tests(tfield)
    except ValueError as e:
        errs.append("%s: %s" % (where, e))
        return
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
            src_cache[name] = (files, text, registered(text))
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


def check(plan_text, repo, plan_name):
    """(errors, summary dict) of the plan text against the repository @repo."""
    errs = []
    root = repo.root
    tests = ctests(repo.text(os.path.join("tb", "tests.cmake")))
    docs, declared, records = parse_plan(plan_text, plan_name, errs)
    if not docs:
        errs.append("%s: no @doc line" % plan_name)
    rules = doc_rules(repo, docs, declared, plan_name, errs)
    covered = set()
    for rec in records:
        key = rec["id"].split(".")[0]
        if ID_RE.match(rec["id"]):
            if key not in docs:
                errs.append("%s: %s: no @doc %s" % (rec["where"], rec["id"], key))
            elif key in rules:
                r = rule_of(rec["id"], rules[key])
                if r is None:
                    errs.append("%s: %s is under no rule of %s (%s)"
                                % (rec["where"], rec["id"], key, docs[key][2]))
                covered.add(r)
        check_tests(rec, root, tests, repo.cache, errs)
    for key, rs in rules.items():
        for r in rs:
            if r not in covered:
                errs.append("%s: rule %s of %s has no record" % (plan_name, r, docs[key][2]))
    refs = {t for r in records for t in r["tests"]}
    summary = {
        "records": len(records),
        "rules": {docs[k][2] if docs[k][1] == "repo" else "public: " + k: len(v)
                  for k, v in rules.items()},
        "tests": len(refs),
        "ctests": len({t.split(":")[0] for t in refs}),
        "weak": sum(r["weak"] for r in records),
        "gaps": [r["id"] for r in records if r["gap"]],
    }
    return errs, summary




def self_test(plan_text, repo):
    """Broken copies of the plan and of the documents must each fail with
    their own error, and a GAP with a reason must pass; returns the failures
    of this."""
    lines = plan_text.splitlines()
    first = next(i for i, l in enumerate(lines)
                 if l.strip() and not l.startswith(("#", "@")) and ":" in l.split("|")[2])
    rid, feat, tf = [x.strip() for x in lines[first].split("|")][:3]
    ctest = next(t for t in tf.split(",") if ":" in t).split(":")[0].strip()
    rules_at = next(i for i, l in enumerate(lines) if l.startswith("@rules "))
    rules_key = lines[rules_at].split()[1]
    docs = {l.split()[1]: l.split()[2] for l in lines if l.startswith("@doc ")}
    regs = next(k for k, p in docs.items() if p == REGSPEC_DOC)
    fmt = next(k for k, p in docs.items() if p == FORMAT_DOC)
    spec = json.loads(repo.text(REGSPEC_SRC))
    pkt = spec["packets"][0]["name"]

    def with_tests(field):
        return lines[:first] + ["%s | %s | %s" % (rid, feat, field)] + lines[first + 1:]

    def spec_with(change):
        s = copy.deepcopy(spec)
        change(s)
        return {REGSPEC_SRC: json.dumps(s)}

    def new_packet(s):
        s["packets"].append(dict(s["packets"][0], name="SELFTEST_PKT"))

    def new_cause(s):
        e = next(e for e in s["enums"] if e["name"] == "cause")
        e["values"].append({"name": "SELFTEST_CAUSE", "value": "0x7f", "doc": "self-test"})

    def new_block(s):
        s["blocks"].append(dict(s["blocks"][0], prefix="SELFTEST"))

    def no_enum(s):
        s["enums"] = [e for e in s["enums"] if e["name"] != "mmu_fault"]

    fmt_text = repo.text(FORMAT_DOC)
    fmt_err = re.sub(r"(\n\|\s*`GM_CAP_ERR_\w+`[^\n]*)",
                     r"\1\n| `GM_CAP_ERR_SELFTEST` | self-test |", fmt_text, count=1)
    fmt_rec = re.sub(r"(\n\|\s*1\s*\|\s*`\w+`[^\n]*)", r"\1\n| 99 | `selftest_rec` | - | - |",
                     fmt_text, count=1)
    # (what, plan lines, overridden files, the error expected or None)
    cases = [
        ("an unknown CTest", with_tests("no_such_ctest"), {}, "does not define"),
        ("an unknown sub-test", with_tests(ctest + ":no_such_subtest_x"), {}, "is not a"),
        ("an unknown quoted sub-test", with_tests(ctest + ':"no such text in any source"'), {},
         "is not in the sources"),
        ("a record with no test", with_tests(""), {}, "names no test"),
        ("a GAP without a reason", with_tests("GAP"), {}, "GAP without a reason"),
        ("a GAP with a reason", with_tests("GAP | a reason"), {}, None),
        ("a repeated ID", lines + [lines[first]], {}, "repeated"),
        ("an ID of the old numbered form", lines + ["3.2.nop | x | " + ctest], {}, "malformed ID"),
        ("the records of a rule removed",
         [l for l in lines if not re.match(r"%s\.pkt\.%s\b" % (regs, pkt), l)], {},
         "rule %s.pkt.%s of %s has no record" % (regs, pkt, REGSPEC_DOC)),
        ("a packet added to %s" % REGSPEC_SRC, lines, spec_with(new_packet),
         "rule %s.pkt.SELFTEST_PKT of %s has no record" % (regs, REGSPEC_DOC)),
        ("an error cause added to %s" % REGSPEC_SRC, lines, spec_with(new_cause),
         "rule %s.cause.SELFTEST_CAUSE of" % regs),
        ("a register block added to %s" % REGSPEC_SRC, lines, spec_with(new_block),
         "rule %s.block.SELFTEST of" % regs),
        ("an error enum gone from %s" % REGSPEC_SRC, lines, spec_with(no_enum),
         "has no enum 'mmu_fault'"),
        ("an error added to %s" % FORMAT_DOC, lines, {FORMAT_DOC: fmt_err},
         "rule %s.error.GM_CAP_ERR_SELFTEST of" % fmt),
        ("a record type added to %s" % FORMAT_DOC, lines, {FORMAT_DOC: fmt_rec},
         "rule %s.record.selftest_rec of" % fmt),
        ("a rule added to @rules", lines[:rules_at] + [lines[rules_at] + " selftest_rule"]
         + lines[rules_at + 1:], {}, "rule %s.selftest_rule of" % rules_key),
        ("a record under no rule", lines + ["%s.pkt.NO_SUCH_PACKET | x | %s" % (regs, ctest)], {},
         "is under no rule"),
        ("a record of no document", lines + ["nodoc.x | x | " + ctest], {}, "no @doc nodoc"),
        ("@rules of no document", lines + ["@rules nodoc x"], {}, "no @doc nodoc"),
        ("@rules for a derived document", lines + ["@rules %s x" % regs], {}, "are derived"),
        ("a document without rules", lines + ["@doc selftest public: a title"], {},
         "has no @rules"),
        ("a repository document that does not exist",
         lines + ["@doc selftest no/such/DOC.md", "@rules selftest x", "selftest.x | x | " + ctest],
         {}, "no/such/DOC.md does not exist"),
        ("%s gone" % FORMAT_DOC, lines, {FORMAT_DOC: None}, "does not exist"),
        ("a document outside the repository",
         lines + ["@doc selftest ../shared/SPEC.md", "@rules selftest x",
                  "selftest.x | x | " + ctest],
         {}, "outside the repository"),
    ]
    bad = []
    for what, ls, files, want in cases:
        errs, _ = check("\n".join(ls), repo.with_files(files), "(self-test: %s)" % what)
        if want is None and errs:
            bad.append("self-test: the plan with %s fails: %s" % (what, errs[0]))
        elif want is not None and not any(want in e for e in errs):
            bad.append("self-test: the plan with %s does not fail with %r (%s)"
                       % (what, want, errs[0] if errs else "it passes"))
    return bad


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    plan = os.path.join(root, "tb", "testplan.txt")
    selftest = False
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--plan" and args:
            plan = args.pop(0)
        elif a == "--self-test":
            selftest = True
        else:
            print(__doc__, file=sys.stderr)
            return 2
    repo = Repo(root)
    try:
        plan_text = read(plan)
        name = os.path.relpath(plan, root)
        errs, s = check(plan_text, repo, name)
    except OSError as e:
        print("check_testplan: %s" % e, file=sys.stderr)
        return 2
    if selftest and not errs:
        errs = self_test(plan_text, repo)
    for e in errs:
        print(e, file=sys.stderr)
    print("check_testplan: %d records, %d rules (%s), %d tests referenced (%d CTests), "
          "%d weak, %d GAP%s%s"
          % (s["records"], sum(s["rules"].values()),
             ", ".join("%s %d" % kv for kv in s["rules"].items()), s["tests"], s["ctests"],
             s["weak"], len(s["gaps"]), (" (" + ", ".join(s["gaps"]) + ")") if s["gaps"] else "",
             "; self-test passed" if selftest and not errs else ""))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
