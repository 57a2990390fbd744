#!/usr/bin/env bash
# The database migrations of one service with a database (a prisma/ folder), added to the /out/app of
# scripts/docker/deploy-service.sh by the build stage of the Dockerfile (SERVICE=<service>), from the workspace root:
#   scripts/docker/bundle-migrations.sh <service>
# The image then runs them as the charts' pre-install/pre-upgrade Job (charts/sika-lib/templates/_migrations.tpl):
# `prisma migrate deploy --config /app/migrate/prisma.config.ts` in /app/migrate, with
# SIKA_PRISMA_SCHEMA=/app/prisma/schema and SIKA_PRISMA_MIGRATIONS=/app/prisma/migrations.
#   /app/prisma   the service's Prisma schema with its symbolic links resolved (messaging.prisma) and its
#                 committed migrations;
#   /app/migrate  the root prisma.config.ts and the scripts/db modules it loads (their pg and patched
#                 @prisma/adapter-pg resolve from /app/node_modules), and the Prisma CLI in node_modules/.bin (the
#                 Dockerfile puts it on the PATH). The CLI is not a dependency of the service: it is installed at
#                 the workspace's version, without install scripts (the JS engine needs no native binary).
set -euo pipefail

service=${1:?usage: scripts/docker/bundle-migrations.sh <service>}
if [[ ! -d "services/$service/prisma" ]]; then
  echo "bundle-migrations.sh: services/$service has no prisma/ folder, so no database to migrate" >&2
  exit 1
fi
prisma_version=$(node -p 'require("./node_modules/prisma/package.json").version')

cp -RL "services/$service/prisma" /out/app/prisma
mkdir -p /out/app/migrate/scripts/db /out/prisma-cli
cp prisma.config.ts /out/app/migrate/
cp scripts/db/prisma-target.ts scripts/db/schema-scoped-adapter.ts scripts/db/service-databases.ts \
  scripts/db/urls.ts /out/app/migrate/scripts/db/

cd /out/prisma-cli
echo '{"private": true}' > package.json
npm install --omit=dev --ignore-scripts --no-fund --no-audit --no-package-lock "prisma@$prisma_version"
mv node_modules /out/app/migrate/node_modules
