import { randomUUID } from 'node:crypto';
import { createLogger, Database, ManualClock } from '@sika/platform';
import type { TestSchema } from '@sika/testing';

import type { DB } from '../src/generated/database';
import { ApplyPayerActions } from '../src/app/apply-payer-actions';
import { DeliverCallbacks } from '../src/app/deliver-callbacks';
import type { LeasedCallbackDelivery } from '../src/app/ports';
import { HttpCallbackSender } from '../src/infra/callback-sender';
import { SqlDemandeRepository } from '../src/infra/sql-demande-repository';
import { SqlNotificationRepository } from '../src/infra/sql-notification-repository';
import { SqlPayerActionRepository } from '../src/infra/sql-payer-action-repository';
import { SqlWebhookRepository } from '../src/infra/sql-webhook-repository';
import { CallbackReceiver, createSimulatorSchema, receivedDemande } from './support';

// The payer worker's callbacks go out without a claim round, and a process that dies before sending them
// leaves them to the claim once their lease runs out. The clock is moved by hand: nothing here waits.
const CLIENT_ID = 'sika-test';
const NOW = new Date('2026-11-26T10:00:00.000Z');
const LEASE_MS = 6_000;

describe('callbacks handed over by the payer worker', () => {
  let schema: TestSchema;
  let db: Database<DB>;
  let receiver: CallbackReceiver;
  let sender: HttpCallbackSender;
  const logger = createLogger({ service: 'pispi-simulator-test', level: 'silent' });

  beforeAll(async () => {
    schema = await createSimulatorSchema();
    db = new Database<DB>({ url: schema.databaseUrl, schema: schema.schema, maxConnections: 4 });
    receiver = new CallbackReceiver();
    await new SqlWebhookRepository(db).insert({
      id: randomUUID(),
      clientId: CLIENT_ID,
      callbackUrl: await receiver.start(),
      alias: null,
      events: [],
      secret: 'xsk_secret',
      createdAt: NOW,
    });
    sender = new HttpCallbackSender(2_000);
  });

  afterAll(async () => {
    await sender.close();
    await receiver.stop();
    await db.destroy();
    await schema.drop();
  });

  /** A demande the paying payer (alias …01), or another, answers at NOW; its txId. */
  async function paidDemande(payeurAlias = '+2250000000001'): Promise<string> {
    const { id, record, payerAction } = receivedDemande(payeurAlias, NOW);
    expect(await new SqlDemandeRepository(db).insert(CLIENT_ID, id, record, payerAction)).toBe('inserted');
    return record.txId;
  }

  function worker(clock: ManualClock, deliver?: LeasedCallbackDelivery) {
    const notifications = new SqlNotificationRepository(db);
    const callbacks = new DeliverCallbacks(notifications, sender, clock, logger, {
      batchSize: 20,
      leaseMs: LEASE_MS,
    });
    const payers = new ApplyPayerActions(new SqlPayerActionRepository(db), clock, logger, {
      leaseMs: LEASE_MS,
      deliver: deliver ?? ((leased) => callbacks.deliverLeased(leased)),
    });
    return { payers, callbacks, notifications };
  }

  const callbacksFor = (txId: string) => receiver.received.filter(({ body }) => body.includes(txId));

  const notificationOf = async (txId: string) =>
    (
      await schema.query<{ attempts: number; delivered_at: Date | null; next_attempt_at: Date }>(
        `SELECT n.attempts, n.delivered_at, n.next_attempt_at FROM notifications n
         JOIN demandes d ON d.id = n.demande_id WHERE d.tx_id = $1`,
        [txId],
      )
    )[0];

  it("delivers the payer's callback right after the answer, with no claim round", async () => {
    const txId = await paidDemande();
    const clock = new ManualClock(NOW);
    const { payers, notifications } = worker(clock);
    const claims = jest.spyOn(notifications, 'claimDue');

    expect(await payers.execute()).toBe(1);

    expect(claims).not.toHaveBeenCalled();
    expect(callbacksFor(txId)).toHaveLength(1);
    expect(callbacksFor(txId)[0]?.body).toContain('PAIEMENT_RECU');
    expect(await notificationOf(txId)).toMatchObject({ attempts: 1, delivered_at: NOW });
  });

  it('answers a round of payers at once, each demande with its own answer and callback, recorded together', async () => {
    const payers = ['+2250000000001', '+2250000000002', '+2250000000001', '+2250000000002'];
    const txIds = await Promise.all(payers.map((alias) => paidDemande(alias)));
    const clock = new ManualClock(NOW);
    const round = worker(clock);
    const records = jest.spyOn(round.notifications, 'markDelivered');

    expect(await round.payers.execute()).toBe(4);
    expect(records).toHaveBeenCalledTimes(1);

    const statuts = await schema.query<{ tx_id: string; statut: string }>(
      'SELECT tx_id, statut FROM demandes WHERE tx_id = ANY($1)',
      [txIds],
    );
    expect(Object.fromEntries(statuts.map(({ tx_id, statut }) => [tx_id, statut]))).toEqual(
      Object.fromEntries(txIds.map((txId, i) => [txId, i % 2 === 0 ? 'IRREVOCABLE' : 'REJETE'])),
    );
    for (const [i, txId] of txIds.entries()) {
      expect(callbacksFor(txId)).toHaveLength(1);
      expect(callbacksFor(txId)[0]?.body).toContain(i % 2 === 0 ? 'PAIEMENT_RECU' : 'RTP_REJETE');
      expect(await notificationOf(txId)).toMatchObject({ attempts: 1, delivered_at: NOW });
    }
  });

  it('leaves a handed-over callback the process never sent to the claim, once its lease has run out', async () => {
    const txId = await paidDemande();
    const clock = new ManualClock(NOW);
    // The process dies between its commit and the sending: the callbacks it held are never sent.
    const { payers } = worker(clock, () => Promise.resolve());
    expect(await payers.execute()).toBe(1);
    expect(await notificationOf(txId)).toMatchObject({
      attempts: 0,
      delivered_at: null,
      next_attempt_at: new Date(NOW.getTime() + LEASE_MS),
    });

    // Another process's callback worker: nothing to claim while the lease holds, then the callback.
    const next = worker(clock);
    expect(await next.callbacks.execute()).toBe(0);
    expect(callbacksFor(txId)).toHaveLength(0);

    clock.advance(LEASE_MS);
    expect(await next.callbacks.execute()).toBe(1);
    expect(callbacksFor(txId)).toHaveLength(1);
    expect(await notificationOf(txId)).toMatchObject({
      attempts: 1,
      delivered_at: new Date(NOW.getTime() + LEASE_MS),
    });
  });
});
