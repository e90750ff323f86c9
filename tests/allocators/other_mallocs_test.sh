#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The counts do not depend on the C allocator: the harness's tests (which
# assert exact counts) pass with jemalloc and with tcmalloc preloaded, and
# every workload case counts the same allocs/op and bytes/op as under glibc's
# malloc (recorded from a glibc run, gated --strict: no case may differ either
# way). Exit 77 (skipped) when neither allocator is installed.
# Usage: other_mallocs_test.sh ALLOCGATE WORK_DIR HARNESS_TEST...
set -euo pipefail
allocgate=$1
work=$2
shift 2
libdir=/usr/lib/x86_64-linux-gnu
declare -A mallocs=([jemalloc]=$libdir/libjemalloc.so.2 [tcmalloc]=$libdir/libtcmalloc_minimal.so.4)

rm -rf "$work" && mkdir -p "$work"
"$allocgate" run --no-timing --out "$work/glibc.json" >/dev/null
"$allocgate" diff --update --bounds "$work/bounds.json" "$work/glibc.json" >/dev/null

tested=0
for name in jemalloc tcmalloc; do
  lib=${mallocs[$name]}
  if [ ! -e "$lib" ]; then
    echo "$name: not installed ($lib), skipped"
    continue
  fi
  tested=$((tested + 1))
  for test_binary in "$@"; do
    LD_PRELOAD=$lib "$test_binary" --gtest_brief=1 >"$work/$name.log" 2>&1 ||
      { echo "$name: $(basename "$test_binary") failed:"; tail -n 30 "$work/$name.log"; exit 1; }
  done
  LD_PRELOAD=$lib "$allocgate" run --no-timing --out "$work/$name.json" >/dev/null
  gate=$("$allocgate" diff --strict --bounds "$work/bounds.json" "$work/$name.json") ||
    { echo "$name: the counts differ from glibc's:"; echo "$gate" | head -n 20; exit 1; }
  summary=$(tail -n 1 <<<"$gate")
  grep -q "^0 regression(s), 0 improved" <<<"$summary" || { echo "$name: $summary"; exit 1; }
  echo "$name: $# harness test binaries pass; $summary"
done
[ "$tested" -gt 0 ] || exit 77
