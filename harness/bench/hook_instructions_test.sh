#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The hook's cost held where it is: the instructions callgrind counts for a
# new/delete pair and a std::allocator pair, with the default hook against
# libstdc++'s own operators, must stay within LIMIT (1.03x). Instruction
# counts repeat exactly, whatever the machine is doing: this is a count, not
# a timing. Exit 77 (skipped) without valgrind.
# Usage: hook_instructions_test.sh BIN_DIR [LIMIT]
set -euo pipefail
bin_dir=$1 limit=${2:-1.03}
command -v valgrind >/dev/null || { echo "valgrind is not installed"; exit 77; }

# Instructions callgrind counts for COUNT operations of NAME in build B.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin_dir/hook_overhead_$1" --ops "$2" "$3" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# The count for 2N operations minus the count for N: N operations' alone.
per_op() { echo $((($(instructions "$1" "$2" 200000) - $(instructions "$1" "$2" 100000)) / 100000)); }

failed=0
for name in BM_NewDeletePair BM_AllocatorPair; do
  plain=$(per_op unhooked "$name") hooked=$(per_op default "$name")
  [ "$plain" -gt 0 ] || { echo "$name: no instructions counted"; exit 1; }
  ratio=$(awk -v h="$hooked" -v p="$plain" 'BEGIN { printf "%.3f", h / p }')
  echo "$name: $hooked instructions with the hook, $plain without: ${ratio}x (held to ${limit}x)"
  awk -v r="$ratio" -v l="$limit" 'BEGIN { exit !(r <= l) }' || failed=1
done
[ "$failed" = 0 ] && echo "PASS" || { echo "FAIL: the hook's common path grew"; exit 1; }
