#!/usr/bin/env bash
# The start command (README): from a fresh clone, prepares everything, then runs every service as its
# own process with prefixed logs, waits until all are ready and prints their URLs. Ctrl-C stops them all.
# Arguments go to the stack runner (scripts/stack/main.ts), e.g. --ready-timeout 120.
set -euo pipefail

cd "$(dirname "$0")/.."

# The services run on the Node.js release of the images, as in production (installed once from npm into
# .sika/, scripts/infra/ensure-node-lts.sh); SIKA_STACK_NODE=system runs them on the `node` of the PATH.
case "${SIKA_STACK_NODE:-images}" in
  images) node_bin="$(bash scripts/infra/ensure-node-lts.sh)/node" ;;
  system) node_bin=node ;;
  *)
    echo "start.sh: SIKA_STACK_NODE is images (the default) or system, not ${SIKA_STACK_NODE}" >&2
    exit 2
    ;;
esac

bash scripts/infra/prepare.sh

printf '\n==> local stack\n'
# exec: the runner replaces this shell, so Ctrl-C and SIGTERM reach it directly; it starts each service with
# its own executable (process.execPath).
exec "$node_bin" --import tsx scripts/stack/main.ts "$@"
