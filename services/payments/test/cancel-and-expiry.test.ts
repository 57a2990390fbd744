import { paymentsV1 } from '@sika/contracts';
import { waitFor } from '@sika/testing';
import { appErrorOf, Harness } from './support/harness';
import type { Scope } from './support/harness';

const { PaymentStatus, AttemptStatus } = paymentsV1;
const MINUTE = 60_000;

describe('payments: cancellation and expiry', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await Harness.start('close');
  });

  afterAll(async () => {
    await harness?.close();
  });

  const testScope = (): Scope => ({ merchantId: harness.newMerchant(), livemode: false });

  describe('cancel', () => {
    it('cancels a created payment: canceled + one payment.canceled event', async () => {
      const scope = testScope();
      const payment = await harness.create(scope);
      const { payment: canceled } = await harness.client.cancelPayment({ scope, paymentId: payment.id });
      expect(canceled?.status).toBe(PaymentStatus.PAYMENT_STATUS_CANCELED);
      const received = await harness.events.waitForEvent(payment.id, 'payment.canceled');
      expect(received.routingKey).toBe('payments.payment.canceled');
      expect(received.event.payment?.status).toBe(PaymentStatus.PAYMENT_STATUS_CANCELED);
    });

    it('cancels a request_sent payment; the request already at the bank stays sent', async () => {
      const scope = testScope();
      const payment = await harness.create(scope, { customerAlias: '+225 0000000001' });
      await harness.events.waitForEvent(payment.id, 'payment.request_sent');
      const { payment: canceled } = await harness.client.cancelPayment({ scope, paymentId: payment.id });
      expect(canceled?.status).toBe(PaymentStatus.PAYMENT_STATUS_CANCELED);
      expect(canceled?.attempts[0]?.status).toBe(AttemptStatus.ATTEMPT_STATUS_SENT);
      await harness.events.waitForEvent(payment.id, 'payment.canceled');
    });

    it('refuses to cancel a final payment: payment_already_final, nothing changes, no event', async () => {
      const scope = testScope();
      const payment = await harness.create(scope, { customerAlias: '+225 0000000001' });
      await harness.events.waitForEvent(payment.id, 'payment.request_sent');
      await harness.publishPspUpdate({ txId: payment.attempts[0]?.txId ?? '' });
      await harness.events.waitForEvent(payment.id, 'payment.succeeded');

      const error = await appErrorOf(harness.client.cancelPayment({ scope, paymentId: payment.id }));
      expect(error.code).toBe('payment_already_final');
      expect((await harness.get(scope, payment.id)).status).toBe(PaymentStatus.PAYMENT_STATUS_SUCCEEDED);

      const canceled = await harness.create(scope);
      await harness.client.cancelPayment({ scope, paymentId: canceled.id });
      const again = await appErrorOf(harness.client.cancelPayment({ scope, paymentId: canceled.id }));
      expect(again.code).toBe('payment_already_final');
      await harness.events.waitForEvent(canceled.id, 'payment.canceled');
      expect(harness.events.typesOf(canceled.id)).toEqual(['payment.canceled']);
    });

    it('with an idempotency key, a replay answers with the canceled payment instead of an error', async () => {
      const scope = testScope();
      const payment = await harness.create(scope);
      const first = await harness.client.cancelPayment({
        scope,
        paymentId: payment.id,
        idempotencyKey: 'cancel-1',
      });
      const replay = await harness.client.cancelPayment({
        scope,
        paymentId: payment.id,
        idempotencyKey: 'cancel-1',
      });
      expect(replay).toEqual(first);

      const other = await harness.create(scope);
      const reused = await appErrorOf(
        harness.client.cancelPayment({ scope, paymentId: other.id, idempotencyKey: 'cancel-1' }),
      );
      expect(reused.code).toBe('idempotency_key_reused');
      expect((await harness.get(scope, other.id)).status).toBe(PaymentStatus.PAYMENT_STATUS_CREATED);
    });
  });

  describe('expiry', () => {
    it('expires created and request_sent payments once expires_at passes, with one payment.expired each', async () => {
      const scope = testScope();
      const created = await harness.create(scope);
      const sent = await harness.create(scope, { customerAlias: '+225 0000000001' });
      await harness.events.waitForEvent(sent.id, 'payment.request_sent');
      const later = await harness.create(scope, {
        expiresAt: new Date(harness.clock.now().getTime() + 10 * MINUTE),
      });

      harness.clock.advance(5 * MINUTE - 1);
      harness.service.expiry.wake();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await harness.get(scope, created.id)).toMatchObject({
        status: PaymentStatus.PAYMENT_STATUS_CREATED,
      });

      harness.clock.advance(1);
      for (const payment of [created, sent]) {
        const received = await harness.events.waitForEvent(payment.id, 'payment.expired');
        expect(received.event.payment?.status).toBe(PaymentStatus.PAYMENT_STATUS_EXPIRED);
        expect((await harness.get(scope, payment.id)).status).toBe(PaymentStatus.PAYMENT_STATUS_EXPIRED);
      }
      expect(harness.events.typesOf(created.id)).toEqual(['payment.expired']);
      expect(harness.events.typesOf(sent.id)).toEqual(['payment.request_sent', 'payment.expired']);
      expect((await harness.get(scope, later.id)).status).toBe(PaymentStatus.PAYMENT_STATUS_CREATED);

      const error = await appErrorOf(harness.client.cancelPayment({ scope, paymentId: created.id }));
      expect(error.code).toBe('payment_already_final');
    });

    it('refuses new attempts past the deadline, even before the scheduler recorded the expiry', async () => {
      const scope = testScope();
      await harness.service.expiry.stop();
      try {
        const payment = await harness.create(scope);
        harness.clock.advance(5 * MINUTE);
        const error = await appErrorOf(
          harness.client.startAttempt({ paymentId: payment.id, customerAlias: '+225 0000000001' }),
        );
        expect(error.code).toBe('payment_already_final');
        expect((await harness.get(scope, payment.id)).attempts).toEqual([]);
      } finally {
        await harness.service.expiry.start();
      }
    });

    it('closes an attempt that never left when its payment expires', async () => {
      const scope = testScope();
      harness.peers.psp.unavailable = true;
      try {
        const payment = await harness.create(scope, { customerAlias: '+225 0000000001' });
        await waitFor(() => harness.peers.psp.callsFor(payment.attempts[0]?.txId ?? '') >= 1);
        harness.clock.advance(5 * MINUTE);
        await harness.events.waitForEvent(payment.id, 'payment.expired');
        const after = await harness.get(scope, payment.id);
        expect(after.attempts[0]).toMatchObject({
          status: AttemptStatus.ATTEMPT_STATUS_FAILED,
          failureCode: 'payment_closed',
        });
      } finally {
        harness.peers.psp.unavailable = false;
      }
    });
  });
});
