#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Each configuration allocgate refuses fails in one line that names what is
# wrong and what to do; ALLOCGATE_UNTESTED_FRAMEWORKS=ON makes a version a warning.
# Usage: run_refusals.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 source=$2 work=$3
here=$source/tests/frameworks/refusals
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
tar -xzf "$(cd "$source/.." && pwd)/shared/compat/googletest-1.18.0.tar.gz" -C "$work"

# configure NAME EXPECTED_EXIT PATTERN cmake-arguments...
configure() {
  local name=$1 expected=$2 pattern=$3
  shift 3
  local code=0
  cmake -S "$here" -B "$work/$name" -DCMAKE_PREFIX_PATH="$work/prefix" "$@" >"$work/$name.log" 2>&1 || code=$?
  if [ "$code" != "$expected" ] || ! tr -s ' \n' ' ' <"$work/$name.log" | grep -q "$pattern"; then
    cat "$work/$name.log"
    echo "FAIL: $name: exit $code (expected $expected), or no '$pattern'" >&2
    exit 1
  fi
}
configure old_version 1 "allocgate: GoogleTest 1.10.0 (GTest::gtest) is outside the versions allocgate is tested with (1.11 to 1.18): bring one of those, or set ALLOCGATE_UNTESTED_FRAMEWORKS=ON to try it" -DCASE=old_version
configure old_version_allowed 0 "GoogleTest 1.10.0 (GTest::gtest) is outside the versions" -DCASE=old_version -DALLOCGATE_UNTESTED_FRAMEWORKS=ON
configure shared_main 1 "tests links GTest::gtest_main, a shared library whose main() calls the framework where allocgate cannot count it: link allocgate::gtest_main in its place" -DCASE=shared_main -DGTEST_SOURCE="$work/googletest-1.18.0"
configure doctest_after 1 "allocgate's doctest component is compiled against doctest::doctest, which this project has not got yet: find_package(doctest) or FetchContent_MakeAvailable(doctest) before find_package(allocgate COMPONENTS doctest)" -DCASE=doctest_after
# The refusals belong to the targets that link a framework's integration: a
# program of the harness alone configures, builds and counts with neither
# framework to be found.
configure harness_only 0 "Build files have been written" -DCASE=harness_only -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
cmake --build "$work/harness_only" >"$work/harness_only_build.log" 2>&1 || { cat "$work/harness_only_build.log"; exit 1; }
"$work/harness_only/harness_only" || { echo "FAIL: the harness-only program counted wrong" >&2; exit 1; }
echo "PASS: an old GoogleTest, a shared gtest_main and doctest found after allocgate refused in one line each; a harness-only program taken"
