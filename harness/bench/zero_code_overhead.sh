#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cost of counting every benchmark with no code, for the three
# zero_code_suite builds (plain: Google Benchmark alone; hooked: allocgate's
# hook, loops not counted; counted: allocgate::benchmark_main), run
# interleaved round by round so that machine noise hits all three alike:
#  1. the wall time of the whole 40-benchmark suite, per build, and its ratio
#     to the plain build;
#  2. the median time per iteration of the one-allocation loop (all 40
#     benchmarks' runs pooled), counted against hooked: what counting the
#     loop adds beyond the hook.
# Usage: zero_code_overhead.sh BIN_DIR [ROUNDS]
set -euo pipefail
bin_dir=$1
rounds=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

builds=(plain hooked counted)
TIMEFORMAT=%R
for ((r = 0; r < rounds; r++)); do
  for b in "${builds[@]}"; do
    { time "$bin_dir/zero_code_suite_$b" --benchmark_min_time=0.05 --benchmark_out="$out/$b.$r.json" \
        --benchmark_out_format=json >/dev/null 2>&1; } 2>>"$out/$b.wall"
  done
done

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
range() { sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.2f-%.2f", lo, hi}'; }
per_iteration() {
  jq -r '.benchmarks[] | select(.run_type == "iteration") | .cpu_time' "$out/$1".*.json | median
}

plain_wall=$(median <"$out/plain.wall")
echo "wall time of the 40-benchmark suite (median of $rounds runs; range)"
for b in "${builds[@]}"; do
  wall=$(median <"$out/$b.wall")
  printf '  %-8s %6.2f s  (%s s)  %.3fx plain\n' "$b" "$wall" "$(range <"$out/$b.wall")" \
    "$(awk -v a="$wall" -v b="$plain_wall" 'BEGIN {print a / b}')"
done
echo "time per iteration of a one-allocation loop (median of all runs)"
hooked=$(per_iteration hooked)
for b in "${builds[@]}"; do
  ns=$(per_iteration "$b")
  printf '  %-8s %6.2f ns  %.3fx hooked\n' "$b" "$ns" "$(awk -v a="$ns" -v b="$hooked" 'BEGIN {print a / b}')"
done
