import { createLogger, loadConfig, ManualClock } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { z } from 'zod';
import { MessagingRetention, RETENTION_CONFIG, retentionLoop } from '../src';
import { createTestDatabase, type TestDatabase } from './support/database';

const DAY_MS = 86_400_000;

describe('messaging retention', () => {
  let db: TestDatabase;
  const clock = new ManualClock(new Date('2026-03-10T12:00:00Z'));

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(() => db.drop());

  async function outboxRow(id: string, publishedAt: string | null): Promise<void> {
    await db.query(
      `INSERT INTO outbox (id, routing_key, type, payload, created_at, published_at)
       VALUES ($1, 'test.event', 'test.Event', '\\x00', $2, $3)`,
      [id, publishedAt ?? '2026-03-01T00:00:00Z', publishedAt],
    );
  }

  async function inboxRow(messageId: string, processedAt: string): Promise<void> {
    await db.query(`INSERT INTO inbox (consumer, message_id, processed_at) VALUES ('c', $1, $2)`, [
      messageId,
      processedAt,
    ]);
  }

  it('deletes published outbox rows and inbox rows past their age, never an unpublished row', async () => {
    await outboxRow('msg_old_published', '2026-03-09T11:00:00Z');
    await outboxRow('msg_recent_published', '2026-03-09T13:00:00Z');
    await outboxRow('msg_old_unpublished', null);
    await inboxRow('msg_old', '2026-03-02T11:00:00Z');
    await inboxRow('msg_recent', '2026-03-03T13:00:00Z');
    const retention = new MessagingRetention({
      db: db.database,
      clock,
      outboxRetentionMs: DAY_MS,
      inboxRetentionMs: 7 * DAY_MS,
    });

    expect(await retention.round()).toBe(false);

    expect(await db.query('SELECT id FROM outbox ORDER BY id')).toEqual([
      { id: 'msg_old_unpublished' },
      { id: 'msg_recent_published' },
    ]);
    expect(await db.query('SELECT message_id FROM inbox')).toEqual([{ message_id: 'msg_recent' }]);
  });

  it('deletes a backlog in batches and says when more is left', async () => {
    await db.query('DELETE FROM outbox');
    for (let i = 0; i < 5; i += 1) await outboxRow(`msg_batch_${i}`, '2026-01-01T00:00:00Z');
    const retention = new MessagingRetention({
      db: db.database,
      clock,
      outboxRetentionMs: DAY_MS,
      inboxRetentionMs: DAY_MS,
      batchSize: 2,
    });

    expect(await retention.round()).toBe(true);
    expect(await retention.round()).toBe(true);
    expect(await retention.round()).toBe(false);
    expect(await db.query('SELECT id FROM outbox')).toEqual([]);
  });

  it('runs as a service loop with the configured ages: one day of outbox, seven days of inbox by default', async () => {
    const config = loadConfig(z.object(RETENTION_CONFIG), {});
    const { OUTBOX_RETENTION, INBOX_RETENTION } = config;
    expect({ OUTBOX_RETENTION, INBOX_RETENTION }).toEqual({
      OUTBOX_RETENTION: DAY_MS,
      INBOX_RETENTION: 7 * DAY_MS,
    });
    await inboxRow('msg_loop_old', '2026-03-01T00:00:00Z');
    const loop = retentionLoop(db.database, config, {
      clock,
      logger: createLogger({ service: 'retention-test', level: 'silent' }),
    });
    await loop.start();
    try {
      await waitFor(
        async () => (await db.query("SELECT 1 FROM inbox WHERE message_id = 'msg_loop_old'")).length === 0,
      );
    } finally {
      await loop.stop();
    }
  });
});
