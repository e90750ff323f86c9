#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every public header, included alone by a translation unit of each standard:
# C++17 and C++20 compile clean under the tree's warnings; C++11 and C++14 get
# one line saying C++17 is needed, and the compiler stops there (no wall of
# errors from std::optional on).
# Usage: headers_standard_test.sh CXX INCLUDE_DIR [CXX_FLAGS...]
set -euo pipefail
cxx=$1 include=$2
shift 2
fail() { echo "FAIL: $*" >&2; exit 1; }
for header in "$include"/allocgate/*.h; do
  name=allocgate/$(basename "$header")
  for std in 17 20; do
    out=$(echo "#include <$name>" | "$cxx" "$@" -std=c++$std -Wall -Wextra -Wpedantic -Werror -fsyntax-only -x c++ - \
      -I"$include" 2>&1) || fail "$name at C++$std: $out"
  done
  for std in 11 14; do
    out=$(echo "#include <$name>" | "$cxx" "$@" -std=c++$std -fsyntax-only -x c++ - -I"$include" 2>&1) &&
      fail "$name compiles at C++$std"
    errors=$(echo "$out" | grep -c "error:" || true)
    first=$(echo "$out" | grep -m1 "error:")
    [ "$errors" = 2 ] && [[ $first == *"allocgate's headers need C++17 or later"* ]] ||
      fail "$name at C++$std: $errors errors, the first: $first"
  done
done
echo "PASS: every public header compiles at C++17 and C++20 and says in one line at C++11 and C++14 that it needs C++17"
