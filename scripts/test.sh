#!/usr/bin/env bash
# The test command (README) and what CI runs: prepares everything as the start command does, then lint and
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

# Side by side (each keeps about one core busy), and without generating again what the preparation's build did:
# pnpm check-types is pnpm typecheck after its `pnpm generate`. The lint's output follows the types'.
step "lint and typecheck: pnpm lint beside pnpm check-types"
lint_log=$(mktemp)
pnpm lint >"$lint_log" 2>&1 &
lint_pid=$!
types_status=0
pnpm check-types || types_status=$?
lint_status=0
wait "$lint_pid" || lint_status=$?
cat "$lint_log"
rm -f "$lint_log"
if [ "$types_status" -ne 0 ] || [ "$lint_status" -ne 0 ]; then
  echo "lint exited with ${lint_status}, check-types with ${types_status}" >&2
  exit 1
fi

step "tests: jest on the stack's Node.js, scripts/infra/stack-node.sh"
# The processes the tests start (services, the CLI, Prisma, tsx) run process.execPath or the PATH's `node`.
node_bin=$(bash scripts/infra/stack-node.sh)
PATH="$(dirname "$node_bin"):$PATH" "$node_bin" scripts/run-tests.mjs "$@"
