import { join } from 'node:path';
import { Database } from '@sika/platform';
import { createTestSchema } from '@sika/testing';
import type { Transaction } from 'kysely';

import type { MessagingTables } from '../../src';

/** The outbox and inbox tables, generated from prisma/messaging.prisma by `pnpm sql:test`. */
const MIGRATIONS = join(__dirname, '../prisma/migrations');

/** Stands for a service's own table: the state change that goes with an outbox row or an inbox row. */
const EFFECTS_TABLE = 'CREATE TABLE effects (message_id text NOT NULL, body text NOT NULL)';

/** A service's tables as the tests see them: the library's and one of its own. */
export type TestTables = MessagingTables & { effects: { message_id: string; body: string } };
export type TestTransaction = Transaction<TestTables>;

export interface TestDatabase {
  schema: string;
  /** Server URL without search_path, as the relay fixture takes it. */
  databaseUrl: string;
  database: Database<TestTables>;
  /** Plain SQL in the schema, for setup and assertions; the code under test goes through `database`. */
  query<Row extends Record<string, unknown>>(sql: string, values?: unknown[]): Promise<Row[]>;
  drop(): Promise<void>;
}

/** A fresh schema holding the messaging tables, and a Database bound to it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const schema = await createTestSchema({ prefix: 'messaging', migrationsDir: MIGRATIONS });
  await schema.query(EFFECTS_TABLE);
  const database = new Database<TestTables>({ url: schema.databaseUrl, schema: schema.schema });
  return {
    schema: schema.schema,
    databaseUrl: schema.databaseUrl,
    database,
    query: (sql, values) => schema.query(sql, values),
    async drop() {
      await database.destroy();
      await schema.drop();
    },
  };
}
