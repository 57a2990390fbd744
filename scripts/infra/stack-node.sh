#!/usr/bin/env bash
# The `node` the local stack runs on, printed on stdout: the Node.js release of the images (installed once from
# npm into .sika/, ensure-node-lts.sh) by default, as in production; SIKA_STACK_NODE=system, the `node` of the
# PATH. The start command runs the services on it, and the benchmarks run on it too: they share the cores with
# the stack, and on Node 26 the benchmark's own process took a quarter to a third less CPU than on Node 20.
#   node_bin=$(bash scripts/infra/stack-node.sh)
set -euo pipefail

cd "$(dirname "$0")/../.."

case "${SIKA_STACK_NODE:-images}" in
  images) echo "$(bash scripts/infra/ensure-node-lts.sh)/node" ;;
  system) command -v node ;;
  *)
    echo "SIKA_STACK_NODE is images (the default) or system, not ${SIKA_STACK_NODE}" >&2
    exit 2
    ;;
esac
