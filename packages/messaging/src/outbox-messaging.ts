import type { Clock, Logger, Metrics, PollingLoop } from '@sika/platform';

import { AmqpBroker } from './broker';
import { OutboxRelay } from './outbox-relay';
import { retentionLoop } from './retention';
import { notifyingAfterCommit, type MessagingClient, type TransactionRunner } from './sql';

/** What outboxMessaging builds; compose.ts adds the broker, the relay and the retention loop as components. */
export interface OutboxMessaging {
  broker: AmqpBroker;
  relay: OutboxRelay;
  /** Deletes published outbox rows and old inbox rows (RETENTION_CONFIG). */
  retention: PollingLoop;
  /** A consumer's transactions, waking the relay once each commits: the events it enqueued leave at once. */
  wakingRelay<Tx extends MessagingClient>(runner: TransactionRunner<Tx>): TransactionRunner<Tx>;
}

/**
 * The messaging of a service with an outbox and an inbox, built alike by each one's compose.ts from its config:
 * the broker, the relay that publishes the outbox, and the loop that keeps both tables small. `db` is the pool
 * of the service's schema, where both tables are.
 */
export function outboxMessaging(
  db: MessagingClient & TransactionRunner,
  config: { AMQP_URL: string; OUTBOX_RETENTION: number; INBOX_RETENTION: number },
  { clock, logger, metrics }: { clock: Clock; logger: Logger; metrics: Metrics },
  relayOptions: {
    /** Where the relay publishes, when not the contract's exchange. */
    exchange?: string | undefined;
    /** The pool the relay runs on, when it has one of its own. */
    db?: TransactionRunner;
  } = {},
): OutboxMessaging {
  const { exchange } = relayOptions;
  const broker = new AmqpBroker({ url: config.AMQP_URL, logger });
  const relay = new OutboxRelay({
    database: relayOptions.db ?? db,
    broker,
    clock,
    logger,
    metrics,
    ...(exchange !== undefined && { exchange }),
  });
  return {
    broker,
    relay,
    retention: retentionLoop(db, config, { clock, logger }),
    wakingRelay: (runner) => notifyingAfterCommit(runner, () => relay.wake()),
  };
}
