import { sql } from 'kysely';
import { outboxRows, type OutboxEvent } from '../src';
import { createTestDatabase, type TestDatabase } from './support/database';

/**
 * outboxRows' arrays, inserted by one statement as its documentation says, give the rows enqueue would: the
 * payload's bytes, the headers, and the events' order.
 */
describe('outboxRows', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('writes, in one statement, rows equal to the events and in their order', async () => {
    const events: OutboxEvent[] = Array.from({ length: 5 }, (_, index) => ({
      routingKey: `test.event.${index}`,
      type: 'test.Event',
      // Every byte value, and quotes and backslashes in the headers: what an array literal must escape.
      payload: Uint8Array.from({ length: 256 }, (__, byte) => (byte + index) % 256),
      headers: { 'x-note': `"quoted" \\ ${index}` },
    }));
    const o = outboxRows([...events, { ...events[0]!, messageId: 'msg_given', routingKey: 'test.last' }]);
    await sql`
      INSERT INTO outbox (id, routing_key, type, payload, headers, created_at)
      SELECT e.id, e.routing_key, e.type, e.payload, e.headers, clock_timestamp() + e.n * interval '1 microsecond'
        FROM unnest(${o.ids}::text[], ${o.routingKeys}::text[], ${o.types}::text[], ${o.payloads}::bytea[],
          ${o.headers}::jsonb[]) WITH ORDINALITY AS e (id, routing_key, type, payload, headers, n)`.execute(
      db.database,
    );

    const rows = await db.query<{ id: string; routing_key: string; payload: Buffer; headers: unknown }>(
      'SELECT id, routing_key, payload, headers FROM outbox ORDER BY created_at, id',
    );
    expect(rows.map((row) => row.routing_key)).toEqual([...events.map((e) => e.routingKey), 'test.last']);
    rows.slice(0, 5).forEach((row, index) => {
      expect(row.id).toMatch(/^msg_[A-Za-z0-9]{24}$/);
      expect(Buffer.compare(row.payload, Buffer.from(events[index]!.payload))).toBe(0);
      expect(row.headers).toEqual(events[index]!.headers);
    });
    expect(rows[5]?.id).toBe('msg_given');
  });
});
