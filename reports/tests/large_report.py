#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a large report of a given shape, for the pages' size checks
(large_pages_test.sh) and for measuring a page by hand:

  large_report.py family N OUT          one benchmark family of N cases, BM_f/1 .. BM_f/N
  large_report.py families N S OUT      N single-case families, the first S with stacks and sites
  large_report.py tests N S OUT         a test report of N tests in suites of 10, the first S with sites and stacks
  large_report.py changed N OUT BASE    like families N N, every case's allocations one more than in BASE

Figures are drawn from a fixed seed: the same arguments write the same bytes.
"""
import json
import random
import sys

CONTEXT = {"allocgate_toolchain": "gcc-12-libstdc++-12", "allocgate_hook_live": "true"}


def stacks_and_sites(rng, allocs):
    frames = ["main", "run_case", "parse_%d" % rng.randrange(50), "std::vector<int>::_M_realloc_insert"]
    sites = [{"function": frames[2], "file": "src/parse.cpp", "line": rng.randrange(1, 400),
              "allocs_per_op": allocs, "bytes_per_op": allocs * 32, "temporary_per_op": 0}]
    stacks = [{"frames": frames, "locations": ["", "", "src/parse.cpp:12", ""], "allocs_per_op": allocs,
               "bytes_per_op": allocs * 32, "temporary_per_op": 0}]
    return sites, stacks


def benchmark(rng, name, with_stacks, extra=0):
    allocs = rng.randrange(0, 40) + extra
    case = {"name": name, "run_name": name, "run_type": "iteration", "iterations": 1000,
            "real_time": rng.uniform(50, 5000), "cpu_time": 0, "time_unit": "ns",
            "allocs/op": allocs, "bytes/op": allocs * 32}
    if with_stacks:
        case["sites"], case["stacks"] = stacks_and_sites(rng, allocs)
    return case


def main(argv):
    rng = random.Random(7)
    shape = argv[1]
    context = dict(CONTEXT)
    if shape == "family":
        n, out = int(argv[2]), argv[3]
        cases = [benchmark(rng, "BM_f/%d" % (i + 1), False) for i in range(n)]
    elif shape in ("families", "changed"):
        n = int(argv[2])
        s = n if shape == "changed" else int(argv[3])
        out = argv[3] if shape == "changed" else argv[4]
        extra = 1 if shape == "changed" else 0
        cases = [benchmark(rng, "BM_%d" % i, i < s, extra) for i in range(n)]
    elif shape == "tests":
        n, s, out = int(argv[2]), int(argv[3]), argv[4]
        context["allocgate_tests"] = "googletest"
        cases = []
        for i in range(n):
            name = "Suite%d.Case%d" % (i // 10, i % 10)
            allocs = rng.randrange(0, 60)
            case = {"name": name, "run_name": name, "run_type": "iteration", "iterations": 1,
                    "allocs/op": allocs, "bytes/op": allocs * 40, "peak_bytes": allocs * 20,
                    "leaked_bytes/op": 84 if i % 997 == 5 else 0, "allocgate_kept_bytes": 0,
                    "allocgate_kept_blocks": 0, "allocgate_leaked_blocks": 1 if i % 997 == 5 else 0}
            if i < s:
                case["sites"], case["stacks"] = stacks_and_sites(rng, allocs)
            cases.append(case)
    else:
        sys.exit("unknown shape " + shape)
    with open(out, "w") as f:
        json.dump({"context": context, "benchmarks": cases}, f)


if __name__ == "__main__":
    main(sys.argv)
