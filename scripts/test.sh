#!/usr/bin/env bash
# The test command (README) and what CI runs: prepares everything as the start command does, then lint,
# typecheck, and every jest project (unit, integration, end-to-end), whose summary is the line
# `jest: N passed, N failed`; then the tests again on the images' Node release. The exit code is non-zero if
# anything failed. Arguments go to jest (both runs), e.g. scripts/test.sh --selectProjects unit.
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

step "tests: jest"
node scripts/run-tests.mjs "$@"

step "tests: jest on the Node release of the images (Active LTS), scripts/infra/test-node-lts.sh"
bash scripts/infra/test-node-lts.sh "$@"
