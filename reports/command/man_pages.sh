#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Man pages for allocgate and each of its subcommands, generated from the
# command's own --help and --version by help2man, so they cannot drift from
# it; compressed as Debian installs them. The end of each --help (Examples,
# Exit status, See also: help_text.cpp) becomes the page's EXAMPLES, EXIT
# STATUS and SEE ALSO sections, laid out as a man page lays them out.
# Usage: man_pages.sh ALLOCGATE OUT_DIR
set -euo pipefail
allocgate=$(realpath "$1")
out=$2
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$("$allocgate" --version | awk '{print $1, $2}')  # "allocgate 0.1.0"

# The --help's sections after the options, as help2man's include file:
# examples one to a line, each exit code a tagged paragraph.
sections() {
  awk '
    /^Examples:$/    { print "[EXAMPLES]\n.nf"; part = "examples"; next }
    /^Exit status:$/ { if (part == "examples") print ".fi"; print "[EXIT STATUS]"; part = "exit"; next }
    /^See also:$/    { print "[SEE ALSO]"; part = "see"; next }
    part == "examples" && /^  / { sub(/^  /, ""); gsub(/\\/, "\\e"); print; next }
    part == "exit" && /^  [0-9]/ { code = $1; sub(/^  [0-9]+ +/, ""); print ".TP\n" code "\n" $0; next }
    part == "see" && /^ / { sub(/^ +/, ""); print; next }
    END { if (part == "examples") print ".fi" }'
}

page() {  # page NAME SUMMARY SUBCOMMAND...
  local name=$1 summary=$2
  shift 2
  "$allocgate" "$@" --help | sections >"$work/$name.h2m"
  # What help2man runs: the --help up to its own sections, and the version.
  cat >"$work/$name" <<SCRIPT
#!/bin/sh
[ "\$1" = --version ] && exec echo "$version"
"$allocgate" $* --help | sed '/^Examples:\$/,\$d'
SCRIPT
  chmod +x "$work/$name"
  help2man --no-info --section=1 --name="$summary" --include="$work/$name.h2m" --output="$out/$name.1" "$work/$name"
  # help2man names the page after the program; a subcommand's is its own
  # (allocgate-diff(1)), as git's are, and its synopsis the command's words.
  local title=${name^^}
  sed -i -e "s/^\\.TH ALLOCGATE /.TH ${title//-/\\-} /" -e "/^\\.SH NAME/{n;s/^allocgate /${name//-/\\-} /}" \
    -e "s|$work/$name|allocgate${*:+ $*}|g" "$out/$name.1"
  gzip -9n "$out/$name.1"
}
page allocgate "heap allocations as a number you can test, gate in CI and explain"
# Under a heading of subcommands: "Subcommands:" or a group's (any heading
# but the options', positionals' and help_text.cpp's own).
subcommands() {
  "$allocgate" "$@" --help |
    awk '/^[A-Z].*:$/ {on = ($0 !~ /^(Options|Positionals|Examples|Exit status|See also):$/); next}
         on && /^  [a-z]/'
}
subcommands | while read -r name summary; do
  page "allocgate-$name" "$summary" "$name"
  subcommands "$name" | while read -r nested nested_summary; do  # history add, show, chart
    page "allocgate-$name-$nested" "$nested_summary" "$name" "$nested"
  done
done
