import path from 'node:path';
import { ledgerV1 } from '@sika/contracts';
import {
  createGrpcClient,
  createLogger,
  createPrismaClient,
  ManualClock,
  newId,
  type GrpcClient,
  type RunningGrpcServer,
} from '@sika/platform';
import { createTestSchema, type TestSchema } from '@sika/testing';
import { PrismaClient } from '../src/generated/prisma/client';
import { startLedgerServer } from '../src/server';

export interface LedgerHarness {
  db: TestSchema;
  clock: ManualClock;
  client: GrpcClient<ledgerV1.LedgerServiceClient>;
  close(): Promise<void>;
}

/** Silent unless TEST_LOG_LEVEL names a level. */
const LOG_LEVEL = process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent';

/** The ledger on a fresh schema with the committed migrations, served over real gRPC on a free port. */
export async function startLedger(): Promise<LedgerHarness> {
  const db = await createTestSchema({
    prefix: 'ledger',
    migrationsDir: path.join(__dirname, '../prisma/migrations'),
  });
  const prisma = createPrismaClient(PrismaClient, { url: db.databaseUrl, schema: db.schema });
  const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
  const server: RunningGrpcServer = await startLedgerServer({
    prisma,
    host: '127.0.0.1',
    grpcPort: 0,
    clock,
    logger: createLogger({ service: 'ledger-test', level: LOG_LEVEL }),
  });
  const client = createGrpcClient(ledgerV1.LedgerServiceClient, `127.0.0.1:${server.port}`, {
    deadlineMs: 10_000,
  });
  return {
    db,
    clock,
    client,
    async close() {
      client.close();
      await server.shutdown(1_000);
      await prisma.$disconnect();
      await db.drop();
    },
  };
}

/** The single row a query must return. */
export async function queryOne<Row extends Record<string, unknown>>(
  db: TestSchema,
  sql: string,
  params?: unknown[],
): Promise<Row> {
  const rows = await db.query<Row>(sql, params);
  if (rows.length !== 1 || rows[0] === undefined) throw new Error(`expected one row, got ${rows.length}`);
  return rows[0];
}

export const testScope = (livemode = false) => ({ merchantId: newId('mer'), livemode });
