#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium, for the dashboard's
# end-to-end test (examples/react-dashboard/test/dashboard.e2e.test.ts drives it
# headless through playwright-core, which downloads no browser of its own).
# Installs the `chromium` package from apt when it is missing (needs root, or
# sudo); does nothing when it is already there.
set -euo pipefail

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "chromium: /usr/bin/chromium is missing and installing it needs root (or sudo)" >&2
    exit 1
  fi
  echo "chromium: installing chromium from apt"
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# Debian's /usr/bin/chromium is a wrapper script; `--version` needs no display.
echo "chromium: $(/usr/bin/chromium --version 2>/dev/null | head -n 1)"
