import { Client } from 'pg';
import { CONSUMER_QUEUES, ledgerV1 } from '@sika/contracts';
import { newId } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { queryOne, startLedger, testScope, type LedgerHarness } from './support';

const { BalanceTransactionType: Type } = ledgerV1;

/**
 * The ledger applies what others decided and committed: each decision arrives as its decider's event, at least
 * once, maybe late, maybe twice, maybe in another order than it was made. Whatever the delivery, each is booked
 * exactly once, and a decision that contradicts one already booked is never booked.
 */
describe('ledger: the decisions it applies', () => {
  let ledger: LedgerHarness;

  beforeAll(async () => {
    ledger = await startLedger();
  });

  afterAll(async () => {
    await ledger.close();
  });

  const available = async (scope: { merchantId: string; livemode: boolean }) =>
    (await ledger.client.getBalance({ scope })).balance?.available;

  it('credits a payment once, whatever the redeliveries: the same message, or the decision published again', async () => {
    const scope = testScope();
    const payment = { id: newId('pay'), amount: 5_000n, feeAmount: 75n };
    const messageId = newId('msg');
    await Promise.all([
      ...Array.from({ length: 6 }, () => ledger.publishSucceeded(scope, payment, messageId)),
      ...Array.from({ length: 6 }, () => ledger.publishSucceeded(scope, payment)),
    ]);
    const movements = await ledger.movementsOf(scope, payment.id, 2);
    expect(movements.map((movement) => [movement.type, movement.amount])).toEqual([
      [Type.BALANCE_TRANSACTION_TYPE_PAYMENT, 5_000n],
      [Type.BALANCE_TRANSACTION_TYPE_FEE, -75n],
    ]);
    // A later payment of the merchant is applied after all twelve: they are behind it.
    await ledger.credit(scope, 1n, 0n);
    const { count } = await queryOne<{ count: string }>(
      ledger.db,
      'SELECT count(*) FROM ledger_transactions WHERE source_id = $1',
      [payment.id],
    );
    expect(count).toBe('1');
    expect(await available(scope)).toBe(4_926n);
  });

  it('never books a credit that contradicts the one booked: another amount, fee or merchant is dead-lettered', async () => {
    const scope = testScope();
    const paymentId = newId('pay');
    await ledger.credit(scope, 1_000n, 10n, paymentId);
    const queue = CONSUMER_QUEUES.ledgerPaymentCredits.queue;
    const before = await ledger.deadLetters(queue);

    await ledger.publishSucceeded(scope, { id: paymentId, amount: 1_001n, feeAmount: 10n });
    await ledger.publishSucceeded(scope, { id: paymentId, amount: 1_000n, feeAmount: 11n });
    await ledger.publishSucceeded(testScope(), { id: paymentId, amount: 1_000n, feeAmount: 10n });

    await waitFor(async () => (await ledger.deadLetters(queue)) === before + 3, {
      description: 'the three contradictions in the dead-letter queue',
    });
    expect(await available(scope)).toBe(990n);
  });

  it.each([
    ['an amount below 1', { amount: 0n, feeAmount: 0n }],
    ['a fee above the amount', { amount: 100n, feeAmount: 101n }],
    ['a negative fee', { amount: 100n, feeAmount: -1n }],
    ['a payout id as payment id', { id: 'po_123', amount: 100n, feeAmount: 1n }],
  ])('dead-letters a credit with %s, writing nothing', async (_case, overrides) => {
    const scope = testScope();
    const queue = CONSUMER_QUEUES.ledgerPaymentCredits.queue;
    const before = await ledger.deadLetters(queue);
    await ledger.publishSucceeded(scope, { id: newId('pay'), ...overrides });
    await waitFor(async () => (await ledger.deadLetters(queue)) === before + 1, {
      description: 'the message in the dead-letter queue',
    });
    const rows = await ledger.db.query('SELECT 1 FROM balance_transactions WHERE merchant_id = $1', [
      scope.merchantId,
    ]);
    expect(rows).toEqual([]);
  });

  it('dead-letters a succeeded payment without its merchant', async () => {
    const queue = CONSUMER_QUEUES.ledgerPaymentCredits.queue;
    const before = await ledger.deadLetters(queue);
    await ledger.publishSucceeded(
      { merchantId: '', livemode: false },
      { id: newId('pay'), amount: 1n, feeAmount: 0n },
    );
    await waitFor(async () => (await ledger.deadLetters(queue)) === before + 1, {
      description: 'the message in the dead-letter queue',
    });
  });

  it('books money owed back to refunds_payable and releases it once returned, never on a balance', async () => {
    const transfer = `E${newId('msg').slice(4)}`;
    const before = await ledger.refundsPayable(false);
    await Promise.all([
      ledger.publishRefundOwed(false, transfer, 2_500n),
      ledger.publishRefundOwed(false, transfer, 2_500n),
    ]);
    await waitFor(async () => (await ledger.refundsPayable(false)) === before + 2_500n, {
      description: 'the refund owed',
    });
    expect(await ledger.refundsPayable(true)).toBe(0n);

    await ledger.publishReturn(false, transfer, 2_500n);
    await ledger.publishReturn(false, transfer, 2_500n);
    await waitFor(async () => (await ledger.refundsPayable(false)) === before, { description: 'the return' });
    const { count } = await queryOne<{ count: string }>(
      ledger.db,
      'SELECT count(*) FROM ledger_transactions WHERE source_id = $1',
      [transfer],
    );
    expect(count).toBe('2');
    const movements = await ledger.db.query('SELECT 1 FROM balance_transactions WHERE source_id = $1', [
      transfer,
    ]);
    expect(movements).toEqual([]);
  });

  it('returns refunds_payable to zero when the return arrives before the debt, and books each once', async () => {
    const transfer = `E${newId('msg').slice(4)}`;
    const before = await ledger.refundsPayable(true);
    await ledger.publishReturn(true, transfer, 700n);
    await waitFor(
      async () =>
        (await ledger.db.query('SELECT 1 FROM ledger_transactions WHERE source_id = $1', [transfer]))
          .length === 2,
      { description: 'the return booked with its debt' },
    );
    await ledger.publishRefundOwed(true, transfer, 700n);
    // The debt arriving last finds itself booked: a later return of another transfer is applied after it.
    const other = `E${newId('msg').slice(4)}`;
    await ledger.publishRefundOwed(true, other, 1n);
    await waitFor(async () => (await ledger.refundsPayable(true)) === before + 1n, {
      description: 'the other',
    });
    const { count } = await queryOne<{ count: string }>(
      ledger.db,
      'SELECT count(*) FROM ledger_transactions WHERE source_id = $1',
      [transfer],
    );
    expect(count).toBe('2');
  });

  it('keeps owed a return psp-connector gave up on: an operator returns it', async () => {
    const transfer = `E${newId('msg').slice(4)}`;
    const before = await ledger.refundsPayable(false);
    await ledger.publishRefundOwed(false, transfer, 300n);
    await ledger.publishReturn(false, transfer, 300n, false);
    const marker = `E${newId('msg').slice(4)}`;
    await ledger.publishReturn(false, marker, 1n);
    await waitFor(
      async () =>
        (await ledger.db.query('SELECT 1 FROM ledger_transactions WHERE source_id = $1', [marker])).length ===
        2,
      { description: 'a later return applied' },
    );
    expect(await ledger.refundsPayable(false)).toBe(before + 300n);
  });

  it('applies a decision the ledger could only commit late (its table locked past any deadline), once', async () => {
    const scope = testScope();
    const payment = { id: newId('pay'), amount: 8_000n, feeAmount: 80n };
    const locker = new Client({ connectionString: ledger.db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE ledger_transactions IN EXCLUSIVE MODE');
      await ledger.publishSucceeded(scope, payment);
      await ledger.publishSucceeded(scope, payment);
      // Longer than any caller would have waited: nobody waits, the decision was committed by payments.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await available(scope)).toBe(0n);
      await locker.query('COMMIT');
    } finally {
      await locker.end();
    }
    await ledger.movementsOf(scope, payment.id, 2);
    await ledger.credit(scope, 1n, 0n);
    expect(await available(scope)).toBe(7_921n);
  });
});
