import { Database } from '@sika/platform';
import { countingStatements, type TestSchema } from '@sika/testing';
import type { CallbackEventReceipt, NewPaymentRequest } from '../src/app/ports';
import type { PayerDecision, PaymentRequestUpdate } from '../src/domain/payment-request';
import { SqlCallbackStore } from '../src/infra/sql-callback-store';
import { SqlPaymentRequestStore } from '../src/infra/sql-payment-request-store';
import type { DB } from '../src/generated/database';
import { createPspSchema } from './support';

let schema: TestSchema;
let db: Database<DB>;

beforeAll(async () => {
  schema = await createPspSchema();
  db = new Database<DB>({ url: schema.databaseUrl, schema: schema.schema, maxConnections: 4 });
});

afterAll(async () => {
  await db?.destroy();
  await schema?.drop();
});

const at = new Date('2026-03-01T09:00:00.000Z');
const newTxId = () => `att${Math.random().toString(36).slice(2, 14)}`;

describe('payment requests recorded together', () => {
  /** The store over a client that counts the statements sent through it. */
  function countedStore(): { requests: SqlPaymentRequestStore; statements: () => number } {
    const { client, statements } = countingStatements<DB>(db);
    return { requests: new SqlPaymentRequestStore(client), statements };
  }

  const request = (txId: string, fingerprint: string): NewPaymentRequest => ({
    txId,
    livemode: false,
    amount: 5_000n,
    fingerprint,
    payerAliasMasked: '+225 07******01',
    onDelivery: false,
    watchUntil: null,
    at,
  });
  it('by one statement; of two with one txId, exactly the first learns it created the row', async () => {
    const { requests, statements } = countedStore();
    const [first, second] = [newTxId(), newTxId()];

    const recorded = await Promise.all([
      requests.recordIfAbsent(request(first, 'fp-first')),
      requests.recordIfAbsent(request(second, 'fp-second')),
      requests.recordIfAbsent(request(first, 'fp-again')),
    ]);

    expect(recorded.map(({ created, stored }) => [created, stored.txId, stored.fingerprint])).toEqual([
      [true, first, 'fp-first'],
      [true, second, 'fp-second'],
      [false, first, 'fp-first'],
    ]);
    // The INSERT of all three, then the read of the one it did not create.
    expect(statements()).toBe(2);
  });

  it("with their outcomes by one statement, the first of a txId's outcomes answering every caller", async () => {
    const [first, second] = [newTxId(), newTxId()];
    await Promise.all(
      [first, second].map((txId) => countedStore().requests.recordIfAbsent(request(txId, 'fp'))),
    );
    const { requests, statements } = countedStore();

    const outcomes = await Promise.all([
      requests.recordOutcome(first, { outcome: 'SENT' }, 'E2E-first', at),
      requests.recordOutcome(second, { outcome: 'REJECTED', reasonCode: 'BE23' }, undefined, at),
      requests.recordOutcome(first, { outcome: 'REJECTED', reasonCode: 'AC04' }, undefined, at),
    ]);

    expect(statements()).toBe(1);
    expect(outcomes[1]).toEqual({ outcome: 'REJECTED', reasonCode: 'BE23' });
    expect(outcomes[2]).toEqual(outcomes[0]);
    const rows = await schema.query<{ tx_id: string; outcome: string; reason_code: string | null }>(
      'SELECT tx_id, outcome, reason_code FROM payment_requests WHERE tx_id = ANY($1) ORDER BY tx_id = $2 DESC',
      [[first, second], first],
    );
    expect(rows.map(({ outcome, reason_code }) => ({ outcome, reasonCode: reason_code }))).toEqual([
      outcomes[0]!.outcome === 'SENT'
        ? { outcome: 'SENT', reasonCode: null }
        : { outcome: 'REJECTED', reasonCode: 'AC04' },
      { outcome: 'REJECTED', reasonCode: 'BE23' },
    ]);
    // A later outcome changes nothing: the first recorded wins, read back by a statement of its own.
    await expect(requests.recordOutcome(second, { outcome: 'SENT' }, undefined, at)).resolves.toEqual({
      outcome: 'REJECTED',
      reasonCode: 'BE23',
    });
  });
});

describe('first decisions of callbacks that arrive together', () => {
  /** The store over a client that counts the statements sent through it. */
  function countedStore(): { store: SqlCallbackStore; statements: () => number } {
    const { client, statements } = countingStatements<DB>(db);
    return {
      store: new SqlCallbackStore(Object.assign(client, { transact: db.transact.bind(db) })),
      statements,
    };
  }

  const newEnd2endId = () => `E${Math.random().toString(36).slice(2, 14)}`;

  /** A request sent and still without a decision. */
  async function sentRequest(): Promise<string> {
    const txId = newTxId();
    await new SqlPaymentRequestStore(db).recordIfAbsent({
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
