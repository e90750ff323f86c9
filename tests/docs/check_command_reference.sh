#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The docs against the command they document: every subcommand (and
# history's) and every option `allocgate ... --help` lists is named in the
# reference page, and every `allocgate SUBCOMMAND ... --option` any page shows
# on a command line is one the command has. A new option without a word in the
# reference, or a page showing an option that went away, fails here.
# Usage: check_command_reference.sh ALLOCGATE REFERENCE_PAGE [OTHER_PAGE...]
set -euo pipefail
allocgate=$1
page=$2
pages=("${@:2}")
status=0

# "  run    Run the cases..." under a heading of subcommands in a --help
# ("Subcommands:", or a group's: any heading but the options' and positionals').
subcommands_of() {
  "$allocgate" "$@" --help |
    awk '/^[A-Z].*:$/ {on = ($0 !~ /^(Options|Positionals|Examples|Exit status|See also):$/); next}
         on && /^  [a-z]/ {print $1}'
}
# The long options of a --help, less --help itself.
options_of() {
  "$allocgate" "$@" --help | grep -oE '^ +(-[a-zA-Z], *)?--[a-z][a-z-]*' | grep -oE -- '--[a-z][a-z-]*' |
    grep -vx -- '--help' || true
}

commands=()
for sub in $(subcommands_of); do
  commands+=("$sub")
  for nested in $(subcommands_of "$sub"); do commands+=("$sub $nested"); done
done
[ ${#commands[@]} -ge 10 ] || { echo "could not read the subcommands from $allocgate --help" >&2; exit 1; }

declare -A known
for command in "${commands[@]}"; do
  # shellcheck disable=SC2086
  if ! grep -q "allocgate $command\b" "$page"; then
    echo "docs: $page never shows 'allocgate $command'" >&2
    status=1
  fi
  # shellcheck disable=SC2086
  for option in $(options_of $command); do
    known["${command%% *} $option"]=1
    if ! grep -qE -- "$option\b" "$page"; then
      echo "docs: $page does not name 'allocgate $command $option'" >&2
      status=1
    fi
  done
done

# The other way: an option shown on an allocgate command line in any page
# (a line of a code block, or of a CI file's script, that starts with the
# command) must exist.
for shown in "${pages[@]}"; do
  while IFS= read -r line; do
    sub=$(sed -E 's/^allocgate ([a-z]+).*/\1/' <<<"$line")
    for option in $(grep -oE -- ' --[a-z][a-z-]*' <<<"${line%%#*}"); do
      if [ -z "${known["$sub $option"]:-}" ]; then
        echo "docs: $shown shows 'allocgate $sub ... $option', which allocgate $sub does not take" >&2
        status=1
      fi
    done
  done < <(grep -E '^[ -]*allocgate [a-z]+' "$shown" | sed -E 's/^[ -]*//' || true)
done
exit $status
