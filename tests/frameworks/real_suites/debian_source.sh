# SPDX-License-Identifier: Apache-2.0
# Sourced by the real suites' scripts.

fail() { echo "FAIL: $*" >&2; exit 1; }

# begin_real_suite BUILD_DIR WORK_DIR: WORK_DIR emptied and entered, and
# allocgate installed from BUILD_DIR under WORK_DIR/prefix, where the
# suite's project finds it as a user's would.
begin_real_suite() {
  rm -rf "$2" && mkdir -p "$2" && cd "$2"
  cmake --install "$1" --prefix "$2/prefix" >/dev/null
}

# leak_runs RUNS COMMAND...: COMMAND (the adopted suite) run RUNS times with
# the leak check, run N's report in leakN.json; fails on the first run the
# check fails, with the test it names. Then the bounds recorded from runs 1
# to 3 in bounds.json.
leak_runs() {
  local runs=$1 log i
  shift
  for ((i = 1; i <= runs; i++)); do
    log=$(ALLOCGATE_FAIL_ON_LEAK=1 ALLOCGATE_OUT="$PWD/leak$i.json" "$@") ||
      { echo "$log" | grep -B2 -A6 " leaked " >&2 || echo "$log" | tail -20 >&2; fail "run $i of $runs with the leak check failed"; }
  done
  "$allocgate" diff --update --bounds "$PWD/bounds.json" "$PWD/leak1.json" "$PWD/leak2.json" "$PWD/leak3.json" \
    >record.log 2>&1 || { cat record.log; fail "recording the bounds from 3 runs"; }
}

# debian_source PACKAGE [VERSION]:
# Debian's source package of that name (that version when the archive still
# serves it), fetched through a scratch sources list in the working
# directory, unpacked with its debian/ directory and its patches applied;
# prints the tree's directory.
debian_source() {
  local package=$1 version=${2:-}
  mkdir -p apt/lists/partial
  echo "deb-src http://deb.debian.org/debian bookworm main" >apt/sources.list
  local apt=(-o Dir::Etc::SourceList="$PWD/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o Dir::State::Lists="$PWD/apt/lists" -o APT::Sandbox::User=root)
  apt-get "${apt[@]}" update >apt.log 2>&1 || { tail -5 apt.log >&2; fail "apt-get update of the scratch sources list"; }
  { [ -n "$version" ] && apt-get "${apt[@]}" source --download-only "$package=$version" >>apt.log 2>&1; } ||
    apt-get "${apt[@]}" source --download-only "$package" >>apt.log 2>&1 ||
    { tail -5 apt.log >&2; fail "apt-get source $package"; }
  local before tree
  before=$(find . -maxdepth 1 -mindepth 1 -type d | sort)
  tar -xf "$(find . -maxdepth 1 -name "${package}_*.orig.tar.*" | head -1)"
  tree=$(comm -13 <(echo "$before") <(find . -maxdepth 1 -mindepth 1 -type d | sort) | head -1)
  [ -n "$tree" ] || fail "the source of $package unpacked to no directory"
  tar -xf "$(find . -maxdepth 1 -name "${package}_*.debian.tar.*" | head -1)" -C "$tree"
  if [ -f "$tree/debian/patches/series" ]; then
    while read -r patch; do
      case $patch in '' | '#'*) continue ;; esac
      patch -d "$tree" -p1 -s <"$tree/debian/patches/${patch%% *}" || fail "$package's patch $patch"
    done <"$tree/debian/patches/series"
  fi
  echo "$PWD/${tree#./}"
}
