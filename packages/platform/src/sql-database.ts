import { Pool, types, type PoolClient, type PoolConfig, type QueryConfig, type QueryResult } from 'pg';

import { POSTGRES_SCHEMA_NAME } from './config';
import { AppError, isDependencyUnavailable, SERVICE_UNAVAILABLE_MESSAGE } from './errors';
import { createCounter, type Metrics } from './metrics';

/**
 * Raw SQL on `pg`, in the shape of Prisma's raw API (`$queryRaw`, `$executeRaw` tagged templates and
 * interactive `$transaction`), for hot paths. Measured here, a one-row query costs ≈ 55 µs of client CPU
 * this way against ≈ 270 µs through Prisma's query compiler; Prisma stays the schema and migration tool and
 * serves the cold paths. Code written against the structural `SqlClient` of @sika/messaging runs on either.
 *
 * Results follow Prisma's raw conventions where they differ from pg's defaults, so a query returns the same
 * values on both: int8 is a bigint (pg would give a string). Every query is a named prepared statement,
 * named after its call site's template: Postgres parses and plans it once per connection.
 */
export interface SqlDatabaseOptions {
  url: string;
  /** The service's own Postgres schema (search_path), as for createPrismaClient. */
  schema: string;
  /** Pool size per process: connections are opened as needed, then kept. */
  maxConnections?: number;
  /**
   * How long a caller waits for a free connection before the database counts as saturated: the query fails
   * with service_unavailable (503 + Retry-After at the edge) instead of queueing without bound.
   */
  acquireTimeoutMs?: number;
  /** Postgres statement_timeout of every connection: no query holds a connection longer. */
  statementTimeoutMs?: number;
  /**
   * Every commit of the pool returns before Postgres has flushed it to disk (`synchronous_commit = off`): a
   * crash of Postgres, never of the process, may lose the last fraction of a second of commits, never corrupt
   * them. Only for a database whose recent writes may be lost (see SqlTransactionOptions.asynchronousCommit).
   */
  asynchronousCommit?: boolean;
  /** Where `sika_db_pool_saturated_total` counts the callers refused for want of a connection, when given. */
  metrics?: Metrics;
}

export interface SqlTransactionOptions {
  /** Longest wait for a connection; the pool's acquireTimeoutMs when omitted. */
  maxWait?: number;
  /** Longest life of the transaction; beyond it, its next query fails and it rolls back. */
  timeout?: number;
  /**
   * The commit returns before Postgres has flushed it to disk (`SET LOCAL synchronous_commit = off`, sent with
   * the BEGIN): no flush to wait for (at 100 payments/s, 4.6 WAL flushes per paid payment instead of 6.5, with
   * CPU and latency unchanged within the noise). A crash of Postgres may lose it (a later flushed commit of any
   * connection flushes it too), so only for a transaction whose loss is repaired by doing it again: an outbox
   * relay's mark of rows it published, which a lost mark only publishes twice.
   */
  asynchronousCommit?: boolean;
}

/** What a transaction's callback receives: the same raw API, bound to the transaction's connection. */
export interface SqlTransaction {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
}

const DEFAULTS = {
  maxConnections: 10,
  acquireTimeoutMs: 1_000,
  statementTimeoutMs: 10_000,
};
const DEFAULT_TRANSACTION_TIMEOUT_MS = 5_000;
const ASYNCHRONOUS_BEGIN = 'BEGIN; SET LOCAL synchronous_commit = off';

/**
 * Every pool of the services (raw and Prisma) keeps a connection once opened, where pg closes it after 10 s
 * idle: after a lull, a burst would wait for new backends, each parsing and planning the prepared statements
 * again. Measured at 100 payments/s offered after 10 s of quiet, the first 1.5 s of creations took 465–829 ms
 * to their webhook against 427–489 after. TCP keepalive holds idle ones through NATs and notices a peer that is
 * gone.
 */
export const KEPT_CONNECTIONS = {
  idleTimeoutMillis: 0,
  keepAlive: true,
  keepAliveInitialDelayMillis: 60_000,
} as const satisfies PoolConfig;

const INT8_OID = 20;

/** pg's parsers with int8 as bigint, given to each pool (pg's global parsers stay untouched). */
const PARSERS = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID
      ? (value: string) => BigInt(value)
      : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};

/** One statement per template literal call site, so its name can be reused on every connection. */
const statements = new WeakMap<TemplateStringsArray, { name: string; text: string }>();
let statementCount = 0;

function statementOf(strings: TemplateStringsArray): { name: string; text: string } {
  let statement = statements.get(strings);
  if (statement === undefined) {
    statementCount += 1;
    statement = {
      name: `sika_${statementCount}`,
      text: strings.reduce((text, part, index) => `${text}$${index}${part}`),
    };
    statements.set(strings, statement);
  }
  return statement;
}

/** pg sends parameters as text: a bigint needs its decimal form, a byte array a Buffer. */
function parameterOf(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value);
  return value;
}

function queryConfig(strings: TemplateStringsArray, values: unknown[]): QueryConfig {
  const { name, text } = statementOf(strings);
  return { name, text, values: values.map(parameterOf) };
}

/** Thrown when no connection frees up in time: the database is saturated, the caller should retry later. */
export function databaseSaturated(cause?: unknown): AppError {
  return new AppError('service_unavailable', SERVICE_UNAVAILABLE_MESSAGE, { cause });
}

const SATURATED_METRIC = 'sika_db_pool_saturated_total';

