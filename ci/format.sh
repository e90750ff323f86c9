#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formats every tracked C++ source with the tree's .clang-format;
# `ci/format.sh --check` changes nothing and fails on a file that would change.
set -euo pipefail
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-clang-format}
mapfile -t sources < <(git ls-files '*.cpp' '*.h')
if [ "${1:-}" = --check ]; then
  "$format" --dry-run -Werror "${sources[@]}"
else
  "$format" -i "${sources[@]}"
fi
