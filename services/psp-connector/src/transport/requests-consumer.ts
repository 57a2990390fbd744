import { InboxConsumer } from '@sika/messaging';
import type { Broker, MessagingClient, TransactionRunner } from '@sika/messaging';
import type { Logger, Metrics } from '@sika/platform';

/** What compose.ts gives a consumer of requests to psp-connector. */
export interface RequestsConsumerOptions {
  broker: Broker;
  db: TransactionRunner<MessagingClient>;
  logger: Logger;
  metrics: Metrics;
  exchange: string;
  /** The contract's queue, unless main.ts's own tests must not compete with a running stack for it. */
  queue: string;
}

/** Requests of one kind, decoded, each handled once per message id (inbox) in the transaction of its effect. */
export function requestsConsumer<T>(
  options: RequestsConsumerOptions,
  requests: {
    bindings: readonly string[];
    decode: (bytes: Uint8Array) => T;
    handle: (request: T, tx: MessagingClient) => Promise<void>;
  },
): InboxConsumer<T, MessagingClient> {
  return new InboxConsumer({
    broker: options.broker,
    database: options.db,
    queue: options.queue,
    bindings: requests.bindings,
    exchange: options.exchange,
    consumerName: options.queue,
    decode: requests.decode,
    handle: (message, tx) => requests.handle(message.body, tx),
    logger: options.logger,
    metrics: options.metrics,
  });
}
