# SPDX-License-Identifier: Apache-2.0
"""`allocgate export --format pprof` and `--format collapsed`, read by the
tools people read them with, checked against the report as written:

- pprof: `go tool pprof -top -lines`, narrowed to each case by its `case`
  label, prints every site of the case (function, file:line) with the
  report's allocs/op and bytes/op; `-diff_base` of two exports shows a site
  injected into the second, and nothing else.
- collapsed: every line is `CASE;frame;...;frame N`, a stack of the report's,
  outermost first, with its allocs/op, as a whole number in fixed notation
  (scaled to allocations per 10^k operations when a count has a fraction):
  each line matches flamegraph.pl's and speedscope's own line rules, and a
  name's line separators (U+2028, U+2029) are escaped, never line ends.

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
expected = sorted(f"{b['name']};{';'.join(s['frames'])} {round(s['allocs_per_op'])}"
                  for b in doc["benchmarks"] for s in b.get("stacks", []))
check(all(float(s["allocs_per_op"]).is_integer() for b in doc["benchmarks"] for s in b.get("stacks", [])),
      "the fixture's stack counts are whole")
lines = open(folded).read().splitlines()
check(len(expected) > 0, "the fixture has stacks")
check(sorted(lines) == expected, f"collapsed: {len(lines)} lines, {len(expected)} expected; first {lines[:2]}")

# The readers' own line rules: flamegraph.pl's (stackcollapse output) and
# speedscope's (importFromBGFlameGraph, a multiline regex, where U+2028 and
# U+2029 end a line as \n does).
FLAMEGRAPH_PL = re.compile(r"^(.*)\s+?(\d+(?:\.\d*)?)$")
SPEEDSCOPE = re.compile(r"^(.*) (\d+)$", re.MULTILINE)


def read_as_the_readers_do(path):
    text = open(path, encoding="utf-8").read()
    js_lines = re.split("[\n\r\u2028\u2029]", text.rstrip("\n"))
    speedscope = [(m.group(1), int(m.group(2))) for m in SPEEDSCOPE.finditer("\n".join(js_lines))]
    flamegraph = [FLAMEGRAPH_PL.match(line) for line in text.splitlines()]
    return js_lines, speedscope, flamegraph


js_lines, speedscope, flamegraph = read_as_the_readers_do(folded)
check(len(speedscope) == len(js_lines) == len(lines), f"speedscope reads every line: {len(speedscope)} of {len(lines)}")
check(all(flamegraph), "flamegraph.pl reads every line")

# Counts with fractions and of every size, and a name with line separators.
scaled = json.loads(json.dumps(doc))
stacked = [b for b in scaled["benchmarks"] if b.get("stacks")]
stacked[0]["name"] = "line\u2028sep\u2029para"
stacked[0]["stacks"][0]["allocs_per_op"] = 1e-05
stacked[-1]["stacks"][-1]["allocs_per_op"] = 100000
scaled_report = os.path.join(scratch, "scaled.json")
json.dump(scaled, open(scaled_report, "w"))
scaled_folded = os.path.join(scratch, "scaled.folded")
result = run([allocgate, "export", scaled_report, "--format", "collapsed", "--out", scaled_folded])
check(result.returncode == 0, f"export of fractional counts: {result.stderr}")
check(result.stderr == "allocgate: the counts are allocations per 100000 operations: the smallest such scale at "
      "which every count is whole\n", f"the scale is said: {result.stderr!r}")
scaled_lines = open(scaled_folded, encoding="utf-8").read().splitlines()
js_lines, speedscope, flamegraph = read_as_the_readers_do(scaled_folded)
check(len(speedscope) == len(js_lines) == len(scaled_lines),
      f"speedscope reads every scaled line: {len(speedscope)} of {len(scaled_lines)}: {scaled_lines[:3]}")
check(all(flamegraph), f"flamegraph.pl reads every scaled line: {scaled_lines[:3]}")
check(any(line.startswith("line\\u2028sep\\u2029para;") and line.endswith(" 1") for line in scaled_lines),
      f"the separators escaped, 1e-05 allocs/op is 1 per 100000: {scaled_lines[:2]}")
check(any(line.endswith(" 10000000000") for line in scaled_lines), "100000 allocs/op in fixed notation, scaled")

# A count so large that no scale keeps it exact: rounded, and said so.
stacked[-1]["stacks"][-1]["allocs_per_op"] = 4e15
json.dump(scaled, open(scaled_report, "w"))
result = run([allocgate, "export", scaled_report, "--format", "collapsed", "--out", scaled_folded])
check(result.stderr == "allocgate: the counts are allocations per operation, rounded to whole numbers\n",
      f"rounded: {result.stderr!r}")
scaled_lines = open(scaled_folded, encoding="utf-8").read().splitlines()
check(any(line.endswith(" 4000000000000000") for line in scaled_lines),
      f"4e15 in fixed notation: {[l[-20:] for l in scaled_lines]}")
check(all(FLAMEGRAPH_PL.match(line) for line in scaled_lines), "flamegraph.pl reads the rounded lines")

# Nothing to profile is said, in one line, with what to do.
bare = os.path.join(fixtures, "google-benchmark.json")
result = run([allocgate, "export", bare, "--format", "pprof", "--out", os.path.join(scratch, "none.pb.gz")])
check(result.returncode == 2 and "--allocgate_sites" in result.stderr.splitlines()[-1],
      f"no sites: exit {result.returncode}: {result.stderr}")
check(not os.path.exists(os.path.join(scratch, "none.pb.gz")), "no file is written when there is nothing to write")

print(f"{len(failed)} failed" if failed else "all passed")
sys.exit(1 if failed else 0)
