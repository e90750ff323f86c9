# SPDX-License-Identifier: Apache-2.0
"""`allocgate diff --junit`, read by an independent JUnit parser (junitparser,
as GitLab's and Jenkins' readers would): one test case per gated case, a
regression a failure with the gate's line and its sites, a case without a
bound or a bound without a case skipped, or failed under --strict.

Usage: junit_test.py ALLOCGATE REPORT_FIXTURE
"""
import json
import os
import subprocess
import sys
import tempfile

from junitparser import Error, Failure, JUnitXml, Skipped

allocgate, fixture = sys.argv[1], sys.argv[2]
report = json.load(open(fixture))
toolchain = report["context"]["allocgate_toolchain"]
cases = {b["name"]: b for b in report["benchmarks"]}
names = sorted(cases)
regressed, unbounded = "log_report/v1/2000", "log_report/v4/200"
assert regressed in cases and unbounded in cases and cases[regressed]["sites"]

# Every case bounded at its count, but one a bound too low, one without a
# bound, and a bound for a case the report does not have.
bounds = {n: {"allocs_per_op": cases[n]["allocs_per_op"]} for n in names if n != unbounded}
bounds[regressed] = {"allocs_per_op": cases[regressed]["allocs_per_op"] - 1}
bounds["ghost/case/1"] = {"allocs_per_op": 0}

failed = []


def check(condition, what):
    if not condition:
        failed.append(what)
        print("FAILED:", what, file=sys.stderr)


with tempfile.TemporaryDirectory() as work:
    bounds_file = os.path.join(work, "bounds.json")
    json.dump({"allocgate_bounds_version": 1, "toolchains": {toolchain: bounds}}, open(bounds_file, "w"))
    for strict in (False, True):
        junit = os.path.join(work, "junit.xml")
        args = [allocgate, "diff", fixture, "--bounds", bounds_file, "--junit", junit] + (["--strict"] if strict else [])
        run = subprocess.run(args, capture_output=True, text=True)
        check(run.returncode == 1, f"strict={strict}: exit {run.returncode}, not 1 (a regression)")
        xml = JUnitXml.fromfile(junit)
        testcases = {case.name: case for suite in xml for case in suite}
        check(len(testcases) == len(names) + 1, f"strict={strict}: {len(testcases)} test cases, not {len(names) + 1}")

        results = testcases[regressed].result
        check(len(results) == 1 and isinstance(results[0], Failure), f"{regressed} is not one failure: {results}")
        message = results[0].message if results else ""
        check(message.startswith(f"REGRESSION {regressed}: allocs/op "), f"failure message: {message!r}")
        check(" allocs/op from " in (results[0].text or ""), f"the failure's text names no site: {results[0].text!r}")

        for name in (unbounded, "ghost/case/1"):
            kind = Failure if strict else Skipped
            results = testcases[name].result
            check(len(results) == 1 and isinstance(results[0], kind),
                  f"strict={strict}: {name} is not one {kind.__name__}: {results}")
        passed = [n for n in names if n not in (regressed, unbounded)]
        for name in passed:
            check(testcases[name].result == [], f"{name} did not pass: {testcases[name].result}")
        check(not any(isinstance(r, Error) for c in testcases.values() for r in c.result), "an unexpected error")

        suite = next(iter(xml))
        check(suite.tests == len(names) + 1, f"suite tests={suite.tests}")
        check(suite.failures == (3 if strict else 1), f"strict={strict}: suite failures={suite.failures}")
        check(suite.skipped == (0 if strict else 2), f"strict={strict}: suite skipped={suite.skipped}")

sys.exit(1 if failed else 0)