/** The process's one counter of refusals, shared by its pools (payouts' relay has its own). */
function saturationCounter(metrics: Metrics): () => void {
  const counter =
    (metrics.registry.getSingleMetric(SATURATED_METRIC) as ReturnType<typeof createCounter> | undefined) ??
    createCounter(metrics, {
      name: SATURATED_METRIC,
      help: 'Callers answered service_unavailable because no database connection freed up within the acquire timeout.',
      labelNames: [],
    });
  return () => counter.inc();
}

export class SqlDatabase {
  private readonly pool: Pool;
  private readonly acquireTimeoutMs: number;
  private readonly saturated: (() => void) | undefined;
  /** The connections this pool has handed out before. */
  private readonly known = new WeakSet<PoolClient>();

  constructor({
    url,
    schema,
    maxConnections,
    acquireTimeoutMs,
    statementTimeoutMs,
    asynchronousCommit,
    metrics,
  }: SqlDatabaseOptions) {
    this.saturated = metrics && saturationCounter(metrics);
    if (!POSTGRES_SCHEMA_NAME.test(schema)) throw new Error(`invalid Postgres schema name: ${schema}`);
    this.acquireTimeoutMs = acquireTimeoutMs ?? DEFAULTS.acquireTimeoutMs;
    const config: PoolConfig = {
      connectionString: url,
      max: maxConnections ?? DEFAULTS.maxConnections,
      options: [
        `-c search_path=${schema}`,
        `-c statement_timeout=${statementTimeoutMs ?? DEFAULTS.statementTimeoutMs}`,
        ...(asynchronousCommit === true ? ['-c synchronous_commit=off'] : []),
      ].join(' '),
      types: PARSERS,
      ...KEPT_CONNECTIONS,
    };
    this.pool = new Pool(config);
    // An idle connection that dies (a Postgres restart) must not crash the process: the pool replaces it.
    this.pool.on('error', () => undefined);
  }

  async $queryRaw<T = unknown>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T> {
    return (await this.runAlone(queryConfig(strings, values))).rows as T;
  }

  async $executeRaw(strings: TemplateStringsArray, ...values: unknown[]): Promise<number> {
    return (await this.runAlone(queryConfig(strings, values))).rowCount ?? 0;
  }

  /** One statement on a connection of its own; a connection lost under it is dropped, not given back. */
  private async runAlone(config: QueryConfig): Promise<QueryResult> {
    const client = await this.acquire(this.acquireTimeoutMs);
    let lost: Error | undefined;
    try {
      return await client.query(config);
    } catch (error) {
      if (isDependencyUnavailable(error) && error instanceof Error) lost = error;
      throw error;
    } finally {
      client.release(lost);
    }
  }

  /**
   * Runs `fn` in one transaction on one connection: commits if it resolves, rolls back if it throws. A
   * connection whose rollback failed is discarded, never returned to the pool mid-transaction.
   */
  async $transaction<R>(
    fn: (tx: SqlTransaction) => Promise<R>,
    options: SqlTransactionOptions = {},
  ): Promise<R> {
    const client = await this.acquire(options.maxWait ?? this.acquireTimeoutMs);
    const deadline = Date.now() + (options.timeout ?? DEFAULT_TRANSACTION_TIMEOUT_MS);
    let finished = false;
    const run = async (config: QueryConfig) => {
      if (finished) throw new Error('the transaction is already finished');
      if (Date.now() > deadline) throw new Error('the transaction outlived its timeout');
      return client.query(config);
    };
    const tx: SqlTransaction = {
      $queryRaw: async <T>(strings: TemplateStringsArray, ...values: unknown[]) =>
        (await run(queryConfig(strings, values))).rows as T,
      $executeRaw: async (strings: TemplateStringsArray, ...values: unknown[]) =>
        (await run(queryConfig(strings, values))).rowCount ?? 0,
    };
    let broken: unknown;
    try {
      // One round trip: a simple query may hold several statements.
      await client.query(options.asynchronousCommit === true ? ASYNCHRONOUS_BEGIN : 'BEGIN');
      const result = await fn(tx);
      if (Date.now() > deadline) throw new Error('the transaction outlived its timeout');
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      finished = true;
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  async $disconnect(): Promise<void> {
    await this.pool.end();
  }

  /**
   * A connection of the pool. Its prepared statements keep their plans until Postgres makes them again, which it
   * does when a table's statistics change (autovacuum's ANALYZE in production; this machine's CI Postgres runs
   * without it, see docs/performance.md).
   */
  private async acquire(timeoutMs: number): Promise<PoolClient> {
    const client = await this.connect(timeoutMs);
    if (!this.known.has(client)) {
      // The pool listens for errors on idle connections only: one that dies while checked out (a Postgres
      // restart during a transaction) would otherwise emit an unhandled 'error' and end the process. Its
      // next statement fails instead, and that failure is answered service_unavailable (toAppError).
      client.on('error', () => undefined);
      this.known.add(client);
    }
    return client;
  }

  /**
   * Waits at most `timeoutMs` for a connection, even when one looked free (another caller may take it
   * first); the late one, if it comes, goes straight back.
   */
  private connect(timeoutMs: number): Promise<PoolClient> {
    return new Promise((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        this.saturated?.();
        reject(databaseSaturated());
      }, timeoutMs);
      this.pool.connect().then(
        (client) => {
          clearTimeout(timer);
          if (timedOut) client.release();
          else resolve(client);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (!timedOut) reject(error);
        },
      );
    });
  }
}
