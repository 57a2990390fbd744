#!/usr/bin/env bash
# The tests on the Node.js release the images run (scripts/infra/ensure-node-lts.sh installs it once into
# .sika/node-<release>), whatever Node runs the rest of scripts/test.sh.
#   scripts/infra/test-node-lts.sh                   # unit, and integration but for its slowest files
#   scripts/infra/test-node-lts.sh <jest arguments>  # those instead: --selectProjects unit integration for all
# Its summary line reads `node vX.Y.Z jest: N passed, N failed`, so that CI's closing `jest:` line stays the
# main run's; the exit code is non-zero if a test failed.
set -euo pipefail

cd "$(dirname "$0")/../.."

node_dir=$(bash scripts/infra/ensure-node-lts.sh)
release=$("$node_dir/node" --version)

# The processes the tests start (services, the CLI, Prisma, tsx) run process.execPath or `node` from the PATH:
# both are this release.
export PATH="$node_dir:$PATH"

# The one native addon a service loads (dashboard-web's password hashing; Prisma runs its JS engine) is used by
# the end-to-end tests alone, so it is checked here.
(cd services/dashboard-web && node --input-type=module -e "
  import { hash, verify } from '@node-rs/argon2';
  if (!(await verify(await hash('probe'), 'probe'))) throw new Error('argon2 verify failed');
")
echo "node-lts: @node-rs/argon2 hashes and verifies"

if [[ $# -eq 0 ]]; then
  # Within CI's 15-minute budget: these files take half of the integration project's time, and what they run
  # on (child processes, gRPC, RabbitMQ, PostgreSQL, HTTP) the files kept run on too; only the Chromium of
  # checkout-browser is left out, and the browser does not run on Node.
  set -- --selectProjects unit integration --testPathIgnorePatterns /node_modules/ \
    packages/ops-cli/test/cli.test.ts \
    packages/messaging/test/outbox-relay.test.ts \
    services/psp-connector/test/psp-connector.test.ts \
    services/psp-connector/test/payouts.test.ts \
    services/psp-connector/test/callback-secrets.test.ts \
    services/pispi-simulator/test/simulator.test.ts \
    services/checkout-web/test/checkout-browser.test.ts
fi
# This step's share of the budget; scripts/run-tests.mjs stops a run that goes past it.
export TEST_TIMEOUT_MINUTES=${TEST_TIMEOUT_MINUTES:-8}
started=$SECONDS
status=0
node scripts/run-tests.mjs "$@" | sed -u "s/^jest: /node $release jest: /" || status=$?
echo "node-lts: tests took $((SECONDS - started))s"
exit "$status"
