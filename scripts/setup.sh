#!/usr/bin/env bash
# Brings what this checkout needs on a machine with nothing but Node >= 20 and npm. `npm run demo` and
# `npm test` (scripts/demo.sh, scripts/test.sh) start with it; run it alone to set a machine up:
#
#   source scripts/setup.sh          # Node 22 + pnpm first on PATH (scripts/toolchain.sh), then the install
#   source scripts/setup.sh --test   # first what the tests need besides: a Docker engine and Chromium
#   bash scripts/setup.sh --test     # the same, without keeping Node 22 on this shell's PATH
#
# With --test, the Docker engine (the provider-kit tests run real containers), Chromium (the dashboard's
# end-to-end test) and nginx with its njs module (the lease gateway's data path) are checked first, in a second:
# when one is missing and this shell may install it (root, with apt), scripts/docker.sh, scripts/chromium.sh
# and scripts/nginx.sh bring it; otherwise it stops before any long step and
# prints the exact command to run. A Docker engine that already answers is left alone. The PostgreSQL server
# binaries (the indexer's tests on a real server) come the same way, from scripts/postgres.sh install.
# Strict mode only when executed: a sourced script must not change the caller's shell options.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then set -euo pipefail; fi

# The command the user typed, for "then run … again": `npm test` unless pnpm started us.
_gf_again() {
  case "${npm_config_user_agent:-}" in
  pnpm/*) echo "pnpm $1" ;;
  *) echo "npm $1" ;;
  esac
}

# The static busybox the provider-kit test images are built from (FROM scratch: no registry), where
# packages/provider-kit/test/images.ts looks for it.
_gf_busybox() {
  [ -x /usr/bin/busybox ] || [ -x /bin/busybox ] || [ -x /usr/local/bin/busybox ]
}

# Checks the Docker engine and Chromium; brings them when missing and allowed, else says what to run.
_gf_test_prerequisites() {
  local root="$1" lacks=() commands=() info="" line docker_sh=0
  if ! command -v docker >/dev/null 2>&1; then
    lacks+=("a Docker engine (the provider-kit tests run real containers): no docker command")
    docker_sh=1
  elif ! info="$(docker info 2>&1)"; then
    if [[ "$info" == *"permission denied"* ]]; then
      lacks+=("access to the Docker engine: it runs, but this user may not use its socket")
      commands+=("sudo usermod -aG docker \"\$USER\"   # then log in again")
    else
      line="$(grep -m 1 -i -e error -e cannot <<<"$info" || echo "docker info failed")"
      lacks+=("a Docker engine (the provider-kit tests run real containers): ${line# }")
      docker_sh=1
    fi
  fi
  if ! _gf_busybox; then
    lacks+=("a static busybox (the provider-kit test images are built from it)")
    docker_sh=1
  fi
  # scripts/docker.sh brings both the engine and the busybox.
  if [ "$docker_sh" -eq 1 ]; then commands+=("sudo bash scripts/docker.sh"); fi
  if [ ! -x /usr/bin/chromium ]; then
    lacks+=("Chromium at /usr/bin/chromium (the dashboard's end-to-end test drives it headless)")
    commands+=("sudo bash scripts/chromium.sh")
  fi
  if [ ! -x /usr/sbin/nginx ] || [ ! -f /usr/lib/nginx/modules/ngx_http_js_module.so ]; then
    lacks+=("nginx and its njs module (the lease gateway's nginx data path is tested on them)")
    commands+=("sudo bash scripts/nginx.sh")
  fi

  if [ "${#lacks[@]}" -gt 0 ] && ! { [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; }; then
    {
      echo "setup: the tests need what this machine lacks:"
      for line in "${lacks[@]}"; do echo "  - $line"; done
      if [ "$(id -u)" -eq 0 ]; then
        echo "scripts/docker.sh, scripts/chromium.sh and scripts/nginx.sh install them with apt (Debian, Ubuntu); this"
        echo "machine has no apt-get. Install Docker Engine, a static busybox, Chromium (at /usr/bin/chromium) and nginx"
        echo "with its njs module with its own package manager, then run $(_gf_again test) again."
      else
        echo "Bringing them needs root. Run, in $root:"
        echo
        for line in "${commands[@]}"; do echo "  $line"; done
        echo
        echo "then $(_gf_again test) again."
      fi
    } >&2
    return 1
  fi

  # Each script only reports when its part is already there: a running engine is left alone.
  bash "$root/scripts/docker.sh" || return 1
  bash "$root/scripts/chromium.sh" || return 1
  bash "$root/scripts/nginx.sh" || return 1
  # The PostgreSQL server binaries, for the indexer's tests on a real server (scripts/postgres.sh starts one
  # of its own): brought like Docker and Chromium, or a stop with the command to run.
  if ! bash "$root/scripts/postgres.sh" install; then
    echo "setup: the indexer's tests need PostgreSQL's server binaries: sudo bash scripts/postgres.sh install" >&2
    return 1
  fi
}

_gf_setup() {
  local root test=0
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  case "${1:-}" in
  --test) test=1 ;;
  "") ;;
  *)
    echo "setup: unknown option $1 (use --test, or nothing)" >&2
    return 2
    ;;
  esac

  if [ "$test" -eq 1 ]; then _gf_test_prerequisites "$root" || return 1; fi
  # shellcheck source=scripts/toolchain.sh
  source "$root/scripts/toolchain.sh" || return 1
  # --prefer-offline: a machine that installed once needs no registry round trips to install again.
  (cd "$root" && pnpm install --frozen-lockfile --prefer-offline) || return 1
}

if _gf_setup "$@"; then _gf_status=0; else _gf_status=$?; fi
unset -f _gf_again _gf_busybox _gf_test_prerequisites _gf_setup
# Sourced or executed, the script's status is its last command's: under `set -e` a failure stops the caller.
(exit "$_gf_status")
