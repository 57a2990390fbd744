import path from 'node:path';
import { ledgerV1 } from '@sika/contracts';
import {
  createGrpcClient,
  createLogger,
  loadConfig,
  ManualClock,
  newId,
  type GrpcClient,
} from '@sika/platform';
import { clientOfAllowedCallers, createTestSchema, testIdentity, type TestSchema } from '@sika/testing';
import { composeLedger } from '../src/compose';
import { configSchema } from '../src/config';
import { LEDGER_CALLERS } from '../src/transport/grpc/callers';

export interface LedgerHarness {
  db: TestSchema;
  /** host:port of its gRPC server, for a client of its own (the CLI's). */
  address: string;
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
  const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
  const config = loadConfig(configSchema, {
    DATABASE_URL: db.databaseUrl,
    DATABASE_SCHEMA: db.schema,
    GRPC_PORT: '0',
    METRICS_PORT: '0',
    ...(await testIdentity('ledger')).env,
  });
  const ledger = composeLedger(config, {
    clock,
    logger: createLogger({ service: 'ledger-test', level: LOG_LEVEL }),
  });
  await ledger.start();
  const address = `127.0.0.1:${ledger.grpc.port}`;
  // Each method called as a caller the ledger allows (postPaymentCredit as payments, auditBooks as cli …).
  const client = await clientOfAllowedCallers(LEDGER_CALLERS, (tls) =>
    createGrpcClient(ledgerV1.LedgerServiceClient, address, {
      deadlineMs: 10_000,
      tls,
    }),
  );
  return {
    db,
    address,
    clock,
    client,
    async close() {
      client.close();
      await ledger.stop();
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
