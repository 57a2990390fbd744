import type { Transaction } from 'kysely';
import { Database, type Metrics } from '@sika/platform';
import type { DB } from '../generated/database';

export type PayoutsDatabase = Database<DB>;
/** The transaction `transact`'s callback receives. */
export type Tx = Transaction<DB>;

export function createDatabase(url: string, schema: string, metrics: Metrics): PayoutsDatabase {
  return new Database<DB>({ url, schema, metrics });
}

/**
 * The outbox relay's own pool: its batch transaction stays open while the broker confirms the publishes (up
 * to the relay's transaction timeout when the broker is slow), so on the request pool it would hold
 * connections that requests and the consumer wait for. One connection, two when a round and a wake overlap.
 */
export function createRelayDatabase(url: string, schema: string, metrics: Metrics): PayoutsDatabase {
  return new Database<DB>({ url, schema, metrics, maxConnections: 2 });
}

/**
 * The day (`YYYY-MM-DD`) a `date` column holds: pg reads one as midnight of that day in local time, so the
 * day comes back from the local fields, whatever the process's time zone. Days are written as that text.
 */
export function dayOf(date: Date): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`;
}
