import { randomUUID } from 'node:crypto';
import { Database } from '@sika/platform';
import { countingStatements, scanIndexOf, type TestSchema } from '@sika/testing';

import type { DB } from '../src/generated/database';
import { SqlDemandeRepository } from '../src/infra/sql-demande-repository';
import { SqlNotificationRepository } from '../src/infra/sql-notification-repository';
import { SqlPayerActionRepository } from '../src/infra/sql-payer-action-repository';
import { createSimulatorSchema, newAttemptTxId, receivedDemande } from './support';

// The repositories' SQL where the HTTP tests cannot look: rows the API never shows.
const CLIENT_ID = 'sika-test';
const NOW = new Date('2026-11-26T10:00:00.000Z');

describe('simulator repositories', () => {
  let schema: TestSchema;
  let db: Database<DB>;
  let demandes: SqlDemandeRepository;
  let actions: SqlPayerActionRepository;

  beforeAll(async () => {
    schema = await createSimulatorSchema();
    db = new Database<DB>({ url: schema.databaseUrl, schema: schema.schema, maxConnections: 4 });
    demandes = new SqlDemandeRepository(db);
    actions = new SqlPayerActionRepository(db);
  });

  afterAll(async () => {
    await db.destroy();
    await schema.drop();
  });

  /** A demande received at NOW from this payer, its payer's answer due at once; its id. */
  async function received(payeurAlias: string): Promise<{ id: string; txId: string }> {
    const { id, record, payerAction } = receivedDemande(payeurAlias, NOW);
    expect(await demandes.insert(CLIENT_ID, id, record, payerAction)).toBe('inserted');
    return { id, txId: record.txId };
  }

  const decisionOf = async (demandeId: string) =>
    (
      await schema.query<{ action: string; due_at: Date; applied_at: Date | null }>(
        'SELECT action, due_at, applied_at FROM payer_decisions WHERE demande_id = $1',
        [demandeId],
      )
    )[0];

  it('records demandes received together by one statement, each with its decision; a used txId is a duplicate', async () => {
    const { client, statements } = countingStatements<DB>(db);
    const counted = new SqlDemandeRepository(client);
    const txId = newAttemptTxId();
    const received = [
      receivedDemande('+225 0000000001', NOW, txId),
      receivedDemande('+225 0000000002', NOW),
      receivedDemande('+225 0000000002', NOW, txId),
    ];

    const answers = await Promise.all(
      received.map(({ id, record, payerAction }) => counted.insert(CLIENT_ID, id, record, payerAction)),
    );

    expect(answers).toEqual(['inserted', 'inserted', 'duplicate']);
    expect(statements()).toBe(1);
    expect(await Promise.all(received.map(({ id }) => decisionOf(id)))).toEqual([
      expect.objectContaining({ action: received[0]!.payerAction!.action, applied_at: null }),
      expect.objectContaining({ action: received[1]!.payerAction!.action, applied_at: null }),
      undefined,
    ]);
    // Their decisions are due: gone, they leave the next tests' rounds alone.
    await schema.query('DELETE FROM demandes WHERE id = ANY($1)', [received.map(({ id }) => id)]);
  });

  it('marks a decision applied when the action no longer applies, keeping what was scheduled', async () => {
    // Alias …04 defers: its 521 runs out at its deadline unless paid before.
    const { id, txId } = await received('+2250000000004');
    const scheduled = await decisionOf(id);
    const appliedAt = new Date(NOW.getTime() + 1_000);

    const result = await actions.applyNow(CLIENT_ID, txId, 'pay', appliedAt, () => undefined);

    expect(result?.answered).toBeUndefined();
    expect(await decisionOf(id)).toEqual({
      action: 'expire',
      due_at: scheduled?.due_at,
      applied_at: appliedAt,
    });
  });

  it("skips a due payer action whose demande another transaction holds, and applies it once it's free", async () => {
    const { id } = await received('+2250000000001');
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.transact(async (tx) => {
      await tx.selectFrom('demandes').select('id').where('id', '=', id).forUpdate().execute();
      locked();
      await released;
    });
    await isLocked;

    const whileHeld = await actions.applyDue(NOW, null, 10, NOW, () => undefined);
    release();
    await holder;

    expect(whileHeld.applied).toBe(0);
    expect((await decisionOf(id))?.applied_at).toBeNull();
    expect((await actions.applyDue(NOW, null, 10, NOW, () => undefined)).applied).toBe(1);
    expect((await decisionOf(id))?.applied_at).toEqual(NOW);
  });

  it('retries a failed callback at its next attempt, then abandons it for good, its due time kept', async () => {
    const notifications = new SqlNotificationRepository(db);
    const { id: demandeId } = await received('+2250000000002');
    const webhookId = randomUUID();
    const notificationId = randomUUID();
    await schema.query(
      `INSERT INTO webhooks (id, client_id, callback_url, events, secret, created_at)
       VALUES ($1, $2, 'http://127.0.0.1:1/callbacks', '{}', 'xsk_secret', $3)`,
      [webhookId, CLIENT_ID, NOW],
    );
    await schema.query(
      `INSERT INTO notifications (id, webhook_id, demande_id, ev_code, body, next_attempt_at, created_at)
       VALUES ($1, $2, $3, 'RTP_REJETE', '{}', $4, $4)`,
      [notificationId, webhookId, demandeId, NOW],
    );
    const retryAt = new Date(NOW.getTime() + 60_000);
    const abandonedAt = new Date(NOW.getTime() + 61_000);
    const row = async () =>
      (
        await schema.query(
          'SELECT attempts, last_error, next_attempt_at, abandoned_at FROM notifications WHERE id = $1',
          [notificationId],
        )
      )[0];

    await notifications.markFailed(notificationId, 1, 'x'.repeat(600), retryAt, NOW);
    expect(await row()).toEqual({
      attempts: 1,
      last_error: 'x'.repeat(500),
      next_attempt_at: retryAt,
      abandoned_at: null,
    });

    await notifications.markFailed(notificationId, 2, 'HTTP 500', null, abandonedAt);
    expect(await row()).toEqual({
      attempts: 2,
      last_error: 'HTTP 500',
      next_attempt_at: retryAt,
      abandoned_at: abandonedAt,
    });
    expect(await notifications.claimDue(new Date(NOW.getTime() + 3_600_000), 10, 1_000)).toEqual([]);
  });

  it('scans payer decisions and callbacks through indexes of what is still to do', async () => {
    // Applying a decision or delivering a callback then writes no entry there, and the scans skip the history.
    expect(
      await scanIndexOf(
        schema.pool,
        'SELECT demande_id FROM payer_decisions WHERE applied_at IS NULL AND due_at <= now() ORDER BY due_at',
      ),
    ).toEqual({ index: 'payer_decisions_due_idx', predicate: '(applied_at IS NULL)' });
    expect(
      await scanIndexOf(
        schema.pool,
        `SELECT id FROM notifications
          WHERE delivered_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= now() ORDER BY next_attempt_at`,
      ),
    ).toEqual({
      index: 'notifications_due_idx',
      predicate: '((delivered_at IS NULL) AND (abandoned_at IS NULL))',
    });
  });
});
