import { MAX_PAYMENT_CREATIONS_PER_CALL, paymentsV1 } from '@sika/contracts';
import { checkoutTokenOf } from '@sika/rules';
import { SqlIdempotencyKeyStore } from '@sika/platform';
import type { DB } from '../src/generated/database';
import { waitFor } from '@sika/testing';
import { appErrorOf, CHECKOUT_TOKEN_KEY, Harness } from './support/harness';
import type { Scope } from './support/harness';

describe('payments: creation, idempotency, reads', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await Harness.start('create');
  });

  afterAll(async () => {
    await harness?.close();
  });

  const testScope = (): Scope => ({ merchantId: harness.newMerchant(), livemode: false });

  it('creates a payment: created, checkout_url, no fee, no attempt, the default 5-minute deadline', async () => {
    const scope = testScope();
    const now = harness.clock.now();
    const payment = await harness.create(scope, { reference: 'order-1', description: 'Two mangoes' });
    expect(payment).toMatchObject({
      merchantId: scope.merchantId,
      livemode: false,
      status: paymentsV1.PaymentStatus.PAYMENT_STATUS_CREATED,
      amount: 10_000n,
      currency: 'XOF',
      mode: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
      reference: 'order-1',
      description: 'Two mangoes',
      returnUrl: 'https://shop.example/return',
      metadata: { order_id: '42' },
      attempts: [],
    });
    expect(payment.id).toMatch(/^pay_[A-Za-z0-9]{24}$/);
    // The page opens with the token, never with the id alone; the token is derived, so nothing stores it.
    expect(payment.checkoutUrl).toBe(
      `http://checkout.test/pay/${payment.id}/${checkoutTokenOf(CHECKOUT_TOKEN_KEY, payment.id)}`,
    );
    expect([payment.feeAmount, payment.netAmount, payment.txId, payment.payerAliasMasked]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(payment.expiresAt?.getTime()).toBe(now.getTime() + 5 * 60_000);
    expect(await harness.get(scope, payment.id)).toEqual(payment);
  });

  it("asks merchants for a merchant's profile once for payments created together (PROFILE_CACHE_TTL)", async () => {
    const scope = testScope();
    const created = await Promise.all([1, 2, 3, 4].map(() => harness.create(scope)));

    expect(created.map((payment) => payment.status)).toEqual(
      Array(4).fill(paymentsV1.PaymentStatus.PAYMENT_STATUS_CREATED),
    );
    expect(harness.peers.merchants.asked.filter((id) => id === scope.merchantId)).toHaveLength(1);
  });

  describe('idempotency', () => {
    it('answers the same key and body with the same payment, never a second one', async () => {
      const scope = testScope();
      const first = await harness.create(scope, { idempotencyKey: 'order-7', requestFingerprint: 'body-A' });
      const replay = await harness.create(scope, { idempotencyKey: 'order-7', requestFingerprint: 'body-A' });
      expect(replay).toEqual(first);
      const rows = await harness.db.query('SELECT id FROM payments WHERE merchant_id = $1', [
        scope.merchantId,
      ]);
      expect(rows).toEqual([{ id: first.id }]);
    });

    it('replays a payment whose expires_at has left the bounds since, and checks a new one without slack', async () => {
      const scope = testScope();
      const expiresAt = new Date(harness.clock.now().getTime() + 2 * 60_000);
      const first = await harness.create(scope, {
        idempotencyKey: 'order-9',
        requestFingerprint: 'A',
        expiresAt,
      });
      harness.clock.advance(75_000);
      const replay = await harness.create(scope, {
        idempotencyKey: 'order-9',
        requestFingerprint: 'A',
        expiresAt,
      });
      expect(replay.id).toBe(first.id);
      // With a key the gateway leaves the bounds to payments: 45 s ahead is refused, not tolerated as skew.
      const error = await appErrorOf(
        harness.create(scope, { idempotencyKey: 'order-10', requestFingerprint: 'B', expiresAt }),
      );
      expect([error.code, error.param]).toEqual(['parameter_invalid', 'expires_at']);
    });

    it('refuses the same key with another body: idempotency_key_reused, nothing created', async () => {
      const scope = testScope();
      await harness.create(scope, { idempotencyKey: 'order-8', requestFingerprint: 'body-A' });
      const error = await appErrorOf(
        harness.create(scope, { idempotencyKey: 'order-8', requestFingerprint: 'body-B', amount: 5n }),
      );
      expect(error.code).toBe('idempotency_key_reused');
      const rows = await harness.db.query('SELECT id FROM payments WHERE merchant_id = $1', [
        scope.merchantId,
      ]);
      expect(rows).toHaveLength(1);
    });

    it('scopes keys by merchant and mode', async () => {
      const scope = testScope();
      const test = await harness.create(scope, { idempotencyKey: 'shared', requestFingerprint: 'A' });
      const live = await harness.create(
        { ...scope, livemode: true },
        { idempotencyKey: 'shared', requestFingerprint: 'A' },
      );
      const other = await harness.create(testScope(), { idempotencyKey: 'shared', requestFingerprint: 'A' });
      expect(new Set([test.id, live.id, other.id]).size).toBe(3);
      expect(live.livemode).toBe(true);
    });

    it('answers idempotency_key_in_use without waiting while a request with the key is in flight', async () => {
      const scope = testScope();
      const key = 'order-in-flight';
      // Another request's transaction holds the key, as CreatePayment's own transaction does while it runs.
      const inFlight = await harness.db.pool.connect();
      try {
        await inFlight.query('BEGIN');
        const lockId = new SqlIdempotencyKeyStore<DB>('payments', 'payment_id').lockIdOf({ ...scope, key });
        await inFlight.query('SELECT pg_advisory_xact_lock($1)', [lockId.toString()]);
        const startedAt = Date.now();
        const error = await appErrorOf(harness.create(scope, { idempotencyKey: key }));
        expect(error.code).toBe('idempotency_key_in_use');
        expect(Date.now() - startedAt).toBeLessThan(2_000);
      } finally {
        await inFlight.query('ROLLBACK');
        inFlight.release();
      }
      // Once the other request is gone, the key works.
      expect((await harness.create(scope, { idempotencyKey: key })).status).toBe(
        paymentsV1.PaymentStatus.PAYMENT_STATUS_CREATED,
      );
    });

    it('lets exactly one of concurrent requests with the same key create the payment', async () => {
      const scope = testScope();
      const settled = await Promise.allSettled(
        Array.from({ length: 6 }, () =>
          harness.create(scope, { idempotencyKey: 'burst', requestFingerprint: 'A' }),
        ),
      );
      const rows = await harness.db.query('SELECT id FROM payments WHERE merchant_id = $1', [
        scope.merchantId,
      ]);
      expect(rows).toHaveLength(1);
      for (const result of settled) {
        if (result.status === 'fulfilled') expect(result.value.id).toBe(rows[0]?.id);
        else expect((result.reason as { code: string }).code).toBe('idempotency_key_in_use');
      }
      expect(settled.some((result) => result.status === 'fulfilled')).toBe(true);
    });

    it('frees a key after 24 hours: reaped, or ignored until the reaper runs', async () => {
      const scope = testScope();
      const first = await harness.create(scope, { idempotencyKey: 'daily', requestFingerprint: 'A' });
      harness.clock.advance(24 * 60 * 60_000);
      const second = await harness.create(scope, { idempotencyKey: 'daily', requestFingerprint: 'B' });
      expect(second.id).not.toBe(first.id);

      const stale = await harness.create(testScope(), { idempotencyKey: 'old', requestFingerprint: 'A' });
      harness.clock.advance(24 * 60 * 60_000 + 1);
      harness.service.reaper.wake();
      await waitFor(
        async () =>
          (await harness.db.query('SELECT 1 FROM idempotency_keys WHERE payment_id = $1', [stale.id]))
            .length === 0,
        { description: 'the reaper to delete the old key' },
      );
    });
  });

  describe('CreatePayments: several creations in one call', () => {
    it('answers each creation with its payment or the error it alone failed with, in order', async () => {
      const scope = testScope();
      await harness.create(scope, { idempotencyKey: 'order-9', requestFingerprint: 'fp-1' });

      const { outcomes } = await harness.client.createPayments({
        creations: [
          { requestId: 'req_one', request: harness.creationRequest(scope, { amount: 1_000n }) },
          // The key again with another body: idempotency_key_reused, for this creation only.
          {
            requestId: 'req_two',
            request: harness.creationRequest(scope, {
              idempotencyKey: 'order-9',
              requestFingerprint: 'fp-2',
            }),
          },
          { requestId: 'req_three', request: harness.creationRequest(scope, { amount: -5n }) },
          { requestId: 'req_four', request: undefined },
          { requestId: 'req_five', request: harness.creationRequest(scope, { amount: 3_000n }) },
        ],
      });

      expect(outcomes.map(({ payment, error }) => payment?.amount ?? error)).toEqual([
        1_000n,
        expect.objectContaining({ code: 'idempotency_key_reused' }),
        expect.objectContaining({ code: 'parameter_invalid', param: 'amount' }),
        expect.objectContaining({ code: 'parameter_missing', param: 'request' }),
        3_000n,
      ]);
      for (const { payment } of outcomes) {
        if (payment !== undefined) expect((await harness.get(scope, payment.id)).amount).toBe(payment.amount);
      }
    });

    it(`answers a call of ${MAX_PAYMENT_CREATIONS_PER_CALL} of the largest creations the API accepts`, async () => {
      const scope = testScope();
      const wide = (length: number) => '\u{1D538}'.repeat(length);
      const url = (path: string) => `https://shop.example/${path}/${'a'.repeat(2_048 - 22 - path.length)}`;
      const largest = harness.creationRequest(scope, {
        reference: wide(100),
        description: wide(140),
        returnUrl: url('return'),
        cancelUrl: url('cancel'),
        metadata: Object.fromEntries(
          Array.from({ length: 20 }, (_, index) => [
            `${wide(38)}${String(index).padStart(2, '0')}`,
            wide(500),
          ]),
        ),
      });
      const creations = Array.from({ length: MAX_PAYMENT_CREATIONS_PER_CALL }, (_, index) => ({
        requestId: `req_${index}`,
        request: largest,
      }));

      const { outcomes } = await harness.client.createPayments({ creations });

      expect(outcomes.map(({ payment }) => payment?.metadata)).toEqual(creations.map(() => largest.metadata));
    });

    it('still serves CreatePayment, one creation per call, for the gateways of the previous release', async () => {
      const scope = testScope();
      const { payment } = await harness.client.createPayment(
        harness.creationRequest(scope, { idempotencyKey: 'order-11' }),
      );
      expect(payment?.status).toBe(paymentsV1.PaymentStatus.PAYMENT_STATUS_CREATED);
      const replay = await harness.client.createPayment(
        harness.creationRequest(scope, { idempotencyKey: 'order-11' }),
      );
      expect(replay.payment?.id).toBe(payment?.id);
      const error = await appErrorOf(
        harness.client.createPayment(harness.creationRequest(scope, { amount: 0n })),
      );
      expect(error).toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    });

    it(`refuses a call of more than ${MAX_PAYMENT_CREATIONS_PER_CALL} creations whole, creating nothing`, async () => {
      const scope = testScope();
      const creations = Array.from({ length: MAX_PAYMENT_CREATIONS_PER_CALL + 1 }, (_, index) => ({
        requestId: `req_${index}`,
        request: harness.creationRequest(scope),
      }));
      const error = await appErrorOf(harness.client.createPayments({ creations }));
      expect(error).toMatchObject({ code: 'parameter_invalid', param: 'creations' });
      expect((await harness.list({ scope })).payments).toEqual([]);
    });
  });

  it('refuses bad input with parameter_invalid and the param, creating nothing', async () => {
    const scope = testScope();
    const before = await harness.count('payments');
    const cases: [Partial<paymentsV1.CreatePaymentRequest>, string][] = [
      [{ amount: 0n }, 'amount'],
      [{ currency: 'EUR' }, 'currency'],
      [{ reference: 'r'.repeat(101) }, 'reference'],
      [{ returnUrl: 'javascript:alert(1)' }, 'return_url'],
      [{ customerAlias: '+225 12' }, 'customer_alias'],
      [{ expiresAt: new Date(harness.clock.now().getTime() + 25 * 60 * 60_000) }, 'expires_at'],
      [{ mode: paymentsV1.PaymentMode.PAYMENT_MODE_ON_DELIVERY }, 'expires_at'],
      [{ idempotencyKey: 'k'.repeat(256) }, 'idempotency_key'],
    ];
    for (const [overrides, param] of cases) {
      const error = await appErrorOf(harness.create(scope, overrides));
      expect([error.code.startsWith('parameter_'), error.param]).toEqual([true, param]);
    }
    expect(await harness.count('payments')).toBe(before);
  });

  it('hides other merchants and the other mode exactly like missing payments', async () => {
    const scope = testScope();
    const payment = await harness.create(scope);
    const strangers: Scope[] = [{ ...scope, livemode: true }, testScope()];
    for (const stranger of strangers) {
      const read = await appErrorOf(harness.client.getPayment({ scope: stranger, paymentId: payment.id }));
      const missing = await appErrorOf(
        harness.client.getPayment({ scope: stranger, paymentId: 'pay_doesnotexist' }),
      );
      expect([read.code, read.message, read.param]).toEqual([missing.code, missing.message, missing.param]);
      expect(read.code).toBe('resource_missing');
      const cancel = await appErrorOf(
        harness.client.cancelPayment({ scope: stranger, paymentId: payment.id }),
      );
      expect(cancel.code).toBe('resource_missing');
      const { payments } = await harness.list({ scope: stranger });
      expect(payments.map((each) => each.id)).not.toContain(payment.id);
      const cursor = await appErrorOf(
        harness.list({
          scope: stranger,
          page: { limit: 1, startingAfter: payment.id },
        }),
      );
      expect([cursor.code, cursor.param]).toEqual(['resource_missing', 'starting_after']);
    }
    expect((await harness.get(scope, payment.id)).status).toBe(
      paymentsV1.PaymentStatus.PAYMENT_STATUS_CREATED,
    );
  });

  describe('list', () => {
    let scope: Scope;
    let created: paymentsV1.Payment[];
    let startedAt: Date;

    beforeAll(async () => {
      scope = testScope();
      startedAt = harness.clock.now();
      created = [];
      for (let index = 0; index < 5; index++) {
        harness.clock.advance(1_000);
        created.push(await harness.create(scope, { reference: index % 2 === 0 ? 'even' : 'odd' }));
      }
      await harness.client.cancelPayment({ scope, paymentId: created[1]?.id ?? '' });
    });

    const ids = (payments: paymentsV1.Payment[]) => payments.map((payment) => payment.id);
    const newestFirst = () => ids([...created].reverse());

    it('lists most recent first, 20 by default, has_more false at the end', async () => {
      const page = await harness.list({ scope });
      expect(ids(page.payments)).toEqual(newestFirst());
      expect(page.hasMore).toBe(false);
    });

    it('pages with limit and starting_after', async () => {
      const seen: string[] = [];
      let startingAfter: string | undefined;
      for (;;) {
        const page = await harness.list({
          scope,
          page: { limit: 2, startingAfter },
        });
        seen.push(...ids(page.payments));
        if (!page.hasMore) break;
        startingAfter = page.payments.at(-1)?.id;
      }
      expect(seen).toEqual(newestFirst());
    });

    it('pages through payments created in the same millisecond by id', async () => {
      const sameInstant = testScope();
      const batch = await Promise.all(Array.from({ length: 4 }, () => harness.create(sameInstant)));
      const seen: string[] = [];
      let startingAfter: string | undefined;
      do {
        const page = await harness.list({
          scope: sameInstant,
          page: { limit: 1, startingAfter },
        });
        seen.push(...ids(page.payments));
        startingAfter = page.hasMore ? page.payments.at(-1)?.id : undefined;
      } while (startingAfter !== undefined);
      // Ties on created_at are broken by id, in the database's collation: one page at a time gives the
      // same order as one page with everything, each payment exactly once.
      const all = await harness.list({ scope: sameInstant });
      expect(seen).toEqual(ids(all.payments));
      expect([...seen].sort()).toEqual(ids(batch).sort());
    });

    it('filters by status, reference, created_from (inclusive) and created_to (exclusive)', async () => {
      const list = (filter: Partial<paymentsV1.ListPaymentsRequest>) =>
        harness.list({ scope, ...filter }).then((page) => ids(page.payments));
      expect(await list({ status: paymentsV1.PaymentStatus.PAYMENT_STATUS_CANCELED })).toEqual([
        created[1]?.id,
      ]);
      expect(await list({ reference: 'even' })).toEqual([created[4]?.id, created[2]?.id, created[0]?.id]);
      const third = created[2]?.createdAt;
      expect(await list({ createdFrom: third })).toEqual([created[4]?.id, created[3]?.id, created[2]?.id]);
      expect(await list({ createdTo: third })).toEqual([created[1]?.id, created[0]?.id]);
      expect(await list({ createdFrom: startedAt, createdTo: created[1]?.createdAt })).toEqual([
        created[0]?.id,
      ]);
    });

    it('refuses a limit out of 1..100 and an unknown starting_after', async () => {
      for (const limit of [-1, 101]) {
        const error = await appErrorOf(harness.list({ scope, page: { limit } }));
        expect([error.code, error.param]).toEqual(['parameter_invalid', 'limit']);
      }
      const unknown = await appErrorOf(
        harness.list({ scope, page: { limit: 5, startingAfter: 'pay_unknown' } }),
      );
      expect([unknown.code, unknown.param]).toEqual(['resource_missing', 'starting_after']);
    });
  });
});
