#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""junit_summary - print the regression's closing line from a JUnit XML file.

Usage: junit_summary.py junit.xml [BUILD_DIR]
Prints, for each failed test, the exact command that reproduces it (from
the CTest record), then the line "N passed, N failed[, N skipped]".
"""
import sys
import xml.etree.ElementTree as ET


def main():
    root = ET.parse(sys.argv[1]).getroot()
    build = sys.argv[2] if len(sys.argv) > 2 else "build"
    passed = failed = skipped = 0
    for case in root.iter("testcase"):
        status = case.get("status", "run")
        if case.find("failure") is not None or case.find("error") is not None or status == "fail":
            failed += 1
            print("FAILED %s: reproduce with: (cd %s && ctest -R '^%s$' --output-on-failure)"
                  % (case.get("name"), build, case.get("name")))
        elif case.find("skipped") is not None or status in ("notrun", "disabled"):
            skipped += 1
        else:
            passed += 1
    line = "%d passed, %d failed" % (passed, failed)
    if skipped:
        line += ", %d skipped" % skipped
    print(line)


if __name__ == "__main__":
    main()
