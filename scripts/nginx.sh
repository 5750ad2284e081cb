#!/usr/bin/env bash
# Makes sure nginx and its njs module are installed, for the lease gateway's nginx data path and its tests
# (packages/provider-kit/src/lease/nginx). Installs Debian's nginx-light and libnginx-mod-http-js from apt when
# they are missing (needs root, or sudo), without starting Debian's own nginx service: the provider agent starts
# nginx itself, with a configuration of its own, on 127.0.0.1. Does nothing when both are there.
set -euo pipefail

nginx=/usr/sbin/nginx
module=/usr/lib/nginx/modules/ngx_http_js_module.so

if [ ! -x "$nginx" ] || [ ! -f "$module" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    as_root=()
  elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "nginx: nginx or its njs module is missing and installing them needs root (or sudo)" >&2
    exit 1
  fi
  echo "nginx: installing nginx-light and libnginx-mod-http-js from apt"
  # Debian's package starts its service (listening on port 80 of every address) unless told not to.
  policy=/usr/sbin/policy-rc.d
  saved=""
  if [ -e "$policy" ]; then saved="$(mktemp)" && "${as_root[@]}" cp "$policy" "$saved"; fi
  printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
  "${as_root[@]}" chmod +x "$policy"
  status=0
  log="$(mktemp)"
  "${as_root[@]}" apt-get update -qq >"$log" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light libnginx-mod-http-js \
      >>"$log" 2>&1 || status=$?
  fi
  if [ "$status" -ne 0 ]; then tail -n 30 "$log" >&2; fi
  rm -f "$log"
  if [ -n "$saved" ]; then "${as_root[@]}" cp "$saved" "$policy" && rm -f "$saved"; else "${as_root[@]}" rm -f "$policy"; fi
  if [ "$status" -ne 0 ]; then
    echo "nginx: apt-get failed (exit $status)" >&2
    exit "$status"
  fi
fi

echo "nginx: $("$nginx" -v 2>&1 | head -n 1), njs module at $module"
