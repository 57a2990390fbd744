#!/usr/bin/env bash
# Everything both README commands (scripts/start.sh, scripts/test.sh) need first, from a fresh clone:
# Node 20.11+, pnpm, dependencies, PostgreSQL/RabbitMQ/Redis answering, migrations applied, code built.
# Each step is idempotent, so running it again on a prepared machine costs little.
set -euo pipefail

cd "$(dirname "$0")/../.."

# The lockfile and pnpm-workspace.yaml settings (allowBuilds) are pnpm 12's.
PNPM_MAJOR=12
NODE_MIN=20.11

step() {
  printf '\n==> %s\n' "$*"
}

# Runs one step and prints how long it took, to see where the time of a run goes.
timed() {
  local started=$SECONDS
  "$@"
  printf '    (%ss)\n' "$((SECONDS - started))"
}

# package.json "engines": 20.11 is the first Node 20 with import.meta.dirname, which the scripts use.
if ! command -v node >/dev/null 2>&1; then
  echo "Node.js ${NODE_MIN} or newer is required (https://nodejs.org), with npm." >&2
  exit 1
fi
if ! node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  process.exit(major > 20 || (major === 20 && minor >= 11) ? 0 : 1);
'; then
  echo "Node.js ${NODE_MIN} or newer is required, found $(node --version)." >&2
  exit 1
fi

pnpm_major=$(pnpm --version 2>/dev/null | cut -d. -f1 || true)
if [ "${pnpm_major:-0}" != "$PNPM_MAJOR" ]; then
  step "installing pnpm ${PNPM_MAJOR} with npm (found: ${pnpm_major:-none})"
  if ! npm install --global "pnpm@${PNPM_MAJOR}"; then
    echo "Could not install pnpm globally. Install pnpm ${PNPM_MAJOR} yourself (npm install -g pnpm@${PNPM_MAJOR})." >&2
    exit 1
  fi
  hash -r # forget where the shell saw pnpm before
fi

step "dependencies: pnpm install --frozen-lockfile"
timed pnpm install --frozen-lockfile

step "infrastructure: PostgreSQL, RabbitMQ, Redis"
timed node scripts/infra/ensure.mjs

step "databases: pnpm db:migrate"
timed pnpm db:migrate

step "build: pnpm build"
timed pnpm build
