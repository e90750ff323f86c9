# SPDX-License-Identifier: Apache-2.0
# Sourced by the render tests: headless Chromium, found or the test skipped.
#   require_chromium           sets $browser; exits 77 (ctest: skipped) without one
#   render PAGE MEASURED SIZE  screenshots PAGE to $work/screenshot.png and dumps
#                              the DOM of MEASURED (PAGE with a measuring script)
#                              to $work/dom.html; SIZE is the window, e.g. 1200,2200
#   measured                   prints the data-measured attribute the script set
#   fail MESSAGE               prints FAIL and exits 1

require_chromium() {
  browser=$(command -v chromium || command -v chromium-browser || true)
  if [ -z "$browser" ]; then
    echo "skipped: chromium is not installed (ci/install-deps.sh test installs it)"
    exit 77
  fi
}

render() {
  local flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
               --disable-component-update --disable-sync --user-data-dir="$work/profile")
  timeout 120 "$browser" "${flags[@]}" --window-size="$3" --screenshot="$work/screenshot.png" "file://$1" \
    >/dev/null 2>&1
  timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$2" 2>/dev/null >"$work/dom.html"
  [ "$(head -c 8 "$work/screenshot.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "no PNG screenshot"
}

measured() { grep -o 'data-measured="[^"]*"' "$work/dom.html" || true; }

fail() {
  echo "FAIL: $*"
  exit 1
}
