#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: build the release preset, run every workload case (timed with
# Google Benchmark, allocations counted exactly in a separate pass), print the
# tables, write the report, and gate it against ci/alloc-bounds.json.
# Exit 0 when every bound holds, 1 on a regression, 2 on bad input, 3 on a failure of allocgate itself.
# Extra arguments go to `allocgate run` (e.g. --filter xml_listing).
set -euo pipefail
cd "$(dirname "$0")/.."
ci/install-deps.sh

cmake --preset release >/dev/null
# What the install takes (libraries, headers, the command): the README's
# quickstart installs from this build next.
cmake --build --preset release --target allocgate_installable
allocgate=build/release/reports/allocgate
report=build/release/allocgate-report.json

"$allocgate" run --sites --out "$report" "$@"
echo
"$allocgate" diff --strict --bounds ci/alloc-bounds.json "$report"
