#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A history database its user may not write (0444, in a directory the user
# can write), read as a user other than root, as CI runners run: `show` and
# `chart` read it and leave no -wal or -shm beside it, whose read-only mode
# would refuse every later writer; made writable again, `add` works.
# Root may write any file, so as root the check runs as `nobody`.
# Usage: history_read_only_test.sh ALLOCGATE REPORT SCRATCH_DIR
set -euo pipefail
allocgate=$1
report=$2
scratch=$3
rm -rf "$scratch"
mkdir -p "$scratch"
as_user=()
if [ "$(id -u)" = 0 ]; then
  if ! command -v runuser >/dev/null || ! id nobody >/dev/null 2>&1; then
    echo "skipped: root, and no runuser or no user nobody to run as"
    exit 77
  fi
  as_user=(runuser -u nobody --)
  chmod 0777 "$scratch"
  # nobody must reach the binary and the report.
  if ! "${as_user[@]}" test -x "$allocgate"; then
    echo "skipped: nobody cannot run $allocgate"
    exit 77
  fi
fi
cp "$report" "$scratch/report.json"
chmod 0644 "$scratch/report.json"
db=$scratch/history.db
failed=0
check() { if ! "$@"; then echo "FAILED: $*" >&2; failed=1; fi; }

"${as_user[@]}" "$allocgate" history --db "$db" add --commit c1 "$scratch/report.json" >/dev/null
chmod 0444 "$db"
check "${as_user[@]}" "$allocgate" history --db "$db" show >/dev/null
check "${as_user[@]}" "$allocgate" history --db "$db" chart --html --out "$scratch/chart.html"
for side in -wal -shm -journal; do
  check test ! -e "$db$side"
done
chmod 0644 "$db"
check "${as_user[@]}" "$allocgate" history --db "$db" add --commit c2 "$scratch/report.json"
runs=$("${as_user[@]}" "$allocgate" history --db "$db" show | grep -c 'c2' || true)
check test "$runs" -ge 1
rm -rf "$scratch"
[ "$failed" = 0 ] && echo "all passed"
exit "$failed"
