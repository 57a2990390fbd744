/**
 * The slice of a Prisma client (or interactive-transaction client) this library needs. Kept structural so
 * every service's generated client fits without this package importing any of them. Raw SQL names the
 * tables unqualified: clients are created with `search_path` set to the service's schema.
 */
export interface SqlClient {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
}

export interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
  /**
   * Commit without waiting for the flush to disk (SqlDatabase's SqlTransactionOptions.asynchronousCommit). A
   * Prisma client ignores it and waits for the flush, which is only slower.
   */
  asynchronousCommit?: boolean;
}

/** A Prisma client as the owner of interactive transactions; `Tx` is what the callback receives. */
export interface TransactionRunner<Tx extends SqlClient = SqlClient> {
  $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: TransactionOptions): PromiseLike<R>;
}

/**
 * The same runner, calling `afterCommit` once each transaction has committed: how a consumer's effect wakes
 * a poller of the same process (an outbox relay, a delivery worker) at once instead of at its next poll.
 */
export function notifyingAfterCommit<Tx extends SqlClient>(
  runner: TransactionRunner<Tx>,
  afterCommit: () => void,
): TransactionRunner<Tx> {
  return {
    async $transaction(fn, options) {
      const result = await runner.$transaction(fn, options);
      afterCommit();
      return result;
    },
  };
}
