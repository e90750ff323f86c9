#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A plain Release build (no -g) of what ci/gate.sh builds, the target
# allocgate_installable, and nothing more: `cmake --install` from it succeeds
# (the README's quickstart installs right after the gate), and `cpack -G DEB`
# makes the allocgate package alone, lintian-clean, without an allocgate-dbg
# that would hold no debug information.
# Usage: plain_release.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
# No tests or benchmarks: cpack builds the whole of "all" before it packages.
cmake -S "$source" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS= -DALLOCGATE_BUILD_TESTS=OFF \
  -DALLOCGATE_BUILD_BENCHMARKS=OFF >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" -j2 --target allocgate_installable >"$work/build.log" 2>&1 ||
  { tail -50 "$work/build.log" >&2; exit 1; }
cmake --install "$work/build" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; echo "install after building allocgate_installable failed" >&2; exit 1; }
[ -x "$work/prefix/bin/allocgate" ] || { echo "no bin/allocgate installed" >&2; exit 1; }
(cd "$work" && cpack -G DEB -B "$work/deb" --config "$work/build/CPackConfig.cmake" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log" >&2; exit 1; }
status=0
if compgen -G "$work/deb/allocgate-dbg_*.deb" >/dev/null; then
  echo "an allocgate-dbg from a build without debug information" >&2
  status=1
fi
deb=$(compgen -G "$work/deb/allocgate_*.deb" || true)
[ -n "$deb" ] || { echo "no allocgate package" >&2; exit 1; }
if command -v lintian >/dev/null; then
  lintian --fail-on error,warning --tag-display-limit 0 "$deb" 2>&1 | grep -v 'root privileges' >"$work/lintian.txt" || true
  if grep -E '^[EW]: ' "$work/lintian.txt"; then status=1; fi
fi
dpkg-deb -x "$deb" "$work/main"
file "$work/main/usr/bin/allocgate" | grep -q ', stripped' || { echo "usr/bin/allocgate is not stripped" >&2; status=1; }
[ $status -eq 0 ] && echo PASS
exit $status
