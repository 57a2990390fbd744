import path from 'node:path';
import { Writable } from 'node:stream';

import { createLogger, newId, type Logger } from '@sika/platform';
import { createTestSchema, randomSuffix, type TestSchema } from '@sika/testing';

import type { UserRecord } from '../../src/app/ports';
import { createDatabase, type DashboardDatabase } from '../../src/infra/database';

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../prisma/migrations');

export interface AccountsSchema {
  schema: TestSchema;
  /** The service's own database client, built by its own factory, on the test schema. */
  db: DashboardDatabase;
  close(): Promise<void>;
}

/** A fresh schema with the dashboard's committed migrations applied, and a client of the service on it. */
export async function createAccountsSchema(prefix: string): Promise<AccountsSchema> {
  const schema = await createTestSchema({ prefix, migrationsDir: MIGRATIONS_DIR });
  const db = createDatabase(schema.databaseUrl, schema.schema);
  return {
    schema,
    db,
    close: async () => {
      await db.destroy();
      await schema.drop();
    },
  };
}

/** A user as sign-up would store it: the email already lower-cased, a hash that is never checked here. */
export function aUser(overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id: newId('usr'),
    merchantId: newId('mer'),
    email: `merchant-${randomSuffix()}@example.com`,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$test$initial',
    createdAt: new Date('2026-03-01T09:00:00.000Z'),
    ...overrides,
  };
}

/** A logger whose JSON lines the test reads. */
export function capturingLogger(service: string): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const logger = createLogger({
    service,
    level: 'debug',
    destination: new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        written.push(chunk.toString());
        done();
      },
    }),
  });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}
