import type { MessagingDatabase, MessagingTables } from '@sika/messaging';
import type { Database } from '@sika/platform';
import type { Kysely } from 'kysely';

import type { DB } from '../generated/database';

/**
 * The service's database as @sika/messaging takes it. Its schema includes the outbox and inbox (messaging.prisma),
 * but Kysely's types are invariant in their tables: a Kysely of more tables is not assignable to one of fewer.
 */
export function messagingDatabase(db: Database<DB>): Database<MessagingTables>;
export function messagingDatabase(db: Kysely<DB>): MessagingDatabase;
export function messagingDatabase(db: Kysely<DB>): MessagingDatabase {
  return db as unknown as MessagingDatabase;
}
