#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# mock_suite.cpp's 1,000 tests, measured as a team adopting allocgate would:
#  1. wall time, the median of ROUNDS interleaved rounds: plain
#     (GTest::gmock_main), counted, with the leak check, warmed up
#     (--allocgate_warm_up), and with sites (--allocgate_sites);
#  2. the leak check's verdict against valgrind's: the tests allocgate finds
#     leaking and their bytes, and valgrind's definitely lost bytes;
#  3. the figures whole against 3 GoogleTest shards merged with
#     `allocgate merge`, cold and warmed up: how many cases differ.
# Usage: mock_suite_measure.sh BIN_DIR ALLOCGATE [ROUNDS]
set -euo pipefail
bin_dir=$1
allocgate=$2
rounds=${3:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
plain="$bin_dir/mock_suite_plain"
counted="$bin_dir/mock_suite_counted"

modes=(plain counted leak_check warm_up sites)
run_mode() {
  case $1 in
    plain) "$plain" ;;
    counted) "$counted" ;;
    leak_check) "$counted" --allocgate_fail_on_leak ;;
    warm_up) "$counted" --allocgate_warm_up ;;
    sites) "$counted" --allocgate_sites --allocgate_out="$out/sites.json" ;;
  esac
}
TIMEFORMAT=%R
for ((r = 0; r < rounds; r++)); do
  for m in "${modes[@]}"; do
    { time run_mode "$m" >/dev/null 2>&1 || true; } 2>>"$out/$m.wall"
  done
done
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
base=$(median <"$out/plain.wall")
echo "wall time, median of $rounds rounds:"
for m in "${modes[@]}"; do
  t=$(median <"$out/$m.wall")
  awk -v m="$m" -v t="$t" -v b="$base" 'BEGIN {printf "  %-11s %7.3f s  %6.2fx\n", m, t, t / b}'
done

echo "leak check:"
"$counted" --allocgate_out="$out/whole.json" >/dev/null 2>&1 || true
jq -r '[.benchmarks[] | select(.["leaked_bytes/op"] > 0)] | "  allocgate: \(length) tests leak \(map(.["leaked_bytes/op"]) | add // 0) bytes; \([.[] | .name] | join(", "))"' \
  "$out/whole.json"
jq -r '"  kept (reachable at their end, not leaks): \([.benchmarks[] | select(.allocgate_kept_bytes > 0)] | length) tests, \([.benchmarks[].allocgate_kept_bytes] | add) bytes"' \
  "$out/whole.json"
if command -v valgrind >/dev/null; then
  valgrind --leak-check=full --error-exitcode=0 "$plain" >/dev/null 2>"$out/valgrind.txt" || true
  echo "  valgrind: $(grep -E '(definitely|indirectly) lost:' "$out/valgrind.txt" | sed 's/^==[0-9]*== *//' | paste -sd ';')"
fi

echo "whole against 3 shards merged:"
figures() { jq -r '.benchmarks[] | "\(.name) \(.["allocs/op"]) \(.["bytes/op"])"' "$1" | sort; }
for warm in "" --allocgate_warm_up; do
  "$counted" $warm --allocgate_out="$out/whole$warm.json" >/dev/null 2>&1 || true
  for i in 0 1 2; do
    GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i "$counted" $warm --allocgate_out="$out/shard$i$warm.json" \
      >/dev/null 2>&1 || true
  done
  "$allocgate" merge "$out"/shard?"$warm".json --out "$out/merged$warm.json" 2>/dev/null
  differ=$(join <(figures "$out/whole$warm.json") <(figures "$out/merged$warm.json") | awk '$2 != $4 || $3 != $5' | wc -l)
  echo "  ${warm:-cold}: $differ of $(jq '.benchmarks | length' "$out/whole$warm.json") cases differ"
done
