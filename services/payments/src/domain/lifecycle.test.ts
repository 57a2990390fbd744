import { AppError } from '@sika/platform/pure';
import {
  addAttempt,
  applyAttemptOutcome,
  cancelPayment,
  expireNow,
  expirePayment,
  newPayment,
  recordFundReturn,
} from './lifecycle';
import type { NewAttempt, PaymentDraft } from './lifecycle';
import type { AttemptOutcome } from './attempt';
import type { Payment, PaymentStatus } from './payment';
import { refundStatusOf } from './payment';

const T0 = new Date('2026-01-10T12:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

/** A transfer of the amount asked (10 000), received by the scheme at `at`. */
function paid(endToEndId: string, at: Date = T0): AttemptOutcome {
  return { kind: 'paid', endToEndId, amount: 10_000n, receivedAt: at };
}

let counter = 0;
function attemptSpec(alias = '+225 0000000001'): NewAttempt {
  counter += 1;
  return {
    id: `att_${counter}`,
    txId: `SIKA${counter}`,
    alias: { value: alias, masked: 'masked' },
    dispatchAfter: later(15_000),
  };
}

function draft(overrides: Partial<PaymentDraft> = {}): PaymentDraft {
  return {
    id: 'pay_1',
    merchantId: 'mer_1',
    livemode: false,
    amount: 10_000n,
    mode: 'immediate',
    feeRule: { rateBps: 150, fixedAmount: 25n },
    merchantName: 'Boutique Adjoua',
    reference: 'order-1',
    description: null,
    returnUrl: 'https://shop.example/return',
    cancelUrl: null,
    checkoutUrl: 'http://127.0.0.1:8081/pay/pay_1',
    metadata: { order: '1' },
    expiresAt: later(300_000),
    firstAttempt: null,
    ...overrides,
  };
}

function withStatus(payment: Payment, status: PaymentStatus): Payment {
  return { ...payment, status };
}

/** A created payment with `count` attempts in the given status. */
function paymentWithAttempts(count: number, status: Payment['attempts'][number]['status'] = 'sent'): Payment {
  let payment = newPayment(draft(), T0);
  for (let index = 0; index < count; index++) payment = addAttempt(payment, attemptSpec(), T0).payment;
  return {
    ...payment,
    status: count > 0 ? 'request_sent' : 'created',
    attempts: payment.attempts.map((attempt) => ({ ...attempt, status })),
  };
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? error.code : (error as Error).name;
  }
  return 'no error';
}

describe('newPayment', () => {
  it('is created, without fee, with no attempt unless an alias came with it', () => {
    const payment = newPayment(draft(), T0);
    expect(payment).toMatchObject({ status: 'created', currency: 'XOF', feeAmount: null, netAmount: null });
    expect(payment.attempts).toEqual([]);
    expect(payment.createdAt).toEqual(T0);
  });

  it('records the first attempt as pending, sequence 1', () => {
    const payment = newPayment(draft({ firstAttempt: attemptSpec() }), T0);
    expect(payment.status).toBe('created');
    expect(payment.attempts).toHaveLength(1);
    expect(payment.attempts[0]).toMatchObject({ sequence: 1, status: 'pending', duplicate: false });
  });
});

describe('addAttempt', () => {
  it('appends an attempt with the next sequence', () => {
    const { payment, attempt } = addAttempt(paymentWithAttempts(2), attemptSpec(), T0);
    expect(attempt.sequence).toBe(3);
    expect(payment.attempts.map((each) => each.sequence)).toEqual([1, 2, 3]);
  });

  it('refuses a sixth attempt with too_many_attempts', () => {
    expect(codeOf(() => addAttempt(paymentWithAttempts(5, 'declined'), attemptSpec(), T0))).toBe(
      'too_many_attempts',
    );
  });

  it.each<PaymentStatus>(['succeeded', 'declined', 'expired', 'canceled', 'failed'])(
    'refuses a %s payment with payment_already_final',
    (status) => {
      expect(codeOf(() => addAttempt(withStatus(paymentWithAttempts(1), status), attemptSpec(), T0))).toBe(
        'payment_already_final',
      );
    },
  );

  it('refuses a payment past its deadline, even before the scheduler expired it', () => {
    expect(codeOf(() => addAttempt(paymentWithAttempts(0), attemptSpec(), later(300_000)))).toBe(
      'payment_already_final',
    );
  });

  it('refuses a new attempt when too little time is left for the customer to answer', () => {
    expect(codeOf(() => addAttempt(paymentWithAttempts(0), attemptSpec(), later(300_000 - 29_999)))).toBe(
      'payment_expiring',
    );
    expect(addAttempt(paymentWithAttempts(0), attemptSpec(), later(300_000 - 30_000)).attempt.sequence).toBe(
      1,
    );
  });

  it('refuses a payment whose payer already accepted to pay on delivery', () => {
    const payment = withStatus(paymentWithAttempts(1, 'accepted_deferred'), 'accepted_deferred');
    expect(codeOf(() => addAttempt(payment, attemptSpec(), T0))).toBe('payment_already_final');
  });
});

