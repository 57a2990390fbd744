#!/usr/bin/env bash
# The test command (README) and what CI runs: prepares everything as the start command does, then lint,
# typecheck, and every jest project (unit, integration, end-to-end, faults) on the Node.js release the images
# and the local stack run (scripts/infra/stack-node.sh), whose summary is the line `jest: N passed, N failed`.
# The exit code is non-zero if anything failed. Arguments go to jest, e.g. scripts/test.sh --selectProjects unit.
set -euo pipefail

cd "$(dirname "$0")/.."

bash scripts/infra/prepare.sh

step() {
  printf '\n==> %s\n' "$*"
}

step "browser: Chromium for the hosted-page tests"
bash scripts/infra/ensure-chromium.sh

step "lint: pnpm lint"
pnpm lint

step "typecheck: pnpm typecheck"
pnpm typecheck

step "tests: jest on the stack's Node.js, scripts/infra/stack-node.sh"
# The processes the tests start (services, the CLI, Prisma, tsx) run process.execPath or the PATH's `node`.
node_bin=$(bash scripts/infra/stack-node.sh)
PATH="$(dirname "$node_bin"):$PATH" "$node_bin" scripts/run-tests.mjs "$@"
