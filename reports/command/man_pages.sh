#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Man pages for allocgate and each of its subcommands, generated from the
# command's own --help and --version by help2man, so they cannot drift from
# it; compressed as Debian installs them.
# Usage: man_pages.sh ALLOCGATE OUT_DIR
set -euo pipefail
allocgate=$1
out=$2
rm -rf "$out"
mkdir -p "$out"
page() {  # page NAME SUMMARY HELP_OPTION
  help2man --no-info --no-discard-stderr --section=1 --name="$2" --help-option="$3" --version-option=--version \
    --output="$out/$1.1" "$allocgate"
  # help2man names the page after the program; a subcommand's is its own
  # (allocgate-diff(1)), as git's are.
  local title=${1^^}
  sed -i -e "s/^\\.TH ALLOCGATE /.TH ${title//-/\\-} /" -e "/^\\.SH NAME/{n;s/^allocgate /${1//-/\\-} /}" "$out/$1.1"
  gzip -9n "$out/$1.1"
}
page allocgate "heap allocations as a number you can test, gate in CI and explain" --help
subcommands() { "$allocgate" "$@" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/'; }
subcommands | while read -r name summary; do
  page "allocgate-$name" "$summary" "$name --help"
  subcommands "$name" | while read -r nested nested_summary; do  # history add, show, chart
    page "allocgate-$name-$nested" "$nested_summary" "$name $nested --help"
  done
done
