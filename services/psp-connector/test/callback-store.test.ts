import { SqlDatabase } from '@sika/platform';
import { countingSqlClient, type TestSchema } from '@sika/testing';
import type { CallbackEventReceipt } from '../src/app/ports';
import type { PayerDecision, PaymentRequestUpdate } from '../src/domain/payment-request';
import { SqlCallbackStore } from '../src/infra/callback-store';
import { SqlPaymentRequestRepository } from '../src/infra/payment-request-repository';
import { createPspSchema } from './support';

describe('first decisions of callbacks that arrive together', () => {
  let schema: TestSchema;
  let db: SqlDatabase;

  beforeAll(async () => {
    schema = await createPspSchema();
    db = new SqlDatabase({ url: schema.databaseUrl, schema: schema.schema, maxConnections: 4 });
  });

  afterAll(async () => {
    await db?.$disconnect();
    await schema?.drop();
  });

  /** The store over a client that counts the statements sent through it. */
  function countedStore(): { store: SqlCallbackStore; statements: () => number } {
    const { client, statements } = countingSqlClient(db);
    return { store: new SqlCallbackStore({ ...client, $transaction: db.$transaction.bind(db) }), statements };
  }

  const at = new Date('2026-03-01T09:00:00.000Z');
  const newTxId = () => `att${Math.random().toString(36).slice(2, 14)}`;
  const newEnd2endId = () => `E${Math.random().toString(36).slice(2, 14)}`;

  /** A request sent and still without a decision. */
  async function sentRequest(): Promise<string> {
    const txId = newTxId();
    await new SqlPaymentRequestRepository(db).recordIfAbsent({
      txId,
      livemode: false,
      amount: 5_000n,
      fingerprint: 'fp',
      payerAliasMasked: '+225 07******01',
      onDelivery: false,
      watchUntil: null,
      at,
    });
    return txId;
  }

  /** recordFirstDecision's arguments for a decision about `txId`, brought by the event `end2endId`. */
  function decision(txId: string, decided: PayerDecision, end2endId = newEnd2endId()) {
    const receipt: CallbackEventReceipt = {
      mode: 'test',
      evCode: 'PAIEMENT_RECU',
      end2endId,
      occurrence: '',
      txId,
      event: { txId, end2endId },
      effect: 'published',
      receivedAt: at,
    };
    const update: PaymentRequestUpdate = {
      livemode: false,
      txId,
      decision: decided,
      reasonCode: decided === 'REJECTED' ? 'AC04' : undefined,
      endToEndId: decided === 'PAID' ? end2endId : undefined,
      amount: 5_000n,
      occurredAt: at,
      payeeMismatch: false,
    };
    return [receipt, update, decided === 'PAID' ? end2endId : undefined] as const;
  }

  async function recorded(txIds: string[]) {
    const requests = await schema.query<{ tx_id: string; decision: string | null }>(
      'SELECT tx_id, decision FROM payment_requests WHERE tx_id = ANY($1)',
      [txIds],
    );
    const events = await schema.query<{ tx_id: string }>(
      'SELECT tx_id FROM scheme_callback_events WHERE tx_id = ANY($1)',
      [txIds],
    );
    const news = await schema.query<{ id: string }>(
      `SELECT id FROM outbox WHERE routing_key = 'psp.payment_request.updated' AND created_at >= now() - interval '1 minute'`,
    );
    return {
      decisions: new Map(requests.map((row) => [row.tx_id, row.decision])),
      events: events.map((row) => row.tx_id).sort(),
      news: news.length,
    };
  }

  it('are recorded by one statement, each with its event and its news', async () => {
    const txIds = [await sentRequest(), await sentRequest(), await sentRequest()];
    const newsBefore = (await recorded([])).news;
    const { store, statements } = countedStore();

    const answers = await Promise.all([
      store.recordFirstDecision(...decision(txIds[0]!, 'PAID')),
      store.recordFirstDecision(...decision(txIds[1]!, 'REJECTED')),
      store.recordFirstDecision(...decision(txIds[2]!, 'PAID')),
    ]);

    expect(answers).toEqual([true, true, true]);
    expect(statements()).toBe(1);
    const after = await recorded(txIds);
    expect(after.decisions).toEqual(
      new Map([
        [txIds[0], 'PAID'],
        [txIds[1], 'REJECTED'],
        [txIds[2], 'PAID'],
      ]),
    );
    expect(after.events).toEqual([...txIds].sort());
    expect(after.news - newsBefore).toBe(3);
  });

  it("write only the first about a request; a later one answers false, for the callback's transaction", async () => {
    const [txId, unknown] = [await sentRequest(), newTxId()];
    const { store, statements } = countedStore();

    const answers = await Promise.all([
      store.recordFirstDecision(...decision(txId, 'PAID')),
      store.recordFirstDecision(...decision(txId, 'REJECTED')),
      store.recordFirstDecision(...decision(unknown, 'PAID')),
    ]);

    expect(answers).toEqual([true, false, false]);
    expect(statements()).toBe(1);
    const after = await recorded([txId, unknown]);
    expect(after.decisions).toEqual(new Map([[txId, 'PAID']]));
    expect(after.events).toEqual([txId]);
  });

  it('write none for an event recorded before, and still the others', async () => {
    const [seen, fresh] = [await sentRequest(), await sentRequest()];
    const seenEvent = newEnd2endId();
    await schema.query(
      `INSERT INTO scheme_callback_events (mode, ev_code, end2end_id, occurrence, tx_id, event, effect, received_at)
       VALUES ('test', 'PAIEMENT_RECU', $1, '', $2, '{}', 'stale', now())`,
      [seenEvent, seen],
    );
    const { store } = countedStore();

    const answers = await Promise.all([
      store.recordFirstDecision(...decision(seen, 'PAID', seenEvent)),
      store.recordFirstDecision(...decision(fresh, 'PAID')),
    ]);

    expect(answers).toEqual([false, true]);
    const after = await recorded([seen, fresh]);
    expect(after.decisions).toEqual(
      new Map([
        [seen, null],
        [fresh, 'PAID'],
      ]),
    );
  });
});
