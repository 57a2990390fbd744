import { batchLoop, createLogger, Database, ManualClock } from '@sika/platform';
import { waitFor, type TestSchema } from '@sika/testing';
import { sql } from 'kysely';
import { RetainCallbackEvents } from '../src/app/retain-callback-events';
import type { DB } from '../src/generated/database';
import { SqlCallbackStore } from '../src/infra/sql-callback-store';
import { createPspSchema } from './support';

const DAY_MS = 24 * 60 * 60_000;
const now = new Date('2026-03-01T09:00:00.000Z');

let schema: TestSchema;
let db: Database<DB>;

beforeAll(async () => {
  schema = await createPspSchema();
  db = new Database<DB>({ url: schema.databaseUrl, schema: schema.schema, maxConnections: 2 });
});

afterAll(async () => {
  await db?.destroy();
  await schema?.drop();
});

/** `count` events received `ageDays` before now, with end-to-end ids prefixed by `prefix`. */
async function insertEvents(prefix: string, count: number, ageDays: number): Promise<void> {
  await sql`
    INSERT INTO scheme_callback_events (mode, ev_code, end2end_id, occurrence, tx_id, event, effect, received_at)
    SELECT 'test', 'PAIEMENT_RECU', ${prefix} || n, '', 'SIKAtx' || n, '{}'::jsonb, 'published',
           ${new Date(now.getTime() - ageDays * DAY_MS)}::timestamptz
      FROM generate_series(1, ${count}::int) AS n`.execute(db);
}

it('deletes, in batches from its loop, the scheme callback events older than the retention, and only them', async () => {
  await insertEvents('OLD', 7, 31);
  await insertEvents('KEPT', 3, 29);
  const retain = new RetainCallbackEvents({
    store: new SqlCallbackStore(db),
    clock: new ManualClock(now),
    logger: createLogger({ service: 'psp-retention-test', level: 'silent' }),
    retentionMs: 30 * DAY_MS,
    batchSize: 2,
  });
  const loop = batchLoop({
    name: 'callback events retention',
    intervalMs: 60_000,
    batch: () => retain.execute(),
    clock: new ManualClock(now),
    logger: createLogger({ service: 'psp-retention-test', level: 'silent' }),
  });
  await loop.start();
  try {
    await waitFor(
      async () => {
        const row = await db
          .selectFrom('scheme_callback_events')
          .select((eb) => eb.fn.countAll<bigint>().as('n'))
          .executeTakeFirst();
        return row?.n === 3n;
      },
      { description: 'the events past the retention deleted' },
    );
  } finally {
    await loop.stop();
  }
  const kept = await db
    .selectFrom('scheme_callback_events')
    .select('end2end_id')
    .orderBy('end2end_id')
    .execute();
  expect(kept.map((row) => row.end2end_id)).toEqual(['KEPT1', 'KEPT2', 'KEPT3']);
});
