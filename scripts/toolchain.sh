#!/usr/bin/env bash
# Provides Node 22 and pnpm from the npm registry without touching the system
# Node. Use it on machines whose system Node is older than 22 (Hardhat 3 and
# this workspace need >= 22.12):
#
#   source scripts/toolchain.sh     # puts Node 22 + pnpm first on PATH
#   bash scripts/toolchain.sh       # only installs, prints the PATH to use
#
# The toolchain lives in $GRIDFORGE_TOOLCHAIN_DIR (default: .toolchain/ in the
# repository, ignored by git). Nothing is installed when a suitable Node and
# the pinned pnpm are already first on PATH.
# Strict mode only when executed: a sourced script must not change the caller's shell options.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then set -euo pipefail; fi

_gf_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_gf_dir="${GRIDFORGE_TOOLCHAIN_DIR:-$_gf_root/.toolchain}"
_gf_node_spec="node@22"
# The pnpm version comes from package.json#packageManager, so CI and laptops agree.
_gf_pnpm_version="$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$_gf_root/package.json")"

_gf_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$major" -ge 22 ]
}

_gf_pnpm_ok() {
  command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null)" = "$_gf_pnpm_version" ]
}

if ! { _gf_node_ok && _gf_pnpm_ok; }; then
  if [ ! -x "$_gf_dir/node_modules/.bin/node" ] || [ ! -x "$_gf_dir/node_modules/.bin/pnpm" ] \
    || [ "$("$_gf_dir/node_modules/.bin/pnpm" --version 2>/dev/null)" != "$_gf_pnpm_version" ]; then
    echo "toolchain: installing $_gf_node_spec and pnpm@$_gf_pnpm_version into $_gf_dir" >&2
    mkdir -p "$_gf_dir"
    # --no-save keeps the folder free of a package.json of its own.
    npm install --prefix "$_gf_dir" --no-save --no-audit --no-fund --loglevel=error \
      "$_gf_node_spec" "pnpm@$_gf_pnpm_version" >&2
  fi
  export PATH="$_gf_dir/node_modules/.bin:$PATH"
fi

# A sourced script runs on after a failed npm install: check what is on PATH now, so the caller hears of it.
if _gf_node_ok && _gf_pnpm_ok; then
  _gf_status=0
  echo "toolchain: node $(node --version), pnpm $(pnpm --version)" >&2
  # When executed rather than sourced, tell the caller what to put on PATH.
  if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    echo "export PATH=\"$_gf_dir/node_modules/.bin:\$PATH\""
  fi
else
  _gf_status=1
  echo "toolchain: no Node >= 22 and pnpm $_gf_pnpm_version on PATH after installing into $_gf_dir (see npm's errors above)" >&2
fi
unset -f _gf_node_ok _gf_pnpm_ok
# Sourced or executed, the script's status is its last command's: under `set -e` a failure stops the caller.
(exit "$_gf_status")
