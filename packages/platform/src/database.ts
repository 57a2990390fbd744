import { AsyncLocalStorage } from 'node:async_hooks';

import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryExecutorProvider,
  type QueryResult,
  type Transaction,
  type TransactionSettings,
} from 'kysely';
import { Pool, types, type PoolClient, type PoolConfig, type QueryConfig } from 'pg';

import { POSTGRES_SCHEMA_NAME } from './config';
import { AppError, isDependencyUnavailable, SERVICE_UNAVAILABLE_MESSAGE } from './errors';
import type { ReadinessCheck } from './health';
import { createCounter, type Metrics } from './metrics';

/**
 * The one runtime database client of every service: Kysely's query builder, typed by the rows Prisma's schema
 * generates (`src/generated/database.ts`), on a pg pool of our own. Prisma stays the schema and migration tool.
 *
 * The pool keeps what the services rely on: every statement is a named prepared statement (named after its
 * SQL text, so Postgres parses and plans it once per connection), int8 is a bigint, a caller waits a bounded
 * time for a connection and is then answered service_unavailable, and a transaction has a deadline.
 */
export interface DatabaseOptions {
  url: string;
  /** The service's own Postgres schema (search_path): statements name their tables unqualified. */
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
   * them. Only for a database whose recent writes may be lost (see TransactionOptions.asynchronousCommit).
   */
  asynchronousCommit?: boolean;
  /** Where `sika_db_pool_saturated_total` counts the callers refused for want of a connection, when given. */
  metrics?: Metrics;
}

export interface TransactionOptions {
  /** Longest wait for a connection; the pool's acquireTimeoutMs when omitted. */
  maxWait?: number;
  /** Longest life of the transaction; beyond it, its next statement fails and it rolls back. */
  timeout?: number;
  /**
   * The commit returns before Postgres has flushed it to disk (`SET LOCAL synchronous_commit = off`, sent with
   * the BEGIN): no flush to wait for. A crash of Postgres may lose it (a later flushed commit of any connection
   * flushes it too), so only for a transaction whose loss is repaired by doing it again: an outbox relay's mark
   * of rows it published, which a lost mark only publishes twice.
   */
  asynchronousCommit?: boolean;
}

const DEFAULTS = {
  maxConnections: 10,
  acquireTimeoutMs: 1_000,
  statementTimeoutMs: 10_000,
};
const DEFAULT_TRANSACTION_TIMEOUT_MS = 5_000;

/**
 * Every pool of the services keeps a connection once opened, where pg closes it after 10 s idle: after a lull, a
 * burst would wait for new backends, each parsing and planning the prepared statements again (see
 * docs/performance.md). TCP keepalive holds idle ones through NATs and notices a peer that is gone.
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

/**
 * One prepared statement per SQL text, named the same on every connection. The texts come from the code, so
 * they are few; the cap only guards against a query whose text varies with its input (an `in (…)` list).
 */
