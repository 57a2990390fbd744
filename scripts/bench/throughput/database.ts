import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { localDatabaseName } from '../../db/service-databases';
import { withDatabase } from '../../db/urls';
import { adminUrlFromEnv } from '../../stack/infra';

/** The stack's database, named as scripts/start.sh names it. */
export const STACK_DATABASE = localDatabaseName(process.env);

/**
 * Backends report their counters to pg_stat at most about once a second, when they go idle: wait that long
 * before reading an "after", so the last transactions of the measured work are in it.
 */
const STATS_FLUSH_MS = 1_200;

/** What the stack's database has done so far, from one snapshot of its statistics. */
export interface DatabaseCounts {
  /** Committed and rolled-back transactions, as pg_stat_database counts them. */
  transactions: number;
  /** Rows read by whole-table (sequential) scans of its tables: plans that outlived their tables. */
  scannedRows: number;
}

export interface TransactionCounter {
  read(options?: { afterFlush?: boolean }): Promise<DatabaseCounts>;
  /** The server's `autovacuum` setting. */
  autovacuum(): Promise<string>;
  /** The server's `autovacuum_naptime`, in milliseconds. */
  autovacuumNaptimeMs(): Promise<number>;
  close(): Promise<void>;
}

export async function openTransactionCounter(): Promise<TransactionCounter> {
  const client = new Client({ connectionString: withDatabase(adminUrlFromEnv(process.env), STACK_DATABASE) });
  await client.connect();
  return {
    async read({ afterFlush = false } = {}) {
      if (afterFlush) await sleep(STATS_FLUSH_MS);
      // A session keeps the stats it read for the rest of its transaction; clear them to see new counts.
      await client.query('SELECT pg_stat_clear_snapshot()');
      const result = await client.query<{ transactions: string; scanned_rows: string | null }>(
        `SELECT (SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database
                  WHERE datname = current_database())::text AS transactions,
                (SELECT sum(seq_tup_read) FROM pg_stat_user_tables)::text AS scanned_rows`,
      );
      const [row] = result.rows;
      return { transactions: Number(row?.transactions ?? NaN), scannedRows: Number(row?.scanned_rows ?? 0) };
    },
    async autovacuumNaptimeMs() {
      const result = await client.query<{ setting: string }>(
        "SELECT setting FROM pg_settings WHERE name = 'autovacuum_naptime'",
      );
      return Number(result.rows[0]?.setting ?? 60) * 1_000;
    },
    async autovacuum() {
      const result = await client.query<{ autovacuum: string }>('SHOW autovacuum');
      return result.rows[0]?.autovacuum ?? 'unknown';
    },
    close: () => client.end(),
  };
}
