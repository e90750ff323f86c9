# SPDX-License-Identifier: Apache-2.0
"""`allocgate export --format pprof` and `--format collapsed`, read by the
tools people read them with, checked against the report as written:

- pprof: `go tool pprof -top -lines`, narrowed to each case by its `case`
  label, prints every site of the case (function, file:line) with the
  report's allocs/op and bytes/op; `-diff_base` of two exports shows a site
  injected into the second, and nothing else.
- collapsed: every line is `CASE;frame;...;frame N`, a stack of the report's,
  outermost first, with its allocs/op.

Usage: pprof_export_test.py ALLOCGATE GO FIXTURES_DIR SCRATCH_DIR
"""
import json
import os
import re
import subprocess
import sys

allocgate, go, fixtures, scratch = sys.argv[1:5]
os.makedirs(scratch, exist_ok=True)
failed = []


def check(condition, what):
    if not condition:
        failed.append(what)
        print("FAILED:", what, file=sys.stderr)


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, HOME=scratch), **kwargs)


def export(report, fmt, out):
    result = run([allocgate, "export", report, "--format", fmt, "--out", out])
    check(result.returncode == 0, f"export {report} --format {fmt}: exit {result.returncode}: {result.stderr}")


def pprof_top(profile, *options):
    """(function, file:line) -> flat value, from go tool pprof -top -lines."""
    result = run([go, "tool", "pprof", "-top", "-lines", "-nodecount=1000", "-nodefraction=0", "-symbolize=none", *options, profile])
    check(result.returncode == 0, f"go tool pprof {options} {profile}: {result.stderr}")
    rows = {}
    for line in result.stdout.splitlines():
        m = re.match(r"^\s*(-?[\d.]+)(\w*)\s+[-\d.]+%\s+[-\d.]+%\s+[-\d.]+\w*\s+[-\d.]+%\s+(.*) (\S+:\d+)$", line)
        if m:
            value = float(m.group(1)) * {"": 1, "B": 1, "kB": 1024, "MB": 1024 ** 2}.get(m.group(2), 1)
            rows[(m.group(3), m.group(4))] = value
    return rows, result.stdout


report = os.path.join(fixtures, "report.json")
doc = json.load(open(report))
profile = os.path.join(scratch, "allocs.pb.gz")
export(report, "pprof", profile)
check(open(profile, "rb").read(2) == b"\x1f\x8b", "the profile is gzipped")

cases_with_sites = [b for b in doc["benchmarks"] if b.get("sites")]
check(len(cases_with_sites) >= 3, "the fixture has cases with sites")
for case in cases_with_sites[:6]:
    focus = "case=^" + re.escape(case["name"]) + "$"
    objects, text = pprof_top(profile, "-sample_index=alloc_objects", "-tagfocus=" + focus)
    space, _ = pprof_top(profile, "-sample_index=alloc_space", "-unit=B", "-tagfocus=" + focus)
    expected = {}
    for s in case["sites"]:
        key = (s["function"], f"{s['file']}:{s['line']}")
        a, b = expected.get(key, (0, 0))
        expected[key] = (a + round(s["allocs_per_op"]), b + round(s["bytes_per_op"]))
    check(set(objects) == set(expected), f"{case['name']}: pprof's sites {sorted(objects)} != {sorted(expected)}\n{text}")
    for key, (allocs, bytes_) in expected.items():
        check(objects.get(key) == allocs, f"{case['name']} {key}: alloc_objects {objects.get(key)} != {allocs}")
        check(space.get(key) == bytes_, f"{case['name']} {key}: alloc_space {space.get(key)} != {bytes_}")

# A site injected into one case: -diff_base shows it, and only it.
head = json.loads(json.dumps(doc))
target = cases_with_sites[0]
injected = {"function": "render_with_a_new_copy", "file": "src/render.cpp", "line": 77, "allocs_per_op": 3,
            "bytes_per_op": 96}
next(b for b in head["benchmarks"] if b["name"] == target["name"])["sites"].append(injected)
json.dump(head, open(os.path.join(scratch, "head.json"), "w"))
export(os.path.join(scratch, "head.json"), "pprof", os.path.join(scratch, "head.pb.gz"))
diff, text = pprof_top(os.path.join(scratch, "head.pb.gz"), "-sample_index=alloc_objects",
                       "-diff_base=" + profile)
nonzero = {k: v for k, v in diff.items() if v != 0}
check(nonzero == {("render_with_a_new_copy", "src/render.cpp:77"): 3}, f"-diff_base shows {nonzero}\n{text}")

# A hostile name reaches pprof's output escaped: no workflow command, no
# escape sequence, valid UTF-8 (protobuf's strings are UTF-8).
hostile = json.loads(json.dumps(doc))
hostile_case = next(b for b in hostile["benchmarks"] if b.get("sites"))
hostile_case["sites"][0]["function"] = "##[error]spoofed\x1b]52;c;eA==\x07"
json.dump(hostile, open(os.path.join(scratch, "hostile.json"), "w"))
export(os.path.join(scratch, "hostile.json"), "pprof", os.path.join(scratch, "hostile.pb.gz"))
result = subprocess.run([go, "tool", "pprof", "-top", "-nodefraction=0", "-symbolize=none",
                         os.path.join(scratch, "hostile.pb.gz")], capture_output=True,
                        env=dict(os.environ, HOME=scratch))
check(result.returncode == 0, f"go tool pprof on a hostile name: {result.stderr}")
check(b"##[" not in result.stdout and b"\x1b" not in result.stdout and b"\x07" not in result.stdout,
      f"a hostile name is escaped: {result.stdout!r}")
check(b"spoofed" in result.stdout, "the hostile name is still shown")
result.stdout.decode("utf-8")  # raises on invalid UTF-8

# Folded stacks.
folded = os.path.join(scratch, "allocs.folded")
export(report, "collapsed", folded)
expected = sorted(f"{b['name']};{';'.join(s['frames'])} {s['allocs_per_op']:g}"
                  for b in doc["benchmarks"] for s in b.get("stacks", []))
lines = open(folded).read().splitlines()
check(len(expected) > 0, "the fixture has stacks")
check(sorted(lines) == expected, f"collapsed: {len(lines)} lines, {len(expected)} expected; first {lines[:2]}")
for line in lines:
    check(re.fullmatch(r"[^\n]+ \d+(\.\d+)?", line) is not None, f"a folded line: {line!r}")

# Nothing to profile is said, in one line, with what to do.
bare = os.path.join(fixtures, "google-benchmark.json")
result = run([allocgate, "export", bare, "--format", "pprof", "--out", os.path.join(scratch, "none.pb.gz")])
check(result.returncode == 2 and "--allocgate_sites" in result.stderr.splitlines()[-1],
      f"no sites: exit {result.returncode}: {result.stderr}")
check(not os.path.exists(os.path.join(scratch, "none.pb.gz")), "no file is written when there is nothing to write")

print(f"{len(failed)} failed" if failed else "all passed")
sys.exit(1 if failed else 0)
