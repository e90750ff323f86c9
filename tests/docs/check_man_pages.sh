#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The man pages as man shows them: one per subcommand (and history's), each
# named for itself, with its synopsis, examples, exit status and related pages.
# Usage: check_man_pages.sh ALLOCGATE
set -euo pipefail
allocgate=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bash "$(dirname "$0")/../../reports/command/man_pages.sh" "$allocgate" "$out"
status=0
fail() { echo "$1: $2" >&2; status=1; }
for page in allocgate allocgate-{list,run,merge,history,history-add,history-show,history-chart,profile,loop,output,diff,compare,table,export}; do
  file=$out/$page.1.gz
  [ -f "$file" ] || { fail "$page" "no page"; continue; }
  text=$(zcat "$file" | MANWIDTH=100 man -l - 2>/dev/null | col -b)
  words=${page//-/ }
  grep -qE "^       $page[[:space:]]+- " <<<"$text" || fail "$page" "NAME does not name $page"
  grep -qE "^       $words( \[OPTIONS\]| |$)" <<<"$text" || fail "$page" "SYNOPSIS is not '$words ...'"
  for section in EXAMPLES "EXIT STATUS" "SEE ALSO"; do
    grep -qx "$section" <<<"$text" || fail "$page" "no $section"
  done
  # Each example on its own line, as given.
  grep -qE "^       $words " <<<"$(sed -n '/^EXAMPLES$/,/^[A-Z]/p' <<<"$text")" || fail "$page" "EXAMPLES shows no '$words'"
  grep -qE "^       2 +bad +input" <<<"$text" || fail "$page" "EXIT STATUS does not give 2"
  grep -q "Needs:\|in \[" <<<"$text" && fail "$page" "parser notation"
done
exit $status