const statementNames = new Map<string, string>();
const MAX_NAMED_STATEMENTS = 2_000;

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `sika_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/** pg sends parameters as text: a bigint needs its decimal form, a byte array a Buffer. */
function parameterOf(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value);
  return value;
}

const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** Thrown when no connection frees up in time: the database is saturated, the caller should retry later. */
export function databaseSaturated(cause?: unknown): AppError {
  return new AppError('service_unavailable', SERVICE_UNAVAILABLE_MESSAGE, { cause });
}

const SATURATED_METRIC = 'sika_db_pool_saturated_total';

/** The process's one counter of refusals, shared by its pools. */
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

/** A pooled pg connection as Kysely sees it, with the transaction deadline and the state its release needs. */
class PooledConnection implements DatabaseConnection {
  /** Set from BEGIN to COMMIT or ROLLBACK: past it, no statement runs. */
  deadline: number | undefined;
  /** An error that left the connection unusable (lost, or a failed rollback): the pool drops it. */
  broken: Error | undefined;

  constructor(readonly client: PoolClient) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (this.deadline !== undefined && Date.now() > this.deadline) {
      throw new Error('the transaction outlived its timeout');
    }
    const result = await this.run({
      name: statementName(compiledQuery.sql),
      text: compiledQuery.sql,
      values: compiledQuery.parameters.map(parameterOf),
    });
    return {
      rows: result.rows as R[],
      numAffectedRows: COUNTED_COMMANDS.has(result.command) ? BigInt(result.rowCount ?? 0) : undefined,
    };
  }

  async run(query: QueryConfig | string) {
    try {
      return await this.client.query(query);
    } catch (error) {
      if (isDependencyUnavailable(error) && error instanceof Error) this.broken = error;
      throw error;
    }
  }

  // eslint-disable-next-line require-yield -- no service streams rows; Kysely's interface asks for the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by this database client');
  }
}

/** What `Database.transact` hands to the driver's BEGIN: its options, taken by the first BEGIN only. */
interface TransactionScope {
  options: TransactionOptions;
  begun: boolean;
}
const transactionScope = new AsyncLocalStorage<TransactionScope>();

/** The scope's options for the transaction starting now; none for a nested or a later one. */
function optionsOfStartingTransaction(): TransactionOptions {
  const scope = transactionScope.getStore();
  if (scope === undefined || scope.begun) return {};
  return scope.options;
}

class PoolDriver implements Driver {
  /** The connections this pool has handed out before. */
  private readonly known = new WeakMap<PoolClient, PooledConnection>();

  constructor(
    private readonly pool: Pool,
    private readonly acquireTimeoutMs: number,
    private readonly saturated: (() => void) | undefined,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<PooledConnection> {
    const client = await this.connect(optionsOfStartingTransaction().maxWait ?? this.acquireTimeoutMs);
    let connection = this.known.get(client);
    if (connection === undefined) {
      // The pool listens for errors on idle connections only: one that dies while checked out (a Postgres
      // restart during a transaction) would otherwise emit an unhandled 'error' and end the process. Its
      // next statement fails instead, and that failure is answered service_unavailable (toAppError).
      client.on('error', () => undefined);
      connection = new PooledConnection(client);
      this.known.set(client, connection);
    }
    connection.broken = undefined;
    connection.deadline = undefined;
    return connection;
  }

  async beginTransaction(connection: PooledConnection, settings: TransactionSettings): Promise<void> {
    const options = optionsOfStartingTransaction();
    const scope = transactionScope.getStore();
    if (scope !== undefined) scope.begun = true;
    const isolation =
      settings.isolationLevel === undefined ? '' : ` ISOLATION LEVEL ${settings.isolationLevel}`;
    const access = settings.accessMode === undefined ? '' : ` ${settings.accessMode}`;
    // One round trip: a simple query may hold several statements.
    const begin = `BEGIN${isolation}${access}${options.asynchronousCommit === true ? '; SET LOCAL synchronous_commit = off' : ''}`;
    await connection.run(begin);
    connection.deadline = Date.now() + (options.timeout ?? DEFAULT_TRANSACTION_TIMEOUT_MS);
  }

  async commitTransaction(connection: PooledConnection): Promise<void> {
    if (connection.deadline !== undefined && Date.now() > connection.deadline) {
      throw new Error('the transaction outlived its timeout');
    }
    connection.deadline = undefined;
    await connection.run('COMMIT');
  }

  /** A connection whose rollback failed is dropped, never returned to the pool mid-transaction. */
  async rollbackTransaction(connection: PooledConnection): Promise<void> {
    connection.deadline = undefined;
    await connection.client.query('ROLLBACK').catch((error: unknown) => {
      connection.broken = error instanceof Error ? error : new Error(String(error));
    });
  }

  async releaseConnection(connection: PooledConnection): Promise<void> {
    connection.deadline = undefined;
    connection.client.release(connection.broken);
  }

  async destroy(): Promise<void> {
    await this.pool.end();
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

function poolOf({
  url,
  schema,
  maxConnections,
  statementTimeoutMs,
  asynchronousCommit,
}: DatabaseOptions): Pool {
  if (!POSTGRES_SCHEMA_NAME.test(schema)) throw new Error(`invalid Postgres schema name: ${schema}`);
  const pool = new Pool({
    connectionString: url,
    max: maxConnections ?? DEFAULTS.maxConnections,
    options: [
      `-c search_path=${schema}`,
      `-c statement_timeout=${statementTimeoutMs ?? DEFAULTS.statementTimeoutMs}`,
      ...(asynchronousCommit === true ? ['-c synchronous_commit=off'] : []),
    ].join(' '),
    types: PARSERS,
    ...KEPT_CONNECTIONS,
  });
  // An idle connection that dies (a Postgres restart) must not crash the process: the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

function dialectOf(options: DatabaseOptions): Dialect {
  const driver = new PoolDriver(
    poolOf(options),
    options.acquireTimeoutMs ?? DEFAULTS.acquireTimeoutMs,
    options.metrics && saturationCounter(options.metrics),
  );
  return {
    createDriver: () => driver,
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (db) => new PostgresIntrospector(db),
  };
}

/** Readiness `database`: a round trip through the pool, so a lost or exhausted database shows. */
export function databaseReadiness(db: QueryExecutorProvider): ReadinessCheck {
  return { name: 'database', check: async () => void (await sql`SELECT 1`.execute(db)) };
}

export class Database<DB> extends Kysely<DB> {
  constructor(options: DatabaseOptions) {
    super({ dialect: dialectOf(options) });
  }

  /** Runs `fn` in one transaction on one connection: commits if it resolves, rolls back if it throws. */
  transact<R>(fn: (tx: Transaction<DB>) => Promise<R>, options: TransactionOptions = {}): Promise<R> {
    return transactionScope.run({ options, begun: false }, () => this.transaction().execute(fn));
  }
}
