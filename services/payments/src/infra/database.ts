import { Database as PlatformDatabase, type Metrics } from '@sika/platform';
import type { Kysely, Transaction as KyselyTransaction } from 'kysely';
import type { Transaction, UnitOfWork } from '../app/ports';
import type { DB } from '../generated/database';

export type Database = PlatformDatabase<DB>;
/** What an interactive transaction's callback receives. */
export type Tx = KyselyTransaction<DB>;
/** Reads work on the pool or inside a transaction alike. */
export type Reader = Kysely<DB>;

/** Connections per process: gRPC calls, the two consumers, the outbox relay and the schedulers share them. */
const MAX_CONNECTIONS = 10;

export function createDatabase(url: string, schema: string, metrics?: Metrics): Database {
  return new PlatformDatabase<DB>({
    url,
    schema,
    maxConnections: MAX_CONNECTIONS,
    ...(metrics && { metrics }),
  });
}

/** The use cases' transactions, on the pool's interactive transactions. */
export class SqlUnitOfWork implements UnitOfWork {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.db.transact((tx) => work(tx));
  }

  get reader(): Transaction {
    return this.db;
  }
}
