import type { Transaction } from 'kysely';
import { Database, type DatabaseOptions } from '@sika/platform';
import type { DB } from '../generated/database';

export type WebhooksDatabase = Database<DB>;
/** The transaction `transact`'s callback receives. */
export type Tx = Transaction<DB>;

export function createDatabase(options: DatabaseOptions): WebhooksDatabase {
  return new Database<DB>(options);
}
