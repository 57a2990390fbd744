import { connect } from 'amqplib';
import { paymentsV1, pspV1 } from '@sika/contracts';
import { waitFor } from '@sika/testing';
import { appErrorOf, Harness } from './support/harness';
import type { Scope } from './support/harness';
import { UNKNOWN_TEST_ALIAS } from './support/peers';

const { PaymentStatus, AttemptStatus } = paymentsV1;
const PAYING_ALIAS = '+225 0000000001';

describe('payments: attempts, scheme updates, decisions', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await Harness.start('money', { consumerMaxAttempts: 3, consumerRetryDelayMs: 100 });
  });

  afterAll(async () => {
    await harness?.close();
  });

  const testScope = (): Scope => ({ merchantId: harness.newMerchant(), livemode: false });

  async function statusOf(scope: Scope, paymentId: string): Promise<paymentsV1.PaymentStatus> {
    return (await harness.get(scope, paymentId)).status;
  }

  /** A payment created with customer_alias whose request the scheme accepted. */
  async function requestSent(scope: Scope, alias = PAYING_ALIAS): Promise<paymentsV1.Payment> {
    const created = await harness.create(scope, { customerAlias: alias });
    await harness.events.waitForEvent(created.id, 'payment.request_sent');
    return harness.get(scope, created.id);
  }

  it('creates with customer_alias: answers created, then the request leaves at once → request_sent + event', async () => {
    const scope = testScope();
    const created = await harness.create(scope, {
      customerAlias: '+225 00.00.00.00.01',
      description: 'Mangoes',
    });
    expect(created.status).toBe(PaymentStatus.PAYMENT_STATUS_CREATED);
    expect(created.attempts).toHaveLength(1);
    const [attempt] = created.attempts;
    expect(attempt?.txId).toMatch(/^SIKA[A-Za-z0-9]{31}$/);
    expect(attempt?.payerAliasMasked).toBe('+225 00******01');
    expect(created.txId).toBe(attempt?.txId);

    const received = await harness.events.waitForEvent(created.id, 'payment.request_sent');
    expect(received.routingKey).toBe('payments.payment.request_sent');
    expect(received.event.payment).toMatchObject({
      id: created.id,
      status: PaymentStatus.PAYMENT_STATUS_REQUEST_SENT,
      metadata: { order_id: '42' },
    });
    expect(received.event.payment?.attempts[0]?.status).toBe(AttemptStatus.ATTEMPT_STATUS_SENT);
    expect(await statusOf(scope, created.id)).toBe(PaymentStatus.PAYMENT_STATUS_REQUEST_SENT);

    const [call] = harness.peers.psp.calls.filter((each) => each.txId === attempt?.txId);
    expect(call).toMatchObject({
      livemode: false,
      payerAlias: PAYING_ALIAS,
      amount: 10_000n,
      reason: 'Mangoes',
    });
  });

  it('sends in the background past the deadline of the call that created the payment', async () => {
    const scope = testScope();
    harness.peers.psp.hold = new Promise((resolve) => setTimeout(resolve, 2_500));
    try {
      // The creation waits for the scheme's answer at most half of its deadline, then answers.
      const payment = await harness.create(
        scope,
        { amount: 500n, customerAlias: PAYING_ALIAS, metadata: {} },
        { deadlineMs: 1_500 },
      );
      expect(payment.status).toBe(PaymentStatus.PAYMENT_STATUS_CREATED);
      await harness.events.waitForEvent(payment.id, 'payment.request_sent');
    } finally {
      harness.peers.psp.hold = undefined;
    }
  });

  it('creates with an unknown customer_alias: alias_unknown, and nothing is left, the key included', async () => {
    const scope = testScope();
    for (const idempotencyKey of [undefined, 'order-unknown', 'order-unknown']) {
      const error = await appErrorOf(
        harness.create(scope, {
          customerAlias: UNKNOWN_TEST_ALIAS,
          ...(idempotencyKey !== undefined && { idempotencyKey, requestFingerprint: 'body-A' }),
        }),
      );
      expect([error.code, error.param]).toEqual(['alias_unknown', 'customer_alias']);
    }
    const left = await harness.db.query(
      `SELECT (SELECT count(*) FROM payments WHERE merchant_id = $1)::int AS payments,
              (SELECT count(*) FROM idempotency_keys WHERE merchant_id = $1)::int AS keys`,
      [scope.merchantId],
    );
    expect(left).toEqual([{ payments: 0, keys: 0 }]);
    // The same key then serves the corrected request.
    const created = await harness.create(scope, {
      customerAlias: PAYING_ALIAS,
      idempotencyKey: 'order-unknown',
      requestFingerprint: 'body-B',
    });
    await harness.events.waitForEvent(created.id, 'payment.request_sent');
  });

  it('StartAttempt with an unknown alias: alias_unknown, the attempt failed, the payment unchanged, no event', async () => {
    const scope = testScope();
    const payment = await harness.create(scope);
    const error = await appErrorOf(
      harness.client.startAttempt({ paymentId: payment.id, customerAlias: UNKNOWN_TEST_ALIAS }),
    );
    expect([error.code, error.param]).toEqual(['alias_unknown', 'customer_alias']);
    const after = await harness.get(scope, payment.id);
    expect(after.status).toBe(PaymentStatus.PAYMENT_STATUS_CREATED);
    expect(after.attempts).toMatchObject([
      {
        status: AttemptStatus.ATTEMPT_STATUS_FAILED,
        failureCode: 'alias_unknown',
        payerAliasMasked: '+225 00******05',
      },
    ]);
    expect(harness.events.typesOf(payment.id)).toEqual([]);

    // The customer corrects the alias on the hosted page.
    const { payment: retried } = await harness.client.startAttempt({
      paymentId: payment.id,
      customerAlias: PAYING_ALIAS,
    });
    expect(retried?.status).toBe(PaymentStatus.PAYMENT_STATUS_REQUEST_SENT);
    expect(retried?.attempts.map((attempt) => attempt.status)).toEqual([
      AttemptStatus.ATTEMPT_STATUS_FAILED,
      AttemptStatus.ATTEMPT_STATUS_SENT,
    ]);
    await harness.events.waitForEvent(payment.id, 'payment.request_sent');
  });

  it('StartAttempt: at most 5 attempts, then too_many_attempts; never on a final payment', async () => {
    const scope = testScope();
    const payment = await harness.create(scope);
    for (let index = 0; index < 5; index++) {
      await harness.client.startAttempt({ paymentId: payment.id, customerAlias: `+225 070000000${index}` });
    }
    const sixth = await appErrorOf(
      harness.client.startAttempt({ paymentId: payment.id, customerAlias: PAYING_ALIAS }),
    );
    expect(sixth.code).toBe('too_many_attempts');
    expect((await harness.get(scope, payment.id)).attempts).toHaveLength(5);

    const canceled = await harness.create(scope);
    await harness.client.cancelPayment({ scope, paymentId: canceled.id });
    const error = await appErrorOf(
      harness.client.startAttempt({ paymentId: canceled.id, customerAlias: PAYING_ALIAS }),
    );
    expect(error.code).toBe('payment_already_final');

    const missing = await appErrorOf(
      harness.client.startAttempt({ paymentId: 'pay_nope', customerAlias: PAYING_ALIAS }),
    );
    expect(missing.code).toBe('resource_missing');
    const badAlias = await appErrorOf(
      harness.client.startAttempt({ paymentId: payment.id, customerAlias: 'not an alias' }),
    );
    expect([badAlias.code, badAlias.param]).toEqual(['parameter_invalid', 'customer_alias']);
  });

  it('PAID: succeeded with fee and net + payment.succeeded, carrying what the ledger credits', async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    const txId = payment.attempts[0]?.txId ?? '';
    await harness.publishPspUpdate({ txId, endToEndId: 'E2E-1', amount: 10_000n });

    const succeeded = await harness.events.waitForEvent(payment.id, 'payment.succeeded');
    // 10 000 XOF at 1.5 % + 25 XOF.
    expect(succeeded.event.payment).toMatchObject({
      status: PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
      feeAmount: 175n,
      netAmount: 9_825n,
    });
    expect(succeeded.event.payment).toMatchObject({
      merchantId: scope.merchantId,
      livemode: false,
      amount: 10_000n,
    });
    const read = await harness.get(scope, payment.id);
    expect(read).toMatchObject({
      status: PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
      feeAmount: 175n,
      netAmount: 9_825n,
    });
    expect(read.attempts).toMatchObject([
      { status: AttemptStatus.ATTEMPT_STATUS_SUCCEEDED, duplicate: false },
    ]);
    expect(read.payerAliasMasked).toBe('+225 00******01');
    expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent', 'payment.succeeded']);
    // Payments by final status and mode: the succeeded events published, on the operations port.
    const scraped = await (await fetch(`http://127.0.0.1:${harness.service.probes.port}/metrics`)).text();
    expect(scraped).toMatch(
      /sika_events_published_total\{routing_key="payments\.payment\.succeeded",mode="test",service="payments"\} [1-9]/,
    );
    expect(scraped).toMatch(/sika_outbox_unsent_messages\{service="payments"\} \d/);
  });

  it('a redelivered PAID (same message, or a new message about the same transfer) decides nothing more', async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    const txId = payment.attempts[0]?.txId ?? '';
    const messageId = await harness.publishPspUpdate({ txId, endToEndId: 'E2E-SAME' });
    await harness.events.waitForEvent(payment.id, 'payment.succeeded');

    await harness.publishPspUpdate({ txId, endToEndId: 'E2E-SAME' }, messageId);
    await harness.publishPspUpdate({ txId, endToEndId: 'E2E-SAME' });
    await waitForQueueDrained();
    expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent', 'payment.succeeded']);
    expect(harness.events.refundRequests.filter((request) => request.txId === txId)).toEqual([]);
    const inbox = await harness.db.query('SELECT message_id FROM inbox WHERE message_id = $1', [messageId]);
    expect(inbox).toHaveLength(1);
  });

  it('a second attempt validated after success is a duplicate: never credited, payment unchanged', async () => {
    const scope = testScope();
    const payment = await harness.create(scope);
    await harness.client.startAttempt({ paymentId: payment.id, customerAlias: PAYING_ALIAS });
    await harness.client.startAttempt({ paymentId: payment.id, customerAlias: '+225 0700000002' });
    const { attempts } = await harness.get(scope, payment.id);
    await harness.publishPspUpdate({ txId: attempts[0]?.txId ?? '' });
    await harness.events.waitForEvent(payment.id, 'payment.succeeded');
    await harness.publishPspUpdate({ txId: attempts[1]?.txId ?? '' });

    const after = await waitFor(async () => {
      const read = await harness.get(scope, payment.id);
      return read.attempts[1]?.status === AttemptStatus.ATTEMPT_STATUS_SUCCEEDED && read;
    });
    expect(after.attempts.map((attempt) => attempt.duplicate)).toEqual([false, true]);
    expect(after.txId).toBe(attempts[0]?.txId);
    expect(after.feeAmount).toBe(175n);
    expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent', 'payment.succeeded']);
  });

  it('updates that arrive together, two about one payment among them: each applied once', async () => {
    const scope = testScope();
    const [first, second] = [await requestSent(scope), await requestSent(scope)];
    const twice = await harness.create(scope);
    await harness.client.startAttempt({ paymentId: twice.id, customerAlias: PAYING_ALIAS });
    await harness.client.startAttempt({ paymentId: twice.id, customerAlias: '+225 0700000002' });
    const { attempts } = await harness.get(scope, twice.id);

    // Published in one write to the broker, which hands them over together (one transaction).
    await Promise.all(
      [first.attempts[0], second.attempts[0], ...attempts].map((attempt) =>
        harness.publishPspUpdate({ txId: attempt?.txId ?? '' }),
      ),
    );

    for (const payment of [first, second, twice]) {
      await harness.events.waitForEvent(payment.id, 'payment.succeeded');
    }
    const settled = await waitFor(async () => {
      const read = await harness.get(scope, twice.id);
      return (
        read.attempts.every((attempt) => attempt.status === AttemptStatus.ATTEMPT_STATUS_SUCCEEDED) && read
      );
    });
    expect(settled.attempts.map((attempt) => attempt.duplicate).sort()).toEqual([false, true]);
    expect(harness.events.typesOf(twice.id)).toEqual(['payment.request_sent', 'payment.succeeded']);
  });

  it('a second transfer on the attempt that succeeded: the payment stays, that transfer goes back once', async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    const txId = payment.attempts[0]?.txId ?? '';
    await harness.publishPspUpdate({ txId, endToEndId: 'E2E-FIRST' });
    await harness.events.waitForEvent(payment.id, 'payment.succeeded');
    await harness.publishPspUpdate({ txId, endToEndId: 'E2E-SECOND' });
    await harness.publishPspUpdate({ txId, endToEndId: 'E2E-SECOND' });

    await waitFor(() => harness.events.refundRequests.some((request) => request.txId === txId));
    await waitForQueueDrained();
    expect(harness.events.refundRequests.filter((request) => request.txId === txId)).toEqual([
      { livemode: false, txId, endToEndId: 'E2E-SECOND', amount: 10_000n },
    ]);
    const owed = await harness.get(scope, payment.id);
    expect(owed).toMatchObject({ status: PaymentStatus.PAYMENT_STATUS_SUCCEEDED, feeAmount: 175n });
    expect(owed.attempts[0]).toMatchObject({
      status: AttemptStatus.ATTEMPT_STATUS_SUCCEEDED,
      refundStatus: 'pending',
    });

    harness.publishFundReturn({ txId, endToEndId: 'E2E-SECOND', amount: 10_000n });
    await harness.events.waitForEvent(payment.id, 'payment.duplicate_refunded');
    expect((await harness.get(scope, payment.id)).attempts[0]?.refundStatus).toBe('sent');
  });

  it("money received after expires_at by the scheme's clock: never settles, expired at once and returned", async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    const txId = payment.attempts[0]?.txId ?? '';
    // The expiry job has not come round (this clock never reached expires_at); the scheme says it arrived after.
    const late = new Date((payment.expiresAt?.getTime() ?? 0) + 1_000);
    await harness.publishPspUpdate({ txId, endToEndId: 'E2E-LATE', occurredAt: late });

    await harness.events.waitForEvent(payment.id, 'payment.expired');
    await waitFor(() => harness.events.refundRequests.some((request) => request.txId === txId));
    expect(harness.events.refundRequests.filter((request) => request.txId === txId)).toEqual([
      { livemode: false, txId, endToEndId: 'E2E-LATE', amount: 10_000n },
    ]);
    const after = await harness.get(scope, payment.id);
    expect(after).toMatchObject({ status: PaymentStatus.PAYMENT_STATUS_EXPIRED, feeAmount: undefined });
    expect(after.attempts[0]?.refundStatus).toBe('pending');
    expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent', 'payment.expired']);
  });

  it('PAID before the scheme’s synchronous answer was recorded: request_sent then succeeded, once each', async () => {
    const scope = testScope();
    let release: () => void = () => undefined;
    harness.peers.psp.hold = new Promise((resolve) => {
      release = resolve;
    });
    try {
      const payment = await harness.create(scope, { customerAlias: PAYING_ALIAS });
      const txId = payment.attempts[0]?.txId ?? '';
      await waitFor(() => harness.peers.psp.callsFor(txId) === 1);
      await harness.publishPspUpdate({ txId });
      await harness.events.waitForEvent(payment.id, 'payment.succeeded');
      release();
      // The late ENVOYE finds the attempt already answered and changes nothing.
      await waitFor(() => harness.peers.psp.answered.includes(txId));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await harness.get(scope, payment.id)).attempts[0]?.status).toBe(
        AttemptStatus.ATTEMPT_STATUS_SUCCEEDED,
      );
      expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent', 'payment.succeeded']);
      const [requestSentEvent, succeededEvent] = harness.events.of(payment.id);
      expect(requestSentEvent?.event.payment?.feeAmount).toBeUndefined();
      expect(succeededEvent?.event.payment?.feeAmount).toBe(175n);
    } finally {
      harness.peers.psp.hold = undefined;
      release();
    }
  });

  it('REJECTED by the payer: the attempt is declined, the payment stays request_sent while a retry is possible', async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    await harness.publishPspUpdate({
      txId: payment.attempts[0]?.txId ?? '',
      decision: pspV1.PayerDecision.PAYER_DECISION_REJECTED,
      reasonCode: 'FR01',
    });
    const after = await waitFor(async () => {
      const read = await harness.get(scope, payment.id);
      return read.attempts[0]?.status === AttemptStatus.ATTEMPT_STATUS_DECLINED && read;
    });
    expect(after.status).toBe(PaymentStatus.PAYMENT_STATUS_REQUEST_SENT);
    expect(after.attempts[0]?.failureCode).toBe('payer_declined');
    expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent']);
  });

  it('FAILED at the bank: the payment fails with payment.failed, whatever attempts remain possible', async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    await harness.publishPspUpdate({
      txId: payment.attempts[0]?.txId ?? '',
      decision: pspV1.PayerDecision.PAYER_DECISION_FAILED,
      reasonCode: 'AG10',
    });
    await harness.events.waitForEvent(payment.id, 'payment.failed');
    const after = await harness.get(scope, payment.id);
    expect(after.status).toBe(PaymentStatus.PAYMENT_STATUS_FAILED);
    expect(after.attempts[0]).toMatchObject({
      status: AttemptStatus.ATTEMPT_STATUS_FAILED,
      failureCode: 'bank_failure',
    });
    expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent', 'payment.failed']);
  });

  it('a second attempt paid after the first settled: duplicate, never credited, owed back, then refunded once', async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    const started = await harness.client.startAttempt({ paymentId: payment.id, customerAlias: PAYING_ALIAS });
    const [first, second] = started.payment?.attempts.map((attempt) => attempt.txId) ?? [];
    await harness.publishPspUpdate({ txId: first ?? '' });
    await harness.events.waitForEvent(payment.id, 'payment.succeeded');
    await harness.publishPspUpdate({ txId: second ?? '' });

    const owed = await waitFor(async () => {
      const read = await harness.get(scope, payment.id);
      return read.attempts[1]?.refundStatus === 'pending' && read;
    });
    expect(owed.attempts[1]).toMatchObject({
      duplicate: true,
      status: AttemptStatus.ATTEMPT_STATUS_SUCCEEDED,
    });
    await waitFor(() => harness.events.refundRequests.some((request) => request.txId === second));
    const [request] = harness.events.refundRequests.filter((each) => each.txId === second);
    expect(request).toMatchObject({ livemode: false, txId: second, amount: 10_000n });

    const endToEndId = request?.endToEndId ?? '';
    harness.publishFundReturn({ txId: second ?? '', endToEndId, amount: 10_000n });
    harness.publishFundReturn({ txId: second ?? '', endToEndId, amount: 10_000n });
    await harness.events.waitForEvent(payment.id, 'payment.duplicate_refunded');
    // Time for the repeated news to be handled too: it must announce nothing more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await harness.get(scope, payment.id)).attempts[1]?.refundStatus).toBe('sent');
    expect(harness.events.typesOf(payment.id)).toEqual([
      'payment.request_sent',
      'payment.succeeded',
      'payment.duplicate_refunded',
    ]);
  });

  it('a payment of another amount (0 included) is never credited: the attempt fails with amount_mismatch', async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    await harness.publishPspUpdate({ txId: payment.attempts[0]?.txId ?? '', amount: 9_999n });
    const after = await waitFor(async () => {
      const read = await harness.get(scope, payment.id);
      return read.attempts[0]?.status === AttemptStatus.ATTEMPT_STATUS_FAILED && read;
    });
    expect(after.status).toBe(PaymentStatus.PAYMENT_STATUS_REQUEST_SENT);
    expect(after.attempts[0]).toMatchObject({ failureCode: 'amount_mismatch', refundStatus: 'pending' });
    expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent']);

    const zero = await requestSent(scope);
    await harness.publishPspUpdate({ txId: zero.attempts[0]?.txId ?? '', amount: 0n });
    const unpaid = await waitFor(async () => {
      const read = await harness.get(scope, zero.id);
      return read.attempts[0]?.status === AttemptStatus.ATTEMPT_STATUS_FAILED && read;
    });
    expect(unpaid.attempts[0]).toMatchObject({ failureCode: 'amount_mismatch' });
    expect(unpaid.attempts[0]?.refundStatus).toBeUndefined();
    expect(harness.events.typesOf(zero.id)).toEqual(['payment.request_sent']);
  });

  it("a payment to another account than Sika's is never credited: the attempt fails with payee_mismatch", async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    await harness.publishPspUpdate({ txId: payment.attempts[0]?.txId ?? '', payeeMismatch: true });
    const after = await waitFor(async () => {
      const read = await harness.get(scope, payment.id);
      return read.attempts[0]?.status === AttemptStatus.ATTEMPT_STATUS_FAILED && read;
    });
    expect(after.attempts[0]).toMatchObject({ failureCode: 'payee_mismatch', refundStatus: 'pending' });
    expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent']);
  });

  it('an update for a tx_id this service never issued is retried, then dead-lettered', async () => {
    await harness.publishPspUpdate({ txId: 'SIKAunknown0000000000000000000000' });
    const dlq = `${harness.pspUpdatesQueue}.dlq`;
    await waitFor(async () => (await queueDepth(dlq)) === 1, { description: 'the message in the DLQ' });
  });

  it('news of the other mode than its payment (a live update or fund return about a test payment) is dead-lettered, never applied', async () => {
    const scope = testScope();
    const payment = await requestSent(scope);
    const txId = payment.attempts[0]?.txId ?? '';
    const updatesDlq = `${harness.pspUpdatesQueue}.dlq`;
    const deadUpdates = await queueDepth(updatesDlq);
    await harness.publishPspUpdate({ txId, livemode: true });
    await waitFor(async () => (await queueDepth(updatesDlq)) === deadUpdates + 1, {
      description: 'the live update in the DLQ',
    });
    expect(await statusOf(scope, payment.id)).toBe(PaymentStatus.PAYMENT_STATUS_REQUEST_SENT);

    await harness.publishPspUpdate({ txId, endToEndId: 'E2E-FIRST' });
    await harness.events.waitForEvent(payment.id, 'payment.succeeded');
    await harness.publishPspUpdate({ txId, endToEndId: 'E2E-SECOND' });
    await waitFor(() => harness.events.refundRequests.some((request) => request.txId === txId));
    harness.publishFundReturn({ txId, endToEndId: 'E2E-SECOND', amount: 10_000n, livemode: true });
    await waitFor(async () => (await queueDepth(`${harness.fundReturnsQueue}.dlq`)) === 1, {
      description: 'the live fund return in the DLQ',
    });
    expect((await harness.get(scope, payment.id)).attempts[0]?.refundStatus).toBe('pending');
    expect(harness.events.typesOf(payment.id)).toEqual(['payment.request_sent', 'payment.succeeded']);
  });

  it('sends again, from the sweeper, an attempt psp-connector could not take', async () => {
    const scope = testScope();
    harness.peers.psp.unavailable = true;
    let payment: paymentsV1.Payment;
    try {
      payment = await harness.create(scope, { customerAlias: PAYING_ALIAS });
      const txId = payment.attempts[0]?.txId ?? '';
      await waitFor(() => harness.peers.psp.callsFor(txId) === 1);
      // Still pending: nothing is sent again before the in-line send's grace period is over.
      expect((await harness.get(scope, payment.id)).attempts[0]?.status).toBe(
        AttemptStatus.ATTEMPT_STATUS_PENDING,
      );
    } finally {
      harness.peers.psp.unavailable = false;
    }
    harness.clock.advance(16_000);
    await harness.events.waitForEvent(payment.id, 'payment.request_sent');
    expect((await harness.get(scope, payment.id)).attempts[0]?.status).toBe(
      AttemptStatus.ATTEMPT_STATUS_SENT,
    );
  });

  it('audits one mode: the payments that succeeded and every transfer whose money goes back', async () => {
    const scope = testScope();
    const paid = await requestSent(scope);
    await harness.publishPspUpdate({ txId: paid.attempts[0]?.txId ?? '' });
    await harness.events.waitForEvent(paid.id, 'payment.succeeded');
    const unpaid = await requestSent(scope);
    const unpaidTxId = unpaid.attempts[0]?.txId ?? '';
    await harness.publishPspUpdate({ txId: unpaidTxId, amount: 0n });
    const mispaid = await requestSent(scope);
    const mispaidTxId = mispaid.attempts[0]?.txId ?? '';
    await harness.publishPspUpdate({ txId: mispaidTxId, endToEndId: 'E2E-MISPAID', payeeMismatch: true });
    await waitFor(async () => {
      const [first, second] = await Promise.all([
        harness.get(scope, unpaid.id),
        harness.get(scope, mispaid.id),
      ]);
      return [first, second].every(
        (read) => read.attempts[0]?.status === AttemptStatus.ATTEMPT_STATUS_FAILED,
      );
    });

    const audit = await harness.client.auditPayments({ livemode: false });
    expect(audit.succeededPaymentIds).toContain(paid.id);
    expect(audit.succeededPaymentIds).not.toContain(mispaid.id);
    const owed = audit.owedRefunds.filter((refund) =>
      [paid.id, unpaid.id, mispaid.id].includes(refund.paymentId),
    );
    expect(owed).toHaveLength(2);
    expect(owed).toEqual(
      expect.arrayContaining([
        { paymentId: unpaid.id, txId: unpaidTxId },
        { paymentId: mispaid.id, txId: mispaidTxId, endToEndId: 'E2E-MISPAID', refundStatus: 'pending' },
      ]),
    );
    expect(audit.paymentEventMessageIds.length).toBeGreaterThan(0);

    const live = await harness.client.auditPayments({ livemode: true });
    expect(live.succeededPaymentIds).not.toContain(paid.id);
    expect(live.owedRefunds.map((refund) => refund.paymentId)).not.toContain(mispaid.id);
  });

  async function queueDepth(queue: string): Promise<number> {
    const connection = await connect(harness.rabbit.amqpUrl);
    try {
      const channel = await connection.createChannel();
      return (await channel.checkQueue(queue)).messageCount;
    } finally {
      await connection.close();
    }
  }

  async function waitForQueueDrained(): Promise<void> {
    await waitFor(async () => (await queueDepth(harness.pspUpdatesQueue)) === 0, {
      description: 'the psp updates queue to drain',
    });
    // Acked only once handled: an empty queue can still hold the last unacked message for a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});
