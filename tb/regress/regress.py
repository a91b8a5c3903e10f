#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""regress - the regression runner over CTest.

CTest runs the tests (tb/tests.cmake); this adds what it lacks: a test list
with per-test seeds and timeouts (a seeded test runs as one instance per
seed, or per chunk of seeds), a deterministic --shard K/N, a JUnit file
whose every case carries its seed and the command that reproduces it, the
closing line "N passed, N failed", a re-run of each failure with waves, and
the submission of the shards as a Slurm job array.

  regress.py [run] [--list FILE] [--shard K/N] [--rotate-seed N] [-j N]
                   [--exclude REGEX] [--junit FILE] [--no-waves] [--dry-run]
  regress.py slurm --shards N [the run options but --shard]
  regress.py merge -o OUT.xml SHARD.xml...

The list (tb/regress/*.list), one line a test, first match wins:

  GLOB [seeds=SPEC] [per=N] [timeout=S]
  GLOB skip

GLOB matches CTest names (fnmatch); a test no line matches, or whose line
says skip, is not run.
SPEC is a comma-separated list of seeds N, ranges A..B and `rotate`: one
seed drawn from the clock (or --rotate-seed), printed at the start and the
end.  Each seed is an instance run with GPUSIM_SEED set; per=N groups a
range into chunks of N consecutive seeds, each an instance whose command's
`--count X` becomes `--count N` (test_rand runs seeds S..S+N-1).  timeout
replaces the CTest TIMEOUT (seconds, an instance).

Exit status: 0 every instance passed; 1 one failed (or a shard's report is
missing); 2 a usage error (a bad list, a shard such as 3/2 or 0/0).
"""
import argparse
import collections
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WAVE_SLOWDOWN = 3  # the re-run with waves may record every cycle: its timeout, times the test's


class UsageError(Exception):
    pass


# ------------------------------------------------------------------ the list
def parse_shard(spec):
    """K/N with 1 <= K <= N, else UsageError."""
    m = re.fullmatch(r"([0-9]+)/([0-9]+)", spec or "")
    if not m:
        raise UsageError("bad shard %r: want K/N, 1 <= K <= N" % spec)
    k, n = int(m.group(1)), int(m.group(2))
    if n < 1 or k < 1 or k > n:
        raise UsageError("bad shard %r: want K/N, 1 <= K <= N" % spec)
    return k, n


def parse_seeds(spec, where):
    """[(first, count)] and whether `rotate` is asked, from A..B,N,rotate."""
    out, rotate = [], False
    for part in spec.split(","):
        m = re.fullmatch(r"([0-9]+)\.\.([0-9]+)", part)
        if part == "rotate":
            rotate = True
        elif m and int(m.group(1)) <= int(m.group(2)):
            out.append((int(m.group(1)), int(m.group(2)) - int(m.group(1)) + 1))
        elif re.fullmatch(r"[0-9]+", part):
            out.append((int(part), 1))
        else:
            raise UsageError("%s: bad seed %r" % (where, part))
    return out, rotate


def read_list(path):
    """[(glob, {seeds, rotate, per, timeout})] in file order."""
    rules = []
    with open(path) as f:
        for no, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            where = "%s:%d" % (path, no)
            rule = {"seeds": None, "rotate": False, "per": None, "timeout": None, "skip": False}
            for w in words[1:]:
                key, _, val = w.partition("=")
                if w == "skip" and len(words) == 2:
                    rule["skip"] = True
                elif key == "seeds" and val:
                    rule["seeds"], rule["rotate"] = parse_seeds(val, where)
                elif key in ("per", "timeout") and re.fullmatch(r"[1-9][0-9]*", val):
                    rule[key] = int(val)
                else:
                    raise UsageError("%s: bad field %r (want seeds=, per=, timeout= or skip alone)"
                                     % (where, w))
            if rule["per"] and not rule["seeds"] and not rule["rotate"]:
                raise UsageError("%s: per= without seeds=" % where)
            rules.append((words[0], rule))
    return rules


def ctest_tests(build, tests_file, work):
    """The CTest tests of @tests_file as `ctest --show-only=json-v1` sees them.
    tb/tests.cmake is copied into @build as its CTestTestfile.cmake (as `make
    test` always did: `cd build && ctest -L rtl` works); another file into a
    folder of its own under @work (its programs: on PATH, or run by sh -c),
    its tests running in @build too."""
    with open(tests_file) as f:
        text = f.read()
    qdir = build
    if not os.path.samefile(tests_file, os.path.join(ROOT, "tb", "tests.cmake")):
        qdir = os.path.join(work, "query-%d" % os.getpid())
        os.makedirs(qdir, exist_ok=True)
    dest = os.path.join(qdir, "CTestTestfile.cmake")
    try:
        with open(dest) as f:
            same = f.read() == text
    except OSError:
        same = False
    if not same:  # written whole: the shards of one run may start together
        with open(dest + ".%d" % os.getpid(), "w") as f:
            f.write(text)
        os.replace(dest + ".%d" % os.getpid(), dest)
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=qdir, check=True,
                         capture_output=True, text=True).stdout
    if qdir != build:
        shutil.rmtree(qdir)
    tests = []
    for t in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        if props.get("WORKING_DIRECTORY") == os.path.abspath(qdir):
            del props["WORKING_DIRECTORY"]  # CTest's default: the runner's is @build
        tests.append({"name": t["name"], "command": t.get("command"), "props": props})
    return tests


def relative_command(cmd, build):
    """The command as typed from the build folder (tests/x, not /abs/build/tests/x)."""
    prefix = os.path.abspath(build) + os.sep
    cmd = [a[len(prefix):] if a.startswith(prefix) else a for a in cmd]
    if os.path.isabs(cmd[0]) and shutil.which(os.path.basename(cmd[0])):
        cmd[0] = os.path.basename(cmd[0])  # ctest's /usr/bin/sh: sh, found on PATH
    return cmd


def with_count(cmd, n, name):
    """@cmd with its `--count X` (an argument, or inside sh -c's) made `--count @n`."""
    if "--count" in cmd[:-1]:
        i = cmd.index("--count")
        return cmd[:i + 1] + [str(n)] + cmd[i + 2:]
    if len(cmd) == 3 and cmd[1] == "-c" and re.search(r"--count [0-9]+", cmd[2]):
        return cmd[:2] + [re.sub(r"--count [0-9]+", "--count %d" % n, cmd[2], count=1)]
    raise UsageError("test %s: per= needs a command with --count" % name)


def instances(tests, rules, rotate_seed, build, exclude=None):
    """Every instance the list asks for, in a fixed order: CTest's (tb/tests.cmake),
    a test's seeds as the list gives them.  A test of one instance keeps its
    name; of several, NAME@SEED or NAME@FIRST-LAST."""
    out = []
    for t in tests:
        rule = next((r for g, r in rules if fnmatch.fnmatchcase(t["name"], g)), None)
        if rule is None or rule["skip"] or (exclude and re.search(exclude, t["name"])):
            continue
        if t["command"] is None:  # CTest finds no program: only an error if it runs
            raise UsageError("test %s: its program is not built (make tests)" % t["name"])
        cmd = relative_command(t["command"], build)
        timeout = rule["timeout"] or t["props"].get("TIMEOUT")
        chunks = []  # (first seed, count, rotating)
        for first, count in rule["seeds"] or []:
            per = rule["per"] or 1
            for s in range(first, first + count, per):
                chunks.append((s, min(per, first + count - s), False))
        if rule["rotate"]:
            chunks.append((rotate_seed, rule["per"] or 1, True))
        if not chunks:
            out.append(dict(name=t["name"], test=t["name"], cmd=cmd, seed=None, count=None,
                            rotating=False, timeout=timeout, props=t["props"]))
            continue
        for first, count, rot in chunks:
            name = t["name"]
            if len(chunks) > 1:
                name += "@%d" % first if count == 1 else "@%d-%d" % (first, first + count - 1)
            out.append(dict(name=name, test=t["name"], seed=first, rotating=rot,
                            count=count if rule["per"] else None,
                            cmd=with_count(cmd, count, t["name"]) if rule["per"] else cmd,
                            timeout=timeout, props=t["props"]))
    dup = sorted(n for n, c in collections.Counter(i["name"] for i in out).items() if c > 1)
    if dup:
        raise UsageError("instances named twice (overlapping seeds?): %s" % ", ".join(dup))
    return out


def shard_of(insts, k, n):
    """Instance i (in list order) goes to shard i mod N + 1: deterministic, and a
    test's chunks spread over the shards."""
    return [x for i, x in enumerate(insts) if i % n == k - 1]


# ------------------------------------------------------------------ running
def env_of(inst):
    env = list(inst["props"].get("ENVIRONMENT", []))
    if inst["seed"] is not None:
        env = [e for e in env if not e.startswith("GPUSIM_SEED=")]
        env.append("GPUSIM_SEED=%d" % inst["seed"])
    return env


def workdir_of(inst, build):
    wd = inst["props"].get("WORKING_DIRECTORY", build)
    return os.path.normpath(os.path.join(build, wd))


def repro(inst, build):
    """The shell command that runs the instance again alone, from the repository root."""
    wd = os.path.relpath(workdir_of(inst, build), ROOT)
    words = env_of(inst) + inst["cmd"]
    return "(cd %s && %s)" % (shlex.quote(wd), " ".join(shlex.quote(w) for w in words))


def show(path):
    """@path from the repository root when it is inside, else whole."""
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def cmake_quote(s):
    return '"%s"' % str(s).replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")


def write_ctest_file(insts, path, build):
    lines = ["# generated by tb/regress/regress.py: one shard's instances\n"]
    for i in insts:
        lines.append("add_test(%s %s)\n" % (cmake_quote(i["name"]),
                                             " ".join(cmake_quote(a) for a in i["cmd"])))
        props = dict(i["props"])
        props["WORKING_DIRECTORY"] = workdir_of(i, build)
        props["ENVIRONMENT"] = env_of(i)
        if i["timeout"]:
            props["TIMEOUT"] = i["timeout"]
        for key, val in sorted(props.items()):
            if isinstance(val, list):
                if not val:
                    continue
                val = ";".join(val)
            elif isinstance(val, float) and val.is_integer():
                val = int(val)
            elif isinstance(val, bool):
                val = "ON" if val else "OFF"
            lines.append("set_tests_properties(%s PROPERTIES %s %s)\n"
                         % (cmake_quote(i["name"]), key, cmake_quote(val)))
    with open(path, "w") as f:
        f.writelines(lines)


def fail_waves(inst, build, out, wavedir):
    """The failure's waves: the file the test named (gpusim run/demo write the
    window of their last cycles themselves), else a re-run with
    GPUSIM_WAVE_DIR: test_rand writes the window before each mismatch; a
    system test (tb/sys/tb_util.c) the window before the cycle its newest
    model left behind by a failure stopped at ("tb: model N left at cycle
    C ... GPUSIM_WAVE_MODEL=N GPUSIM_WAVE_FROM=F"), else each model's whole
    run.  The files, or a reason there are none."""
    named = re.findall(r"waves of the failure: ([^\s,]+)", out)
    if named:
        return [os.path.normpath(os.path.join(workdir_of(inst, build), w)) for w in named]
    if "ENVIRONMENT" in inst["props"] and any(e == "GPUSIM_BACKEND=ref"
                                              for e in inst["props"]["ENVIRONMENT"]):
        return "the ref backend has no waves"
    d = os.path.join(wavedir, re.sub(r"[^A-Za-z0-9_.@-]", "_", inst["name"]))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    env = dict(os.environ)
    env.update(e.split("=", 1) for e in env_of(inst))
    env["GPUSIM_WAVE_DIR"] = d
    # several left behind (a test of two models): the newest, the failing test's own
    left = re.findall(r"^tb: model .*GPUSIM_WAVE_MODEL=([0-9]+) GPUSIM_WAVE_FROM=([0-9]+)", out, re.M)
    if left:
        env["GPUSIM_WAVE_MODEL"], env["GPUSIM_WAVE_FROM"] = max(left, key=lambda m: int(m[0]))
    try:
        subprocess.run(inst["cmd"], cwd=workdir_of(inst, build), env=env,
                       timeout=WAVE_SLOWDOWN * (inst["timeout"] or 1500),
                       stdout=open(os.path.join(d, "rerun.log"), "w"), stderr=subprocess.STDOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "re-run with waves: %s" % e
    fst = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".fst"))
    return fst or "the test wrote none (it reads no GPUSIM_WAVE_DIR); log %s" % \
        os.path.join(d, "rerun.log")


# A failing check's line, as the tests and tools print one: cmocka's
# "file:line: error: ..." and "[  ERROR   ]", a gpusim "FAIL"/"mismatch"
# line, an RTL assertion, a sanitizer's report.
CHECK_RE = re.compile(r"(\berror\b|\bFAIL\b|FAILED\b|mismatch|[Aa]ssertion|Sanitizer|"
                      r"\bERROR\b|Error:|differ)")
CHECK_NOT = re.compile(r"(\b0 failed|\[  PASSED  \]|reproduce with|^\s*$)")


def first_check(out):
    """The first line of @out that names a failing check (at most 300
    characters), else its last non-empty line, else a fixed text."""
    lines = out.splitlines()
    for line in lines:
        if CHECK_RE.search(line) and not CHECK_NOT.search(line):
            return line.strip()[:300]
    tail = [l.strip() for l in lines if l.strip()]
    return tail[-1][:300] if tail else "failed with no output"


def annotate(junit_in, insts, build, junit_out, suite, waves, wavedir):
    """CTest's JUnit, each case with its seed and reproducing command; the
    failures' waves; returns (passed, failed, skipped, [failure lines])."""
    by_name = {i["name"]: i for i in insts}
    root = ET.parse(junit_in).getroot()
    root.set("name", suite)
    counts = [0, 0, 0]
    report = []
    seen = set()
    for case in root.iter("testcase"):
        inst = by_name[case.get("name")]
        seen.add(inst["name"])
        case.set("classname", "gpusim." + inst["test"])
        props = ET.Element("properties")
        for k, v in (("test", inst["test"]), ("seed", inst["seed"]), ("count", inst["count"]),
                     ("rotating", inst["rotating"] or None), ("command", repro(inst, build))):
            if v is not None:
                ET.SubElement(props, "property", name=k, value=str(v))
        case.insert(0, props)
        out_el = case.find("system-out")
        out = (out_el.text or "") if out_el is not None else ""
        if case.find("failure") is not None or case.find("error") is not None or \
                case.get("status") == "fail":
            counts[1] += 1
            timed_out = inst["timeout"] and float(case.get("time", 0)) >= 0.99 * inst["timeout"]
            check = "timeout after %g s" % inst["timeout"] if timed_out else first_check(out)
            fails = case.findall("failure") or [ET.SubElement(case, "failure")]
            for f in fails:  # what a dashboard shows: the check and the command
                f.set("message", "%s; reproduce with: %s" % (check, repro(inst, build)))
            first = len(report)
            report.append("FAILED %s%s%s: reproduce with: %s" % (
                inst["name"], "" if inst["seed"] is None else " (seed %d)" % inst["seed"],
                " (timeout after %g s)" % inst["timeout"] if timed_out else "", repro(inst, build)))
            for line in sorted(set(re.findall(r"^.*reproduce.*$", out, re.M))):
                if "(waves into a folder" not in line:  # not tb_seed's banner
                    report.append("    the test says: " + line.strip())
            if waves and timed_out:
                report.append("    waves: none: a timeout, a re-run with waves would time out too")
            elif waves:
                w = fail_waves(inst, build, out, wavedir)
                if isinstance(w, str):
                    report.append("    waves: none: " + w)
                for f in w if isinstance(w, list) else []:
                    report.append("    waves: %s (view: gtkwave %s)" % (
                        show(f), show(f[:-4] + ".gtkw")))
                    ET.SubElement(props, "property", name="waves", value=show(f))
            fails[0].text = "\n".join(report[first:]) + "\n"
        elif case.find("skipped") is not None or case.get("status") in ("notrun", "disabled"):
            counts[2] += 1
        else:
            counts[0] += 1
        if inst["seed"] is None:
            drawn = re.search(r"^seed ([0-9]+): reproduce with GPUSIM_SEED", out, re.M)
            if drawn:
                report.append("WARNING %s drew its seed %s from the clock: give it seeds= in the "
                              "list so it is fixed" % (inst["name"], drawn.group(1)))
    for inst in insts:  # CTest wrote no case (it could not start the test)
        if inst["name"] not in seen:
            counts[1] += 1
            report.append("FAILED %s: no result from ctest; reproduce with: %s"
                          % (inst["name"], repro(inst, build)))
            case = ET.SubElement(root, "testcase", name=inst["name"],
                                 classname="gpusim." + inst["test"], status="fail")
            ET.SubElement(case, "failure", message="no result from ctest")
    root.set("tests", str(sum(counts)))
    root.set("failures", str(counts[1]))
    root.set("skipped", str(counts[2]))
    ET.ElementTree(root).write(junit_out, encoding="UTF-8", xml_declaration=True)
    return counts[0], counts[1], counts[2], report


def closing_line(passed, failed, skipped):
    line = "%d passed, %d failed" % (passed, failed)
    return line + (", %d skipped" % skipped if skipped else "")


def rotating_line(insts):
    rot = sorted({(i["test"], i["seed"]) for i in insts if i["rotating"]})
    return ["rotating seed: %s GPUSIM_SEED=%d" % r for r in rot]


def cmd_run(a):
    build = os.path.abspath(a.build)
    k, n = parse_shard(a.shard)
    rules = read_list(a.list)
    insts = instances(ctest_tests(build, a.tests, a.work), rules, a.rotate_seed, build,
                      a.exclude)
    mine = shard_of(insts, k, n)
    tag = "%d-of-%d" % (k, n)
    work = os.path.join(a.work, tag)
    junit = os.path.abspath(a.junit or os.path.join(a.work, "junit-%s.xml" % tag))
    print("regress: %s, shard %d/%d: %d of %d instances" % (show(a.list), k, n,
                                                          len(mine), len(insts)))
    for line in rotating_line(mine):
        print(line)
    if a.dry_run:
        for i in mine:
            print("  %s: %s" % (i["name"], repro(i, build)))
        return 0
    os.makedirs(work, exist_ok=True)
    write_ctest_file(mine, os.path.join(work, "CTestTestfile.cmake"), build)
    raw = os.path.join(work, "ctest-junit.xml")
    if os.path.exists(raw):
        os.remove(raw)
    start = time.time()
    sys.stdout.flush()
    subprocess.run(["ctest", "-j%d" % a.jobs, "--output-on-failure", "--output-junit", raw],
                   cwd=work)
    if not mine:
        ET.ElementTree(ET.Element("testsuite", name="gpusim shard %d/%d" % (k, n), tests="0")).write(
            junit, encoding="UTF-8", xml_declaration=True)
        passed = failed = skipped = 0
        report = []
    else:
        passed, failed, skipped, report = annotate(
            raw, mine, build, junit, "gpusim shard %d/%d" % (k, n), a.waves,
            os.path.join(a.work, "waves"))
    print("\n".join(report + rotating_line(mine)))
    print("regress: shard %d/%d in %.1f s; JUnit %s" % (k, n, time.time() - start,
                                                       show(junit)))
    print(closing_line(passed, failed, skipped))
    return 1 if failed else 0


# ------------------------------------------------------------------ merging
def merge(paths, out, expect=None):
    """One JUnit file from the shards' (a testsuites root, a suite a shard);
    (passed, failed, skipped, report).  A missing or unreadable shard file,
    or a case in two shards, is a failure."""
    root = ET.Element("testsuites", name="gpusim regress")
    report, names = [], {}
    counts = [0, 0, 0]
    for p in paths:
        try:
            suite = ET.parse(p).getroot()
        except (OSError, ET.ParseError) as e:
            counts[1] += 1
            report.append("FAILED shard report %s: %s" % (p, e))
            continue
        root.append(suite)
        for case in suite.iter("testcase"):
            name = case.get("name")
            if name in names:
                counts[1] += 1
                report.append("FAILED %s: in %s and in %s" % (name, names[name], p))
            names[name] = p
            cmd = case.find("properties/property[@name='command']")
            if case.find("failure") is not None or case.find("error") is not None:
                counts[1] += 1
                report.append("FAILED %s: reproduce with: %s"
                              % (name, cmd.get("value") if cmd is not None else "?"))
                for w in case.findall("properties/property[@name='waves']"):
                    report.append("    waves: %s" % w.get("value"))
            elif case.find("skipped") is not None or case.get("status") in ("notrun", "disabled"):
                counts[2] += 1
            else:
                counts[0] += 1
    for key, idx in (("tests", None), ("failures", 1), ("skipped", 2)):
        root.set(key, str(sum(counts) if idx is None else counts[idx]))
    ET.ElementTree(root).write(out, encoding="UTF-8", xml_declaration=True)
    return counts[0], counts[1], counts[2], report


def cmd_merge(a):
    passed, failed, skipped, report = merge(a.files, a.output)
    print("\n".join(report))
    print(closing_line(passed, failed, skipped))
    return 1 if failed else 0


# ------------------------------------------------------------------ Slurm
class Stopped(Exception):
    pass


def on_signal(signum, frame):
    raise Stopped("signal %d" % signum)


def submit_wait(sb):
    """Run sbatch --parsable --wait @sb: (exit status, job id, its stderr).
    Interrupted (SIGINT, SIGTERM), it cancels the job array it submitted
    and stops sbatch before it passes the interruption on."""
    p = subprocess.Popen(sb, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    job = None
    old = [signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)]
    try:
        job = p.stdout.readline().strip().split(";")[0] or None  # printed at submission
        p.wait()
        return p.returncode, job, p.stderr.read().strip()
    except (Stopped, KeyboardInterrupt):
        if job:
            subprocess.run(["scancel", job])
            print("regress: interrupted: job %s cancelled" % job, file=sys.stderr)
        p.terminate()
        p.wait()
        raise
    finally:
        for s, h in zip((signal.SIGINT, signal.SIGTERM), old):
            signal.signal(s, h)


def cmd_slurm(a):
    """The shards as one Slurm job array (sbatch --array=1-N --wait), then their
    JUnit files merged into one report."""
    if a.shards < 1:
        raise UsageError("bad --shards %d" % a.shards)
    build = os.path.abspath(a.build)
    insts = instances(ctest_tests(build, a.tests, a.work), read_list(a.list), a.rotate_seed, build,
                      a.exclude)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    d = os.path.join(a.work, "slurm-" + stamp)
    os.makedirs(d)
    run = [sys.executable, os.path.abspath(__file__), "run", "--build", build, "--work", a.work,
           "--list", os.path.abspath(a.list), "--tests", os.path.abspath(a.tests), "--rotate-seed", str(a.rotate_seed),
           "-j", str(a.jobs)] + (["--exclude", a.exclude] if a.exclude else []) + \
        ([] if a.waves else ["--no-waves"])
    script = os.path.join(d, "shard.sbatch")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n# generated by tb/regress/regress.py slurm\n"
                "cd %s || exit 1\nexec %s --shard \"$SLURM_ARRAY_TASK_ID/%d\" "
                "--junit %s/junit-\"$SLURM_ARRAY_TASK_ID\".xml\n"
                % (shlex.quote(ROOT), " ".join(shlex.quote(w) for w in run), a.shards,
                   shlex.quote(d)))
    sb = ["sbatch", "--parsable", "--wait", "--array=1-%d" % a.shards, "--job-name=gpusim-regress",
          "--cpus-per-task=%d" % a.jobs, "--output=%s/shard-%%a.log" % d] + \
        (["--time=%d" % a.time_limit] if a.time_limit else []) + a.sbatch_arg + [script]
    print("regress: %d instances in %d shards: %s" % (len(insts), a.shards, " ".join(sb)))
    for line in rotating_line(insts):
        print(line)
    start = time.time()
    sys.stdout.flush()
    rc, job, err = submit_wait(sb)
    print("regress: sbatch: job %s, exit %d%s" % (job or "?", rc, (": " + err) if err else ""))
    junit = os.path.abspath(a.junit or os.path.join(d, "junit.xml"))
    passed, failed, skipped, report = merge(
        [os.path.join(d, "junit-%d.xml" % s) for s in range(1, a.shards + 1)], junit)
    want = len(insts) if not a.exclude else None
    if want is not None and passed + failed + skipped != want:
        report.append("FAILED the shards reported %d cases, the list has %d instances"
                      % (passed + failed + skipped, want))
        failed += 1
    print("\n".join(report + rotating_line(insts)))
    print("regress: %d shards through Slurm in %.1f s; logs %s/shard-N.log; JUnit %s"
          % (a.shards, time.time() - start, show(d), show(junit)))
    print(closing_line(passed, failed, skipped))
    return 1 if failed or rc else 0


# ------------------------------------------------------------------ main
def main(argv):
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--build", default=os.path.join(ROOT, "build"), help="build folder")
    common.add_argument("--work", help="the runner's folder (default BUILD/regress)")
    common.add_argument("--list", default=os.path.join(ROOT, "tb", "regress", "ci.list"),
                        help="the test list (default tb/regress/ci.list)")
    common.add_argument("--tests", default=os.path.join(ROOT, "tb", "tests.cmake"),
                        help="the CTest file the list picks from (default tb/tests.cmake)")
    common.add_argument("--rotate-seed", type=int, default=None,
                        help="the rotating seed (default: from the clock)")
    common.add_argument("-j", "--jobs", type=int, default=2, help="ctest -j (a shard)")
    common.add_argument("--exclude", help="leave out the tests whose CTest name matches")
    common.add_argument("--junit", help="the JUnit file to write")
    common.add_argument("--no-waves", dest="waves", action="store_false",
                        help="no re-run with waves of a failure")
    p = argparse.ArgumentParser(description="gpusim regression runner over CTest")
    sub = p.add_subparsers(dest="cmd")
    r = sub.add_parser("run", parents=[common], help="run one shard (the default)")
    r.add_argument("--shard", default="1/1", help="K/N: run the K-th of N shards")
    r.add_argument("--dry-run", action="store_true", help="list the shard's instances only")
    s = sub.add_parser("slurm", parents=[common], help="the shards as a Slurm job array")
    s.add_argument("--shards", type=int, required=True)
    s.add_argument("--time-limit", type=int, default=0, help="sbatch --time, minutes a shard")
    s.add_argument("--sbatch-arg", action="append", default=[], help="passed to sbatch")
    m = sub.add_parser("merge", help="merge the shards' JUnit files")
    m.add_argument("-o", "--output", required=True)
    m.add_argument("files", nargs="+")
    if not argv or argv[0] not in ("run", "slurm", "merge", "-h", "--help"):
        argv = ["run"] + argv
    a = p.parse_args(argv)
    if a.cmd != "merge":
        a.build = os.path.abspath(a.build)
        a.work = os.path.abspath(a.work or os.path.join(a.build, "regress"))
    if getattr(a, "rotate_seed", 0) is None:
        a.rotate_seed = (time.time_ns() ^ os.getpid()) % 1000000000
    try:
        return {"run": cmd_run, "slurm": cmd_slurm, "merge": cmd_merge}[a.cmd](a)
    except UsageError as e:
        print("regress: %s" % e, file=sys.stderr)
        return 2
    except FileNotFoundError as e:  # a list or a tests file
        print("regress: %s: %s" % (e.filename, e.strerror), file=sys.stderr)
        return 2
    except Stopped as e:
        print("regress: stopped by %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