describe('applyAttemptOutcome', () => {
  const created = () => newPayment(draft({ firstAttempt: attemptSpec() }), T0);
  const firstId = (payment: Payment) => payment.attempts[0]?.id ?? '';

  it('sent: created → request_sent with one event, the attempt no longer waits for the sweeper', () => {
    const payment = created();
    const outcome = applyAttemptOutcome(payment, firstId(payment), { kind: 'sent' }, later(1));
    expect(outcome.payment.status).toBe('request_sent');
    expect(outcome.changes.map((change) => change.type)).toEqual(['payment.request_sent']);
    expect(outcome.changes[0]?.payment.attempts[0]).toMatchObject({ status: 'sent', dispatchAfter: null });
    expect(outcome.refund).toBeNull();
  });

  it('sent on a payment already request_sent: the attempt is sent, no event', () => {
    const base = paymentWithAttempts(1);
    const { payment, attempt } = addAttempt(base, attemptSpec(), T0);
    const outcome = applyAttemptOutcome(payment, attempt.id, { kind: 'sent' }, later(1));
    expect(outcome.changes).toEqual([]);
    expect(outcome.payment.attempts[1]?.status).toBe('sent');
  });

  it('sent after the merchant canceled: recorded on the attempt, the payment stays canceled', () => {
    const payment = withStatus(created(), 'canceled');
    const outcome = applyAttemptOutcome(payment, firstId(payment), { kind: 'sent' }, later(1));
    expect([outcome.payment.status, outcome.payment.attempts[0]?.status]).toEqual(['canceled', 'sent']);
    expect(outcome.changes).toEqual([]);
  });

  it('alias unknown: the attempt fails with alias_unknown, the payment stays created', () => {
    const payment = created();
    const outcome = applyAttemptOutcome(
      payment,
      firstId(payment),
      { kind: 'alias_unknown', reasonCode: 'BE23' },
      T0,
    );
    expect(outcome.payment.status).toBe('created');
    expect(outcome.payment.attempts[0]).toMatchObject({
      status: 'failed',
      failureCode: 'alias_unknown',
      reasonCode: 'BE23',
    });
    expect(outcome.changes).toEqual([]);
  });

  it('paid: succeeded with fee and net in one event (the ledger credits from it), nothing owed back', () => {
    const payment = paymentWithAttempts(1);
    const outcome = applyAttemptOutcome(payment, firstId(payment), paid('E2E'), later(5));
    // 10 000 at 150 bps + 25 = 175.
    expect(outcome.payment).toMatchObject({ status: 'succeeded', feeAmount: 175n, netAmount: 9_825n });
    expect(outcome.refund).toBeNull();
    expect(outcome.changes.map((change) => [change.type, change.payment.feeAmount])).toEqual([
      ['payment.succeeded', 175n],
    ]);
    expect(outcome.payment.attempts[0]).toMatchObject({ status: 'succeeded', endToEndId: 'E2E' });
  });

  it('paid before the sending was recorded: request_sent, then succeeded, each with its own snapshot', () => {
    const payment = created();
    const outcome = applyAttemptOutcome(payment, firstId(payment), paid('E1'), T0);
    expect(
      outcome.changes.map((change) => [change.type, change.payment.status, change.payment.feeAmount]),
    ).toEqual([
      ['payment.request_sent', 'request_sent', null],
      ['payment.succeeded', 'succeeded', 175n],
    ]);
  });

  it('the same transfer again: stale, nothing changes and nothing more is owed', () => {
    const payment = paymentWithAttempts(1);
    const once = applyAttemptOutcome(payment, firstId(payment), paid('E1'), T0);
    const twice = applyAttemptOutcome(once.payment, firstId(payment), paid('E1'), later(1));
    expect(twice).toEqual({ payment: once.payment, changes: [], refund: null, changed: false });
  });

  it('a second transfer on the attempt that succeeded: the payment stays, that money goes back', () => {
    const payment = paymentWithAttempts(1);
    const once = applyAttemptOutcome(payment, firstId(payment), paid('E1'), T0);
    const second = applyAttemptOutcome(once.payment, firstId(payment), paid('E2'), later(1));
    expect(second.payment.status).toBe('succeeded');
    expect(second.changes).toEqual([]);
    expect(second.payment.attempts[0]).toMatchObject({
      status: 'succeeded',
      endToEndId: 'E1',
      refunds: [{ endToEndId: 'E2', status: 'pending', duplicate: true }],
    });
    const txId = payment.attempts[0]?.txId;
    expect(second.refund).toEqual({ txId, endToEndId: 'E2', amount: 10_000n });
    // That second transfer redelivered is known: nothing more.
    expect(applyAttemptOutcome(second.payment, firstId(payment), paid('E2'), later(2)).changed).toBe(false);
    // Its return sent: announced as a duplicate refunded.
    const sent = recordFundReturn(second.payment, firstId(payment), 'E2', 'sent', later(3));
    expect(sent.changes.map((change) => change.type)).toEqual(['payment.duplicate_refunded']);
  });

  it('paid on a second attempt after the payment succeeded: duplicate, never credited, refund due', () => {
    const payment = paymentWithAttempts(2);
    const [first, second] = payment.attempts.map((attempt) => attempt.id);
    const settled = applyAttemptOutcome(payment, first ?? '', paid('E1'), T0).payment;
    const outcome = applyAttemptOutcome(settled, second ?? '', paid('E2'), T0);
    expect(outcome.payment.status).toBe('succeeded');
    expect(outcome.payment.attempts[1]).toMatchObject({
      status: 'succeeded',
      duplicate: true,
      refunds: [{ endToEndId: 'E2', status: 'pending', duplicate: true }],
    });
    expect(outcome.payment.feeAmount).toBe(175n);
    expect(outcome.changes).toEqual([]);
    expect(outcome.refund).toEqual({
      txId: outcome.payment.attempts[1]?.txId,
      endToEndId: 'E2',
      amount: 10_000n,
    });
  });

  it("the return of a duplicate's money sent: announced once, payment unchanged; abandoned: refund failed", () => {
    const payment = paymentWithAttempts(2);
    const [first, second] = payment.attempts.map((attempt) => attempt.id);
    const settled = applyAttemptOutcome(payment, first ?? '', paid('E1'), T0).payment;
    const owed = applyAttemptOutcome(settled, second ?? '', paid('E2'), T0).payment;

    const sent = recordFundReturn(owed, second ?? '', 'E2', 'sent', later(1));
    expect(sent.changes.map((change) => [change.type, change.payment.status])).toEqual([
      ['payment.duplicate_refunded', 'succeeded'],
    ]);
    expect(refundStatusOf(sent.payment.attempts[1]!)).toBe('sent');
    expect(recordFundReturn(sent.payment, second ?? '', 'E2', 'sent', later(2)).changed).toBe(false);

    const abandoned = recordFundReturn(owed, second ?? '', 'E2', 'abandoned', later(1));
    expect([abandoned.changes, refundStatusOf(abandoned.payment.attempts[1]!)]).toEqual([[], 'failed']);
    // News of a transfer that is owed nowhere is a bug upstream.
    expect(() => recordFundReturn(owed, second ?? '', 'E9', 'sent', later(1))).toThrow(/no return of E9/);
  });

  it('another amount than asked: never credited, the attempt failed with amount_mismatch, the money owed back', () => {
    const payment = paymentWithAttempts(1);
    const outcome = applyAttemptOutcome(
      payment,
      firstId(payment),
      { kind: 'mispaid', endToEndId: 'E', amount: 9_999n, receivedAt: T0, mismatch: 'amount' },
      T0,
    );
    expect(outcome.payment.status).toBe('request_sent');
    expect(outcome.payment.attempts[0]).toMatchObject({ status: 'failed', failureCode: 'amount_mismatch' });
    expect(refundStatusOf(outcome.payment.attempts[0]!)).toBe('pending');
    expect(outcome.refund).toEqual({ txId: payment.attempts[0]?.txId, endToEndId: 'E', amount: 9_999n });
    const nothing = applyAttemptOutcome(
      payment,
      firstId(payment),
      { kind: 'mispaid', endToEndId: 'E', amount: 0n, receivedAt: T0, mismatch: 'amount' },
      T0,
    );
    expect([nothing.refund, refundStatusOf(nothing.payment.attempts[0]!)]).toEqual([null, null]);
  });

  it('paid after the payment was canceled: recorded, not credited, refund due', () => {
    const payment = withStatus(paymentWithAttempts(1), 'canceled');
    const outcome = applyAttemptOutcome(payment, firstId(payment), paid('E1'), T0);
    expect(outcome.payment.status).toBe('canceled');
    expect(outcome.payment.attempts[0]).toMatchObject({ status: 'succeeded', duplicate: false });
    expect(outcome.changes).toEqual([]);
    expect(outcome.refund?.amount).toBe(10_000n);
  });

  it("paid after the deadline by the scheme's clock: never settles; expired at once and owed back", () => {
    const payment = paymentWithAttempts(1);
    // Received a second after expires_at, applied before the expiry job came round (now is before it).
    const outcome = applyAttemptOutcome(payment, firstId(payment), paid('E1', later(300_001)), later(10));
    expect(outcome.payment.status).toBe('expired');
    expect(outcome.changes.map((change) => change.type)).toEqual(['payment.expired']);
    expect(outcome.payment.feeAmount).toBeNull();
    expect(outcome.refund).toEqual({ txId: payment.attempts[0]?.txId, endToEndId: 'E1', amount: 10_000n });
    // Received just before the deadline, applied after it: it settles the payment it was in time for.
    const inTime = applyAttemptOutcome(payment, firstId(payment), paid('E1', later(299_999)), later(300_500));
    expect(inTime.payment.status).toBe('succeeded');
  });

  it('declined while a new attempt is possible: the payment stays request_sent (spec §3.2 rule 2)', () => {
    const payment = paymentWithAttempts(1);
    const outcome = applyAttemptOutcome(
      payment,
      firstId(payment),
      { kind: 'declined', reasonCode: 'FR01' },
      T0,
    );
    expect(outcome.payment.status).toBe('request_sent');
    expect(outcome.payment.attempts[0]).toMatchObject({ status: 'declined', failureCode: 'payer_declined' });
    expect(outcome.changes).toEqual([]);
  });

  it('declined on the fifth attempt with nothing else outstanding: declined', () => {
    const payment = paymentWithAttempts(5, 'declined');
    const last = {
      ...payment,
      attempts: payment.attempts.map((a, i) => (i === 4 ? { ...a, status: 'sent' as const } : a)),
    };
    const outcome = applyAttemptOutcome(
      last,
      last.attempts[4]?.id ?? '',
      { kind: 'declined', reasonCode: null },
      T0,
    );
    expect(outcome.payment.status).toBe('declined');
    expect(outcome.changes.map((change) => change.type)).toEqual(['payment.declined']);
  });

  it('declined on the fifth attempt while another one is still outstanding: unchanged', () => {
    const payment = paymentWithAttempts(5, 'sent');
    const outcome = applyAttemptOutcome(
      payment,
      payment.attempts[4]?.id ?? '',
      { kind: 'declined', reasonCode: null },
      T0,
    );
    expect(outcome.payment.status).toBe('request_sent');
  });

  it('declined past the deadline with no attempt outstanding: declined', () => {
    const payment = paymentWithAttempts(1);
    const outcome = applyAttemptOutcome(
      payment,
      firstId(payment),
      { kind: 'declined', reasonCode: null },
      later(300_000),
    );
    expect(outcome.payment.status).toBe('declined');
  });

  it('declined with less than the answer window left and nothing outstanding: declined', () => {
    const payment = paymentWithAttempts(1);
    const outcome = applyAttemptOutcome(
      payment,
      firstId(payment),
      { kind: 'declined', reasonCode: 'BE05' },
      later(300_000 - 10_000),
    );
    expect(outcome.payment.status).toBe('declined');
  });

  it('a bank failure fails the payment with one event and closes attempts that never left', () => {
    const payment = paymentWithAttempts(2);
    const pending = {
      ...payment,
      attempts: payment.attempts.map((a, i) => (i === 1 ? { ...a, status: 'pending' as const } : a)),
    };
    const outcome = applyAttemptOutcome(
      pending,
      firstId(pending),
      { kind: 'failed', reasonCode: 'AG10' },
      T0,
    );
    expect(outcome.payment.status).toBe('failed');
    expect(outcome.changes.map((change) => change.type)).toEqual(['payment.failed']);
    expect(outcome.payment.attempts.map((a) => [a.status, a.failureCode, a.reasonCode])).toEqual([
      ['failed', 'bank_failure', 'AG10'],
      ['failed', 'payment_closed', null],
    ]);
    expect(outcome.refund).toBeNull();
  });

  it('a bank failure when the request was sent: created → failed directly (spec §3.2 "any")', () => {
    const payment = created();
    const outcome = applyAttemptOutcome(
      payment,
      firstId(payment),
      { kind: 'failed', reasonCode: 'AG11' },
      T0,
    );
    expect(outcome.changes.map((change) => change.type)).toEqual(['payment.failed']);
  });

  it('paid after a bank failure: recorded, never credited, refund due', () => {
    const payment = withStatus(paymentWithAttempts(1), 'failed');
    const outcome = applyAttemptOutcome(payment, firstId(payment), paid('E'), T0);
    expect([outcome.payment.status, outcome.changes, outcome.refund?.amount]).toEqual([
      'failed',
      [],
      10_000n,
    ]);
  });

  it('an attempt expiring at the bank leaves the payment to its own deadline', () => {
    const payment = paymentWithAttempts(1);
    const outcome = applyAttemptOutcome(payment, firstId(payment), { kind: 'expired' }, T0);
    expect([outcome.payment.status, outcome.payment.attempts[0]?.status]).toEqual([
      'request_sent',
      'expired',
    ]);
  });

  it('on_delivery: accepted_deferred, then paid → succeeded', () => {
    const payment = { ...paymentWithAttempts(1), mode: 'on_delivery' as const };
    const accepted = applyAttemptOutcome(payment, firstId(payment), { kind: 'accepted_deferred' }, T0);
    expect(accepted.changes.map((change) => change.type)).toEqual(['payment.accepted_deferred']);
    const settled = applyAttemptOutcome(accepted.payment, firstId(payment), paid('E1'), T0);
    expect(settled.changes.map((change) => change.type)).toEqual(['payment.succeeded']);
  });

  it('refuses an attempt of another payment', () => {
    expect(() => applyAttemptOutcome(created(), 'att_other', { kind: 'sent' }, T0)).toThrow(/not an attempt/);
  });
});

