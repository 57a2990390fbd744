import { newId } from '@sika/platform';
import { createTestSchema, readMigrations, type TestSchema } from '@sika/testing';
import { MIGRATIONS_DIR } from './support/dispatcher';

const BACKFILL = 'event_object_id';

describe('the object_id migration', () => {
  let db: TestSchema;

  beforeAll(async () => {
    db = await createTestSchema({ prefix: 'webhooks_backfill' });
  });

  afterAll(async () => {
    await db.drop();
  });

  it('fills in the events stored before it from their bodies, and leaves them immutable', async () => {
    const migrations = await readMigrations(MIGRATIONS_DIR);
    const index = migrations.findIndex((migration) => migration.name.endsWith(`_${BACKFILL}`));
    expect(index).toBeGreaterThan(0);
    for (const migration of migrations.slice(0, index)) await db.query(migration.sql);

    const paymentId = newId('pay');
    const payoutId = newId('po');
    const stored = [
      { id: newId('evt'), type: 'payment.succeeded', object: { id: paymentId, object: 'payment' } },
      { id: newId('evt'), type: 'payout.paid', object: { id: payoutId, object: 'payout' } },
      { id: newId('evt'), type: 'webhook.test', object: { object: 'webhook_test', message: 'hello' } },
    ];
    for (const event of stored) {
      await db.query(
        `INSERT INTO events (id, merchant_id, livemode, type, payload, created_at)
         VALUES ($1, 'mer_0123456789abcdefghijklmn', false, $2, $3, now())`,
        [event.id, event.type, JSON.stringify({ id: event.id, data: { object: event.object } })],
      );
    }

    for (const migration of migrations.slice(index)) await db.query(migration.sql);

    const rows = await db.query<{ id: string; object_id: string | null }>('SELECT id, object_id FROM events');
    expect(Object.fromEntries(rows.map((row) => [row.id, row.object_id]))).toEqual({
      [stored[0]!.id]: paymentId,
      [stored[1]!.id]: payoutId,
      [stored[2]!.id]: null,
    });
    await expect(db.query("UPDATE events SET object_id = 'pay_x'")).rejects.toThrow('events are immutable');
  });
});
