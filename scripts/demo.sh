#!/usr/bin/env bash
# `npm run demo` (or `pnpm demo`): the main job on one machine, from a fresh clone. Brings Node 22 and pnpm
# when missing and installs (scripts/setup.sh), builds the packages, then runs demo/ (see demo/README.md).
# Docker is optional here: without an engine the demo says so and runs the tasks unisolated.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh
pnpm build
pnpm --filter @gridforge/demo start
