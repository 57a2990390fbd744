#!/usr/bin/env bash
# Runs a benchmark (a TypeScript file of scripts/bench) on the stack's Node.js (scripts/infra/stack-node.sh),
# with its arguments: `pnpm bench:throughput --duration 5` is `bash scripts/bench/run.sh throughput.ts --duration 5`.
set -euo pipefail

cd "$(dirname "$0")/../.."

node_bin=$(bash scripts/infra/stack-node.sh)
script=$1
shift
exec "$node_bin" --import tsx "scripts/bench/$script" "$@"
