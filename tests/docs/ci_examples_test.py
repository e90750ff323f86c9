# SPDX-License-Identifier: Apache-2.0
"""The README's "your build system / your CI" table against what the tests
run: each line it shows is in the file a test builds or reads, and the CI
examples are well-formed for their CI (GitLab's JUnit artifacts are the files
the job writes).

Usage: ci_examples_test.py SOURCE_DIR
"""
import os
import re
import sys

import yaml

source = sys.argv[1]
failed = []


def check(condition, what):
    if not condition:
        failed.append(what)
        print("FAILED:", what, file=sys.stderr)


def text(path):
    return open(os.path.join(source, path)).read()


# The table: | build or CI | `line` | tested file |; every `line` in a row is in
# that row's file.
readme = text("README.md")
rows = re.findall(r"^\| ([^|]+) \| (.+) \| \[`([^`]+)`\]\([^)]*\) \|$", readme, re.M)
check(len(rows) >= 6, f"the README's build and CI table has {len(rows)} rows, not 6 or more")
for name, lines, tested in rows:
    content = text(tested)
    for line in re.findall(r"`([^`]+)`", lines):
        check(line in content, f"README, {name.strip()}: `{line}` is not in {tested}")

# GitLab: the job's JUnit artifacts are the files its script writes.
gitlab = yaml.safe_load(text("examples/gate-your-project/ci/gitlab-ci.yml"))
job = gitlab["allocations"]
script = job["script"]
check(job["image"] == "debian:12", "the GitLab job does not run on Debian 12")
junit_files = job["artifacts"]["reports"]["junit"]
written = []
for command in script:
    if m := re.search(r"allocgate diff .*--junit (\S+)", command):
        written.append(m.group(1))
    if m := re.search(r"ctest --test-dir (\S+) .*--output-junit (\S+)", command):
        written.append(f"{m.group(1)}/{m.group(2)}")
check(sorted(written) == sorted(junit_files), f"GitLab writes {written}, its JUnit artifacts are {junit_files}")
check(job["artifacts"].get("when") == "always", "GitLab keeps the JUnit reports only when the job passes")

# GitHub: the gate step's shell keeps the gate's exit code through tee.
github = yaml.safe_load(text("examples/gate-your-project/ci/github-actions.yml"))
steps = github["jobs"]["gate"]["steps"]
gate = [s for s in steps if "allocgate diff" in s.get("run", "")]
check(len(gate) == 1 and gate[0].get("shell") == "bash", "GitHub's gate step does not run under bash -eo pipefail")

sys.exit(1 if failed else 0)
