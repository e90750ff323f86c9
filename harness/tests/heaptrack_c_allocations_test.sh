#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A program linked with allocgate::c_allocations under heaptrack: heaptrack
# sees its allocations and finishes (it used to wait forever: the program's own
# malloc shadowed heaptrack's), and allocgate's counts stay exact (the test
# binary's own assertions). Exit 77 (skipped) without heaptrack.
set -euo pipefail
test_binary=$1
out_dir=$2
command -v heaptrack >/dev/null || { echo "heaptrack is not installed (apt-get install heaptrack)"; exit 77; }
rm -rf "$out_dir" && mkdir -p "$out_dir"

status=0
output=$(timeout 120 heaptrack -o "$out_dir/data" "$test_binary" 2>&1) || status=$?
echo "$output" | tail -n 12
[ "$status" -ne 124 ] || { echo "heaptrack did not finish in 120 s"; exit 1; }
[ "$status" -eq 0 ] || { echo "exit status $status"; exit 1; }
grep -q "\[  PASSED  \]" <<<"$output" || { echo "the counts were not exact under heaptrack"; exit 1; }
calls=$(sed -n 's/^[[:space:]]*allocations:[[:space:]]*\([0-9]*\).*/\1/p' <<<"$output" | head -n 1)
[ "${calls:-0}" -gt 0 ] || { echo "heaptrack saw no allocation"; exit 1; }
