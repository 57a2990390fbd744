#!/usr/bin/env bash
# The start command (README): from a fresh clone, prepares everything, then runs every service as its
# own process with prefixed logs, waits until all are ready and prints their URLs. Ctrl-C stops them all.
# Arguments go to the stack runner (scripts/stack/main.ts), e.g. --ready-timeout 120.
set -euo pipefail

cd "$(dirname "$0")/.."

# The services run on the Node.js release of the images, as in production (scripts/infra/stack-node.sh);
# SIKA_STACK_NODE=system runs them on the `node` of the PATH.
node_bin=$(bash scripts/infra/stack-node.sh)

bash scripts/infra/prepare.sh

printf '\n==> local stack\n'
# exec: the runner replaces this shell, so Ctrl-C and SIGTERM reach it directly; it starts each service with
# its own executable (process.execPath).
exec "$node_bin" --import tsx scripts/stack/main.ts "$@"
