#!/usr/bin/env bash
# Makes sure a Docker engine answers on this machine, for the provider-kit tests
# (they run real containers) and `pnpm demo`. Installs Debian's docker.io and
# busybox-static (the test images are built FROM scratch around the static
# busybox: no registry is needed) when they are missing, then starts dockerd in
# the background. Needs root and apt; does nothing when an engine already answers.
set -euo pipefail

if docker info >/dev/null 2>&1 && [ -x /bin/busybox ]; then
  echo "docker: engine $(docker version --format '{{.Server.Version}}') already running"
  exit 0
fi

if ! command -v dockerd >/dev/null 2>&1 || [ ! -x /bin/busybox ]; then
  echo "docker: installing docker.io and busybox-static from apt"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq docker.io busybox-static >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  echo "docker: starting dockerd"
  nohup dockerd >/tmp/dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
fi

if ! docker info >/dev/null 2>&1; then
  echo "docker: the engine did not start; its log:" >&2
  tail -n 50 /tmp/dockerd.log >&2 || true
  exit 1
fi
echo "docker: engine $(docker version --format '{{.Server.Version}}') running"
