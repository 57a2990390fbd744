#!/usr/bin/env bash
# The build of one service's image (the build stage of the Dockerfile (SERVICE=<service>), from the workspace root
# /src once `pnpm install` has run):
#   scripts/docker/deploy-service.sh <service>
# 1. generated code (gRPC contracts, Prisma client) and the TypeScript build of the service and of the workspace
#    packages it references;
# 2. `pnpm deploy` copies the service alone, with its production dependencies and those workspace packages, into
#    /out/app, in a flat node_modules; from the pnpm store the Dockerfile mounts at /pnpm/store;
# 3. without sources, tests, source maps, type declarations, nor the Prisma query compilers of other databases.
# The runtime stage copies /out/app to /app. A service with a database adds its migrations with
# scripts/docker/bundle-migrations.sh.
set -euo pipefail

service=${1:?usage: scripts/docker/deploy-service.sh <service>}
if [[ ! -f "services/$service/package.json" ]]; then
  echo "deploy-service.sh: no service \"$service\" in services/ (run from the workspace root)" >&2
  exit 1
fi

pnpm --filter "@sika/$service..." --if-present run generate
pnpm exec tsc -b "services/$service"

pnpm --filter "@sika/$service" deploy --prod --offline --store-dir /pnpm/store --config.node-linker=hoisted /out/app

cd /out/app
rm -rf src test prisma README.md tsconfig.json tsconfig.tsbuildinfo pnpm-lock.yaml pnpm-workspace.yaml \
  node_modules/.pnpm node_modules/.modules.yaml node_modules/.pnpm-workspace-state-v1.json \
  node_modules/@sika/*/src node_modules/@sika/*/test node_modules/@sika/*/scripts \
  node_modules/@sika/*/tsconfig.json node_modules/@sika/*/README.md
find . -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.tsbuildinfo' \) -delete
if [[ -d node_modules/@prisma/client/runtime ]]; then
  find node_modules/@prisma/client/runtime -type f \
    \( -name '*cockroachdb*' -o -name '*mysql*' -o -name '*sqlite*' -o -name '*sqlserver*' \) -delete
fi