describe('cancelPayment', () => {
  it('cancels a non-final payment and closes attempts that never left', () => {
    const payment = newPayment(draft({ firstAttempt: attemptSpec() }), T0);
    const outcome = cancelPayment(payment, later(1));
    expect(outcome.payment.status).toBe('canceled');
    expect(outcome.payment.attempts[0]).toMatchObject({ status: 'failed', failureCode: 'payment_closed' });
    expect(outcome.changes.map((change) => change.type)).toEqual(['payment.canceled']);
  });

  it('keeps sent attempts: the request cannot be withdrawn from the payer (spec §3.2 rule 3)', () => {
    const outcome = cancelPayment(paymentWithAttempts(1), T0);
    expect(outcome.payment.attempts[0]?.status).toBe('sent');
  });

  it.each<PaymentStatus>(['succeeded', 'declined', 'expired', 'canceled', 'failed'])(
    'refuses a %s payment with payment_already_final',
    (status) => {
      expect(codeOf(() => cancelPayment(withStatus(paymentWithAttempts(1), status), T0))).toBe(
        'payment_already_final',
      );
    },
  );
});

describe('expirePayment', () => {
  it('expires a payment past its deadline', () => {
    const outcome = expirePayment(paymentWithAttempts(1), later(300_000));
    expect(outcome.payment.status).toBe('expired');
    expect(outcome.changes.map((change) => change.type)).toEqual(['payment.expired']);
  });

  it('refuses a payment whose deadline has not come', () => {
    expect(() => expirePayment(paymentWithAttempts(1), later(299_999))).toThrow(/not yet/);
  });
});

describe('expireNow (test helper)', () => {
  it('moves the deadline to now and expires the payment, its pending attempts closed', () => {
    const waiting = paymentWithAttempts(1, 'pending');
    const outcome = expireNow(waiting, later(1_000));
    expect(outcome.payment).toMatchObject({ status: 'expired', expiresAt: later(1_000) });
    expect(outcome.payment.attempts[0]).toMatchObject({ status: 'failed', failureCode: 'payment_closed' });
    expect(outcome.changes.map((change) => change.type)).toEqual(['payment.expired']);
  });

  it('refuses a live payment with test_mode_only', () => {
    expect(codeOf(() => expireNow({ ...paymentWithAttempts(1), livemode: true }, T0))).toBe('test_mode_only');
  });

  it('refuses a final payment with payment_already_final', () => {
    expect(codeOf(() => expireNow(withStatus(paymentWithAttempts(1), 'succeeded'), T0))).toBe(
      'payment_already_final',
    );
  });
});
