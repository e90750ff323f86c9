#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian packages (cpack -G DEB: allocgate and allocgate-dbg) as Debian's
# own checker sees them: no error, no warning. Also: the command in allocgate
# is stripped, and allocgate-dbg holds its debug information under its build ID.
# Usage: lintian.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
cpack -G DEB -B "$work" --config "$build/CPackConfig.cmake" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log" >&2; exit 1; }
status=0
for deb in "$work"/allocgate_*.deb "$work"/allocgate-dbg_*.deb; do
  [ -f "$deb" ] || { echo "missing: $deb" >&2; exit 1; }
  # Lintian refuses nothing as root but says so; that line is not a finding.
  if ! lintian --fail-on error,warning --tag-display-limit 0 "$deb" 2>&1 | grep -v 'root privileges' >"$work/lintian.txt"; then :; fi
  if grep -E '^[EW]: ' "$work/lintian.txt"; then status=1; fi
done
dpkg-deb -x "$work"/allocgate_*.deb "$work/main"
dpkg-deb -x "$work"/allocgate-dbg_*.deb "$work/dbg"
file "$work/main/usr/bin/allocgate" | grep -q ', stripped' || { echo "usr/bin/allocgate is not stripped" >&2; status=1; }
id=$(readelf -n "$work/main/usr/bin/allocgate" | sed -n 's/.*Build ID: //p')
debug=$work/dbg/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
readelf -S "$debug" 2>/dev/null | grep -q '\.debug_line' || { echo "allocgate-dbg has no line tables for $id" >&2; status=1; }
[ $status -eq 0 ] && echo PASS
exit $status
