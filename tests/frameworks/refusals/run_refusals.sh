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
compat=$(cd "$source/.." && pwd)/shared/compat
tar -xzf "$compat/googletest-1.18.0.tar.gz" -C "$work"
# doctest 2.5.2's header bundled in a directory of the suite's, as
# nlohmann/json bundles its doctest (Debian's doctest-dev is 2.4.9).
tar -xzf "$compat/doctest-2.5.2.tar.gz" -C "$work"
mkdir -p "$work/vendored"
cp "$work/doctest-2.5.2/doctest/doctest.h" "$work/vendored/doctest.h"

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
configure doctest_two_versions 1 "allocgate: test_main compiles with doctest 2.5.2 ($work/vendored/doctest.h) and doctest::doctest (which allocgate::doctest links) with doctest 2.4.9 (/usr/include/doctest/doctest.h): allocgate::doctest is compiled against the doctest.h the suite's main includes, so a suite brings one doctest" -DCASE=doctest_two_versions -DVENDORED_DOCTEST="$work/vendored"
configure doctest_no_header 1 "allocgate: allocgate::doctest is linked by test_main, and no doctest.h is in the include directories there or in those of what is linked: link doctest::doctest (find_package(doctest), FetchContent) or add the directory of the doctest.h the suite's main includes" -DCASE=doctest_no_header

# built_counts NAME: the doctest suite of case NAME builds, and its one test
# is counted: 1 allocation of 101 bytes.
built_counts() {
  cmake --build "$work/$1" >"$work/$1_build.log" 2>&1 || { cat "$work/$1_build.log"; exit 1; }
  ALLOCGATE_OUT="$work/$1.json" "$work/$1/doctest_tests" >"$work/$1_run.log" 2>&1 || { cat "$work/$1_run.log"; exit 1; }
  local figures
  figures=$(jq -r '.benchmarks[] | [.name, ."allocs/op", ."bytes/op"] | @tsv' "$work/$1.json")
  [ "$figures" = "$(printf 'a string of 100 characters\t1\t101')" ] ||
    { echo "FAIL: $1: '$figures', not 1 allocation of 101 B" >&2; exit 1; }
}
# A suite that bundles its doctest.h: the listener is compiled against it.
configure doctest_header_directory 0 "allocgate::doctest: compiled against doctest 2.5.2 ($work/vendored/doctest.h), as test_main" -DCASE=doctest_header_directory -DVENDORED_DOCTEST="$work/vendored"
built_counts doctest_header_directory
# doctest found after allocgate: the listener compiled against it.
configure doctest_after 0 "allocgate::doctest: compiled against doctest 2.4.9 (/usr/include/doctest/doctest.h), as doctest_tests" -DCASE=doctest_after
built_counts doctest_after
# Built with no build type, so without -g: what doctest's functions inlined
# into a test allocate cannot be told from the test's, and a failure sweep,
# which would fail it as the test's, is refused before the first test.
status=0
"$work/doctest_after/doctest_tests" --allocgate-fail-each >"$work/nodebug_sweep.log" 2>&1 || status=$?
[ "$status" = 2 ] && grep -q "no debug information (built without -g): a failure sweep cannot tell" \
  "$work/nodebug_sweep.log" && ! grep -q "test cases" "$work/nodebug_sweep.log" ||
  { cat "$work/nodebug_sweep.log"; echo "FAIL: a sweep without debug information: exit $status" >&2; exit 1; }
# The refusals belong to the targets that link a framework's integration: a
# program of the harness alone configures, builds and counts with neither
# framework to be found.
configure harness_only 0 "Build files have been written" -DCASE=harness_only -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
cmake --build "$work/harness_only" >"$work/harness_only_build.log" 2>&1 || { cat "$work/harness_only_build.log"; exit 1; }
"$work/harness_only/harness_only" || { echo "FAIL: the harness-only program counted wrong" >&2; exit 1; }
echo "PASS: an old GoogleTest, a shared gtest_main, two doctest versions and no doctest header refused in one line each; a harness-only program, a bundled doctest header and doctest found after allocgate taken; a sweep without debug information refused"
