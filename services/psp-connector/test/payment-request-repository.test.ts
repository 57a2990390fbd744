import { SqlDatabase } from '@sika/platform';
import { countingSqlClient, type TestSchema } from '@sika/testing';
import type { NewPaymentRequest } from '../src/app/ports';
import { SqlPaymentRequestRepository } from '../src/infra/payment-request-repository';
import { createPspSchema } from './support';

describe('payment requests recorded together', () => {
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

  /** The repository over a client that counts the statements sent through it. */
  function countedRepository(): { requests: SqlPaymentRequestRepository; statements: () => number } {
    const { client, statements } = countingSqlClient(db);
    return { requests: new SqlPaymentRequestRepository(client), statements };
  }

  const at = new Date('2026-03-01T09:00:00.000Z');
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
  const newTxId = () => `att${Math.random().toString(36).slice(2, 14)}`;

  it('by one statement; of two with one txId, exactly the first learns it created the row', async () => {
    const { requests, statements } = countedRepository();
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
      [first, second].map((txId) => countedRepository().requests.recordIfAbsent(request(txId, 'fp'))),
    );
    const { requests, statements } = countedRepository();

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
