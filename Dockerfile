# syntax=docker/dockerfile:1.7
# The image of every Sika service, chosen with the SERVICE build argument (skaffold.yaml passes it). Build it
# from the repository root, the pnpm workspace:
#   docker build --build-arg SERVICE=payments -t payments .
# manifests  every package.json of the workspace, and nothing else, so that the install below is rebuilt only
#            when a dependency changes, never for a source change.
# build      the packages of the lockfile (one layer for every image), the workspace install from those
#            manifests (also shared), then the sources and scripts/docker/deploy-service.sh: generated code, the
#            TypeScript build of the service and the packages it uses, and `pnpm deploy` of the service alone,
#            with its production dependencies, into /out/app. A service with a database (a prisma/ folder)
#            also gets its migrations (scripts/docker/bundle-migrations.sh), which the charts' pre-install and
#            pre-upgrade Job runs with the Prisma CLI it puts in /app/migrate.
# runtime    slim Node, unprivileged user, NODE_ENV=production, only /app; no HEALTHCHECK (Kubernetes probes
#            do that, see charts/sika-lib) and no EXPOSE (each chart declares its service's ports).
# Every stage is on one release of the Active LTS line (Node 26, LTS from 2026-10-28 to 2027-10-20, then
# maintenance until 2029-04-30). scripts/infra/test-node-lts.sh reads that release from the FROM lines and
# runs the unit and integration tests on it, so bump all three together.

FROM node:26.10.0-bookworm-slim AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
    && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /manifests/ \;

FROM node:26.10.0-bookworm-slim AS build
ENV PNPM_HOME=/pnpm \
    PATH=/pnpm:$PATH \
    CI=true \
    PRISMA_QUERY_ENGINE_LIBRARY=/dev/null \
    CHECKPOINT_DISABLE=1
RUN npm install --global --no-fund --no-audit pnpm@12.21.0
WORKDIR /src

# Packages from the lockfile alone: this layer changes only with the lockfile and is shared by every image.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY patches ./patches
RUN --mount=type=cache,id=sika-pnpm-store,target=/pnpm/store \
    pnpm fetch --store-dir /pnpm/store

# The workspace installed from its manifests: a source change does not reach this layer.
COPY --from=manifests /manifests/ ./
RUN --mount=type=cache,id=sika-pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --offline --store-dir /pnpm/store

COPY . .
# Declared after the shared layers: everything above is the same for every service.
ARG SERVICE
RUN test -f "services/${SERVICE:?build with --build-arg SERVICE=<a folder of services/>}/package.json"
# The service alone in /out/app: built, deployed with its production dependencies, pruned.
RUN --mount=type=cache,id=sika-pnpm-store,target=/pnpm/store \
    scripts/docker/deploy-service.sh "$SERVICE"
# Its migrations in /out/app/prisma and /out/app/migrate, when it has a database.
RUN if [ -d "services/$SERVICE/prisma" ]; then scripts/docker/bundle-migrations.sh "$SERVICE"; fi

FROM node:26.10.0-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PATH=/app/migrate/node_modules/.bin:$PATH \
    PRISMA_QUERY_ENGINE_LIBRARY=/dev/null \
    CHECKPOINT_DISABLE=1 \
    PRISMA_HIDE_UPDATE_MESSAGE=1
WORKDIR /app
# Owned by root, so the process cannot change its own code.
COPY --from=build /out/app ./
# The image's unprivileged "node" user, by number so that Kubernetes can check runAsNonRoot.
USER 1000:1000
CMD ["node", "dist/main.js"]
