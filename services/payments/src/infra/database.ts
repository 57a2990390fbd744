import { SqlDatabase, type Metrics, type SqlTransaction } from '@sika/platform';
import type { Transaction, UnitOfWork } from '../app/ports';

export type Database = SqlDatabase;
/** What an interactive transaction's callback receives. */
export type Tx = SqlTransaction;
/** Reads work on the pool or inside a transaction alike: both have the same raw API. */
export type Reader = SqlTransaction;

/** Connections per process: gRPC calls, the two consumers, the outbox relay and the schedulers share them. */
const MAX_CONNECTIONS = 10;

export function createDatabase(url: string, schema: string, metrics?: Metrics): Database {
  return new SqlDatabase({ url, schema, maxConnections: MAX_CONNECTIONS, ...(metrics && { metrics }) });
}

/** The use cases' transactions, on the pool's interactive transactions. */
export class SqlUnitOfWork implements UnitOfWork {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.db.$transaction((tx) => work(tx));
  }

  get reader(): Transaction {
    return this.db;
  }
}
