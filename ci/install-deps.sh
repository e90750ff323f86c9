#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages allocgate needs, when any is missing. As root
# it runs apt-get; otherwise it prints the one line to run.
# Usage: install-deps.sh [build|test]   (test adds Chromium, valgrind, jemalloc and
# tcmalloc, which tests run allocgate under, libc++ with GoogleTest's source,
# and clang-format)
set -euo pipefail

packages=(
  cmake make g++ clang libclang-rt-14-dev  # build; clang and its runtime for libFuzzer
  libgtest-dev libbenchmark-dev    # GoogleTest, Google Benchmark
  nlohmann-json3-dev libcli11-dev  # the allocgate command's JSON and command line
  libsimdjson-dev                  # reading reports and bounds files
  libsqlite3-dev                   # allocgate history
  libre2-dev                       # --filter's regular expressions
  libssl-dev                       # SHA-256 of workload outputs
  libxml2-dev                      # parsing the XML workload's output in tests
  libdw-dev pkg-config             # symbolizing captured call sites
  heaptrack jq                     # external profiling; the hook benchmark's summary
  dpkg-dev file                    # cpack -G DEB: dpkg-shlibdeps reads the command's Depends
  help2man                         # the man pages, from the command's own help
  protobuf-compiler libprotobuf-dev golang-github-google-pprof-dev  # export --format pprof: profile.proto
  libjs-chart.js                   # the pages' charts (inlined into each page)
)
# The pages' flame graphs come from npm (reports/pages/package-lock.json):
# Debian's npm where the machine has none.
command -v npm >/dev/null || packages+=(npm)
if [ "${1:-build}" = test ]; then
  packages+=(chromium)             # renders the HTML report in a real browser
  packages+=(valgrind)             # the hook's message under valgrind
  packages+=(libjemalloc2 libtcmalloc-minimal4)  # the counts under other mallocs
  packages+=(libc++-14-dev libc++abi-14-dev googletest)  # the libcxx preset: GoogleTest built from source
  packages+=(clang-format-14)      # the sources' format is checked (ci/format.sh)
  packages+=(python3-junitparser)  # reads diff --junit as another CI would
  packages+=(meson)                # a Meson project using allocgate through pkg-config
  packages+=(python3-yaml)         # reads the CI examples
  packages+=(lintian)              # checks the Debian packages
  packages+=(man-db)               # reads the man pages as man shows them
  packages+=(golang-1.19-go)       # go tool pprof reads the exported profiles
  packages+=(doctest-dev catch2)   # doctest 2.4.9 and Catch2 v2 suites counted as Debian ships them
  packages+=(libfmt-dev)           # spdlog's own suite, from its Debian source package, built as Debian builds it
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "installing: ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  else
    echo "allocgate needs these Debian packages; run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# The pages' npm packages, as the lockfile pins them: d3-flame-graph for the
# build; puppeteer-core too for the tests, which drive Chromium with it.
pages=$(cd "$(dirname "$0")/../reports/pages" && pwd)
# What is installed is noted as the lockfile's hash and the mode; a test
# install serves a build too.
mode=${1:-build}
lock=$(sha256sum "$pages/package-lock.json" | cut -d' ' -f1)
installed=$(cat "$pages/node_modules/.allocgate-installed" 2>/dev/null || true)
if [ "$installed" != "$lock $mode" ] && [ "$installed" != "$lock test" ]; then
  echo "installing the pages' npm packages (reports/pages/package-lock.json)" >&2
  omit=()
  [ "$mode" = test ] || omit=(--omit=dev)
  (cd "$pages" && npm ci --no-audit --no-fund --loglevel=error "${omit[@]}" >&2)
  echo "$lock $mode" >"$pages/node_modules/.allocgate-installed"
fi
