#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The cost of counting every test with no code: the 1,000-test suite built
# with GTest::gtest_main (plain) and with allocgate::gtest_main, run
# interleaved round by round so that machine noise hits every mode alike:
# plain; counted; counted with the leak check (--allocgate_fail_on_leak);
# counted writing the report (--allocgate_out). Prints each mode's median
# wall time and its ratio to plain.
# Usage: test_suite_overhead.sh BIN_DIR [ROUNDS]
set -euo pipefail
bin_dir=$1
rounds=${2:-11}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

modes=(plain counted leak_check report)
run_mode() {
  case $1 in
    plain) "$bin_dir/test_suite_plain" ;;
    counted) "$bin_dir/test_suite_counted" ;;
    leak_check) "$bin_dir/test_suite_counted" --allocgate_fail_on_leak ;;
    report) "$bin_dir/test_suite_counted" --allocgate_out="$out/report.json" ;;
  esac
}
TIMEFORMAT=%R
for ((r = 0; r < rounds; r++)); do
  for m in "${modes[@]}"; do
    { time run_mode "$m" >/dev/null 2>&1; } 2>>"$out/$m.wall"
  done
done

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
range() { sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.3f-%.3f", lo, hi}'; }
plain=$(median <"$out/plain.wall")
echo "wall time of the 1,000-test suite (median of $rounds runs; range)"
for m in "${modes[@]}"; do
  wall=$(median <"$out/$m.wall")
  printf '  %-10s %6.3f s  (%s s)  %.3fx plain\n' "$m" "$wall" "$(range <"$out/$m.wall")" \
    "$(awk -v a="$wall" -v b="$plain" 'BEGIN {print a / b}')"
done
