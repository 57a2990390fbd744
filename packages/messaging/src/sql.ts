import type { Kysely, QueryExecutorProvider } from 'kysely';

import type { DB } from './generated/database';

/**
 * The outbox and inbox tables as every service has them (prisma/messaging.prisma is part of each service's
 * schema). Statements name them unqualified, as each service's pool sets `search_path` to its schema.
 */
export type MessagingTables = DB;

/** A service's database or one of its transactions: any Kysely instance whose tables include these. */
export type MessagingClient = QueryExecutorProvider;

/**
 * The client seen through the outbox and inbox tables only. Kysely<DB> is invariant in DB, so a service's
 * Kysely<ServiceTables> does not convert to Kysely<MessagingTables> by itself although it holds both tables.
 */
export function messagingTablesOf(client: MessagingClient): Kysely<MessagingTables> {
  return client as Kysely<MessagingTables>;
}

export interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
  /** Commit without waiting for the flush to disk (@sika/platform's TransactionOptions.asynchronousCommit). */
  asynchronousCommit?: boolean;
}

/** A service's Database as the owner of transactions; `Tx` is what the callback receives. */
export interface TransactionRunner<Tx extends MessagingClient = MessagingClient> {
  transact<R>(fn: (tx: Tx) => Promise<R>, options?: TransactionOptions): Promise<R>;
}

/**
 * The same runner, calling `afterCommit` once each transaction has committed: how a consumer's effect wakes
 * a poller of the same process (an outbox relay, a delivery worker) at once instead of at its next poll.
 */
export function notifyingAfterCommit<Tx extends MessagingClient>(
  runner: TransactionRunner<Tx>,
  afterCommit: () => void,
): TransactionRunner<Tx> {
  return {
    async transact(fn, options) {
      const result = await runner.transact(fn, options);
      afterCommit();
      return result;
    },
  };
}
