#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the README's "Gate your project" commands verbatim, in order, in one
# shell (so cd and export carry over), from allocgate's checkout with HOME in
# a temporary folder. Each command must exit 0, except those marked "# fails",
# which must not; the output must show the regression exactly as the README
# does.
# Usage: run_quickstart.sh SOURCE_DIR WORK_DIR
set -uo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
# HOME, where the project is copied, outside allocgate's git work tree, as a
# user's is: a site's path is relative to the tree the code was built from.
home=$(mktemp -d /tmp/allocgate-quickstart.XXXXXX)
trap 'rm -rf "$home"' EXIT

# The commands between the quickstart markers, without the fences.
awk '/<!-- quickstart:begin -->/ {on = 1; next} /<!-- quickstart:end -->/ {on = 0} on && !/^```/' \
  "$src/README.md" >"$work/commands"
# The output the README shows for step 5: the code block after "Step 5's gate".
awk '/Step 5.s gate/ {found = 1} found && /^```/ {if (inside) exit; inside = 1; next} inside' \
  "$src/README.md" >"$work/expected"
[ -s "$work/commands" ] && [ -s "$work/expected" ] || { echo "no quickstart in the README" >&2; exit 1; }

# One script: each command line, then its exit code, numbered.
script=$work/script.sh
echo 'set -u' >"$script"
n=0
while IFS= read -r line; do
  n=$((n + 1))
  [[ -z "${line// /}" || "$line" == \#* ]] && continue
  printf '%s\necho "@@ $? line %d"\n' "$line" "$n" >>"$script"
done <"$work/commands"

(cd "$src" && HOME="$home" bash "$script") >"$work/output" 2>&1

status=0
while read -r _ code _ number; do
  line=$(sed -n "${number}p" "$work/commands")
  if [[ "$line" == *"# fails"* ]]; then
    [ "$code" -ne 0 ] || { echo "should have failed: $line" >&2; status=1; }
  else
    [ "$code" -eq 0 ] || { echo "failed ($code): $line" >&2; status=1; }
  fi
done < <(grep '^@@ ' "$work/output")
[ "$(grep -c '^@@ ' "$work/output")" -gt 10 ] || { echo "the commands did not run" >&2; status=1; }
if ! grep -qxFf "$work/expected" "$work/output" ||
  [ "$(grep -cxFf "$work/expected" "$work/output")" -lt "$(wc -l <"$work/expected")" ]; then
  echo "the gate's output is not the README's:" >&2
  cat "$work/expected" >&2
  status=1
fi
if [ $status -ne 0 ]; then
  echo "--- output" >&2
  cat "$work/output" >&2
fi
exit $status
