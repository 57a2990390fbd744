import { join } from 'node:path';
import { createPrismaClient } from '@sika/platform';
import { createTestSchema } from '@sika/testing';
import { PrismaClient } from '../generated/prisma/client';

/** The outbox and inbox tables, generated from prisma/messaging.prisma by `pnpm sql:test`. */
const MIGRATIONS = join(__dirname, '../prisma/migrations');

/** Stands for a service's own table: the state change that goes with an outbox row or an inbox row. */
const EFFECTS_TABLE = 'CREATE TABLE effects (message_id text NOT NULL, body text NOT NULL)';

export interface TestDatabase {
  schema: string;
  /** Server URL without search_path, as createPrismaClient and the relay fixture take it. */
  databaseUrl: string;
  prisma: PrismaClient;
  /** Plain SQL in the schema, for setup and assertions; the code under test goes through Prisma. */
  query<Row extends Record<string, unknown>>(sql: string, values?: unknown[]): Promise<Row[]>;
  drop(): Promise<void>;
}

/** A fresh schema holding the messaging tables, and a Prisma client (pg adapter) bound to it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const schema = await createTestSchema({ prefix: 'messaging', migrationsDir: MIGRATIONS });
  await schema.query(EFFECTS_TABLE);
  const prisma = createPrismaClient(PrismaClient, { url: schema.databaseUrl, schema: schema.schema });
  return {
    schema: schema.schema,
    databaseUrl: schema.databaseUrl,
    prisma,
    query: (sql, values) => schema.query(sql, values),
    async drop() {
      await prisma.$disconnect();
      await schema.drop();
    },
  };
}
