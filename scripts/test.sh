#!/usr/bin/env bash
# `npm test` (or `pnpm test`): every check, from a fresh clone. `.ci/run` runs exactly this.
#
# scripts/setup.sh --test first brings what the tests need (a Docker engine and Chromium, when this shell may
# install them; otherwise it stops at once with the command to run), Node 22 and pnpm, and the install. Then:
# lint, build, typecheck, the contracts' Hardhat suites, vitest (every package and example), the package
# checks (publint, arethetypeswrong, size-limit, typedoc) and the tarball check (scripts/check-packs.ts), with
# the simulator's check beside the contracts' suites (`pnpm sim --check`: no strategy beats honest work at the
# defaults).
# Arguments are not supported: run one vitest file with `pnpm vitest run --project <name> <path>`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ "$#" -gt 0 ]; then
  echo "test: takes no arguments (run one file with: pnpm vitest run --project <name> <path>)" >&2
  exit 2
fi

# shellcheck source=scripts/setup.sh
source scripts/setup.sh --test

timings=()
# Runs one step of the chain, printing its name before and keeping its time for the summary.
step() {
  local name="$1" started=$SECONDS
  shift
  echo
  echo "test: $name ($*)"
  "$@"
  timings+=("$(printf '%6d s  %s' $((SECONDS - started)) "$name")")
}

step lint pnpm lint
# Packages typecheck and test against the built dist/ of the packages they depend on.
step build pnpm build
step typecheck pnpm typecheck
# The simulator's check keeps one core busy for minutes, and so do the contracts' Hardhat suites: run them side
# by side on the two cores (the simulator needs only the contracts that `build` compiled). Its output follows
# the package checks.
sim_log="$(mktemp)"
sim_started=$SECONDS
echo
echo "test: sim (pnpm sim --check, beside the contracts' suites and what follows; its output comes last)"
pnpm sim --check >"$sim_log" 2>&1 &
sim_pid=$!
# Stopped with the script when a step fails first.
trap 'kill "$sim_pid" 2>/dev/null || true' EXIT
step contracts pnpm --filter @gridforge/contracts test
step vitest pnpm vitest run
step packages pnpm check:packages
step tarballs pnpm check:packs
sim_status=0
wait "$sim_pid" || sim_status=$?
echo
echo "test: sim (pnpm sim --check)"
cat "$sim_log"
rm -f "$sim_log"
if [ "$sim_status" -ne 0 ]; then
  echo "test: pnpm sim --check failed (exit $sim_status): a strategy beats honest work, or seat races stray" >&2
  exit "$sim_status"
fi
timings+=("$(printf '%6d s  %s' $((SECONDS - sim_started)) "sim (beside contracts and what follows)")")

echo
echo "test: every step passed"
printf '%s\n' "${timings[@]}"
