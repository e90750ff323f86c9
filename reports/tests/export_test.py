# SPDX-License-Identifier: Apache-2.0
"""`allocgate export` against each format's published field list, checked
here independently of allocgate's code:

- github-action-benchmark, `tool: customSmallerIsBetter` (its README, "Examples",
  custom benchmarks): a JSON array of objects with `name` (string), `unit`
  (string) and `value` (number), and optionally `range` (string) and `extra`
  (string); nothing else.
- Bencher Metric Format (bencher.dev, "Bencher Metric Format"): a JSON object
  keyed by benchmark name; each value an object keyed by measure slug; each
  measure an object with `value` (number) and optionally `lower_value` and
  `upper_value` (numbers); nothing else.

The figures must be the report's own, for allocgate's reports and for a
Google Benchmark JSON.

Usage: export_test.py ALLOCGATE FIXTURES_DIR
"""
import json
import numbers
import subprocess
import sys

allocgate, fixtures = sys.argv[1], sys.argv[2]
failed = []


def check(condition, what):
    if not condition:
        failed.append(what)
        print("FAILED:", what, file=sys.stderr)


def is_number(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def export(report, fmt):
    run = subprocess.run([allocgate, "export", report, "--format", fmt], capture_output=True, text=True)
    check(run.returncode == 0, f"export {report} --format {fmt}: exit {run.returncode}: {run.stderr}")
    return json.loads(run.stdout) if run.returncode == 0 else None


def figures(report):
    """name -> (allocs/op, bytes/op or None), from the report as written."""
    doc = json.load(open(report))
    ours = "allocgate_schema_version" in doc["context"]
    out = {}
    for b in doc["benchmarks"]:
        if not ours and b.get("run_type") == "aggregate":
            continue
        allocs = b["allocs_per_op"] if ours else b["allocs/op"]
        bytes_ = b.get("bytes_per_op") if ours else b.get("bytes/op")
        name = b["name"] if ours else b["run_name"]
        old = out.get(name, (0, None))
        out[name] = (max(old[0], allocs), bytes_ if bytes_ is not None else old[1])
    return out


for fixture in ("report.json", "google-benchmark.json"):
    report = f"{fixtures}/{fixture}"
    expected = figures(report)

    gab = export(report, "github-action-benchmark")
    if gab is not None:
        check(isinstance(gab, list) and gab, f"{fixture}: github-action-benchmark is not a non-empty array")
        for entry in gab:
            check(isinstance(entry, dict), f"{fixture}: an entry is not an object: {entry}")
            check({"name", "unit", "value"} <= entry.keys(), f"{fixture}: an entry lacks name, unit or value: {entry}")
            check(entry.keys() <= {"name", "unit", "value", "range", "extra"}, f"{fixture}: unknown fields: {entry}")
            check(isinstance(entry.get("name"), str) and isinstance(entry.get("unit"), str),
                  f"{fixture}: name or unit is not a string: {entry}")
            check(is_number(entry.get("value")), f"{fixture}: value is not a number: {entry}")
            for optional in ("range", "extra"):
                check(optional not in entry or isinstance(entry[optional], str), f"{fixture}: {optional} not a string")
        by_name = {e["name"]: e for e in gab}
        check(len(by_name) == len(gab), f"{fixture}: a name appears twice")
        for name, (allocs, bytes_) in expected.items():
            e = by_name.get(f"{name} - allocs/op")
            check(e is not None and e["value"] == allocs and e["unit"] == "allocs/op",
                  f"{fixture}: {name}'s allocs/op entry is {e}, not {allocs}")
            if bytes_ is not None:
                e = by_name.get(f"{name} - bytes/op")
                check(e is not None and e["value"] == bytes_, f"{fixture}: {name}'s bytes/op entry is {e}")

    bmf = export(report, "bmf")
    if bmf is not None:
        check(isinstance(bmf, dict) and bmf, f"{fixture}: BMF is not a non-empty object")
        for name, measures in bmf.items():
            check(isinstance(measures, dict) and measures, f"{fixture}: {name}: measures are not an object")
            for slug, metric in measures.items():
                check(isinstance(metric, dict) and "value" in metric, f"{fixture}: {name}.{slug} has no value")
                check(metric.keys() <= {"value", "lower_value", "upper_value"}, f"{fixture}: {name}.{slug}: {metric}")
                check(all(is_number(v) for v in metric.values()), f"{fixture}: {name}.{slug}: not numbers: {metric}")
                if "lower_value" in metric and "upper_value" in metric:
                    check(metric["lower_value"] <= metric["value"] <= metric["upper_value"],
                          f"{fixture}: {name}.{slug}: value outside its bounds: {metric}")
        for name, (allocs, bytes_) in expected.items():
            m = bmf.get(name, {})
            check(m.get("allocs_per_op", {}).get("value") == allocs, f"{fixture}: {name}: BMF allocs_per_op {m}")
            if bytes_ is not None:
                check(m.get("bytes_per_op", {}).get("value") == bytes_, f"{fixture}: {name}: BMF bytes_per_op {m}")
        check(set(bmf) == set(expected), f"{fixture}: BMF names {sorted(bmf)} are not the report's {sorted(expected)}")

sys.exit(1 if failed else 0)
