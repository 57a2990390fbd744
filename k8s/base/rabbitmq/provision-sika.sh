#!/bin/sh
# Dev clusters only. Run by the postStart hook at every start of the broker: once the node runs, creates or
# updates one user per service that talks to RabbitMQ (sika-<service>), with its password and its
# permissions, as scripts/stack/broker-users.ts does for local runs. Idempotent. The definitions come from
# the overlay's Secret rabbitmq-users, generated from packages/messaging/src/accounts.ts (deploy/test checks
# that they still match). Each user may declare, read and bind only its own queues and publish only its own
# routing keys on sika.events.
set -eu

DEFINITIONS=/etc/sika/rabbitmq-users/definitions.json

waited=0
until rabbitmq-diagnostics -q check_running >/dev/null 2>&1; do
  waited=$((waited + 1))
  if [ "$waited" -gt 120 ]; then
    echo "provision-sika: the node did not start within 120 s" >&2
    exit 1
  fi
  sleep 1
done

rabbitmqctl -q import_definitions "$DEFINITIONS"

echo "provision-sika: RabbitMQ users of the services ready"
