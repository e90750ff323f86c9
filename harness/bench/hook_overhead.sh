#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The hook's cost, two ways, for the three hook_overhead builds (unhooked,
# default, headers):
#  1. time: the builds run interleaved round by round, so that machine noise
#     hits all three alike; each build's median ns/op and its ratio to the
#     build without allocgate.
#  2. instructions (when valgrind is installed): callgrind counts for a fixed
#     number of operations, which do not move with the machine's load. The
#     count for 2N operations minus the count for N is N operations' alone.
# Usage: hook_overhead.sh BIN_DIR [ROUNDS]
set -euo pipefail
bin_dir=$1
rounds=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

builds=(unhooked default headers)
for ((r = 0; r < rounds; r++)); do
  for b in "${builds[@]}"; do
    "$bin_dir/hook_overhead_$b" --benchmark_min_time=0.1 --benchmark_repetitions=3 --benchmark_format=json \
      --benchmark_out="$out/$b.$r.json" --benchmark_out_format=json >/dev/null
  done
done

# Median over all repetitions of all rounds of each benchmark's cpu_time, per build.
medians() {
  jq -s '[.[].benchmarks[] | select(.run_type == "iteration")] | group_by(.name)
         | map({key: .[0].name, value: (map(.cpu_time) | sort | .[(length / 2 | floor)])})
         | from_entries' "$out/$1".*.json
}
for b in "${builds[@]}"; do medians "$b" >"$out/$b.med"; done

echo "time per operation (median of $((rounds * 3)) runs each)"
printf '%-22s %12s %12s %12s %10s %10s\n' benchmark unhooked default headers default/un headers/un
jq -r -n --slurpfile u "$out/unhooked.med" --slurpfile c "$out/default.med" --slurpfile f "$out/headers.med" '
  $u[0] | keys[] as $k
  | [$k, $u[0][$k], $c[0][$k], $f[0][$k], ($c[0][$k] / $u[0][$k]), ($f[0][$k] / $u[0][$k])]
  | "\(.[0]) \(.[1]) \(.[2]) \(.[3]) \(.[4]) \(.[5])"' |
  while read -r name u c f rc rf; do
    printf '%-22s %9.2f ns %9.2f ns %9.2f ns %9.3fx %9.3fx\n' "$name" "$u" "$c" "$f" "$rc" "$rf"
  done

if ! command -v valgrind >/dev/null; then
  echo "(valgrind is not installed: no instruction counts)"
  exit 0
fi

# Instructions callgrind counts for COUNT operations of NAME in build B.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin_dir/hook_overhead_$1" --ops "$2" "$3" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo
echo "instructions per operation (callgrind)"
printf '%-22s %12s %12s %12s %10s %10s\n' benchmark unhooked default headers default/un headers/un
for name in $("$bin_dir/hook_overhead_unhooked" --benchmark_list_tests | sort); do
  case $name in *Pair) n=100000 ;; *) n=1000 ;; esac  # a pair is ~170 instructions, the rest thousands
  per_op=()
  for b in "${builds[@]}"; do
    per_op+=("$((($(instructions "$b" "$name" $((2 * n))) - $(instructions "$b" "$name" "$n")) / n))")
  done
  awk -v name="$name" -v u="${per_op[0]}" -v d="${per_op[1]}" -v h="${per_op[2]}" \
    'BEGIN { printf "%-22s %12d %12d %12d %9.3fx %9.3fx\n", name, u, d, h, d / u, h / u }'
done
