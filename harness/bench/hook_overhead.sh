#!/usr/bin/env bash
# Runs the three hook_overhead builds (unhooked, default, headers) side by side, interleaved round by round
# so that machine noise hits all three alike, and prints each build's median
# ns/op and its ratio to the build without allocgate.
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
medians unhooked >"$out/unhooked.med"
medians default >"$out/default.med"
medians headers >"$out/headers.med"

printf '%-22s %12s %12s %12s %10s %10s\n' benchmark unhooked default headers default/un headers/un
jq -r -n --slurpfile u "$out/unhooked.med" --slurpfile c "$out/default.med" --slurpfile f "$out/headers.med" '
  $u[0] | keys[] as $k
  | [$k, $u[0][$k], $c[0][$k], $f[0][$k], ($c[0][$k] / $u[0][$k]), ($f[0][$k] / $u[0][$k])]
  | "\(.[0]) \(.[1]) \(.[2]) \(.[3]) \(.[4]) \(.[5])"' |
  while read -r name u c f rc rf; do
    printf '%-22s %9.2f ns %9.2f ns %9.2f ns %9.3fx %9.3fx\n' "$name" "$u" "$c" "$f" "$rc" "$rf"
  done
