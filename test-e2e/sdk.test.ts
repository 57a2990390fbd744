import {
  Sika,
  SikaAuthenticationError,
  SikaConnectionError,
  SikaIdempotencyError,
  SikaInvalidRequestError,
  SikaRateLimitError,
  type Payment,
} from '@sika/node';
import { randomSuffix, waitFor } from '@sika/testing';

import { createMerchant } from './support/cli';
import { startLossyProxy } from './support/lossy-proxy';

/** The Node SDK (packages/node) against the running stack: every call a merchant's server makes with it. */

jest.setTimeout(90_000);

const RETURN_URL = 'https://shop.example/return';
let sika: Sika;
let secretKey: string;

beforeAll(async () => {
  secretKey = (await createMerchant('E2E SDK')).secret_key;
  sika = new Sika(secretKey);
});

const statusOf = (id: string, wanted: Payment['status']) =>
  waitFor(async () => ((await sika.payments.retrieve(id)).status === wanted ? true : undefined), {
    timeoutMs: 30_000,
    description: `payment ${id} ${wanted}`,
  });

describe('the SDK against the running stack', () => {
  it('takes the mode from the key, creates, reads and cancels payments', async () => {
    expect(sika.livemode).toBe(false);
    expect(new Sika('sk_live_abc').livemode).toBe(true);
    const payment = await sika.payments.create({
      amount: 10_000,
      customer_alias: '+225 0000000001',
      return_url: RETURN_URL,
    });
    expect(payment).toMatchObject({ object: 'payment', status: 'created', amount: 10_000, livemode: false });
    await statusOf(payment.id, 'succeeded');
    expect(await sika.payments.retrieve(payment.id)).toMatchObject({ fee_amount: 100, net_amount: 9_900 });
    expect((await sika.balance.retrieve()).available).toBeGreaterThanOrEqual(9_900);

    const open = await sika.payments.create({ amount: 500, return_url: RETURN_URL });
    expect((await sika.payments.cancel(open.id)).status).toBe('canceled');
    expect(Object.keys((await sika.openApiDocument()).paths ?? {})).toContain('/v1/payments');
  });

  it('keeps an Idempotency-Key given, and tells a key reused with another body', async () => {
    const key = `order-${randomSuffix()}`;
    const first = await sika.payments.create(
      { amount: 700, return_url: RETURN_URL },
      { idempotencyKey: key },
    );
    const again = await sika.payments.create(
      { amount: 700, return_url: RETURN_URL },
      { idempotencyKey: key },
    );
    expect(again.id).toBe(first.id);
    const reused = sika.payments.create({ amount: 701, return_url: RETURN_URL }, { idempotencyKey: key });
    await expect(reused).rejects.toBeInstanceOf(SikaIdempotencyError);
    await expect(reused).rejects.toMatchObject({ statusCode: 409, code: 'idempotency_key_reused' });
  });

  it('retries a creation whose answer was lost with the same generated key: one payment', async () => {
    const proxy = await startLossyProxy({ host: '127.0.0.1', port: 8080 });
    try {
      const reference = `lost-${randomSuffix()}`;
      const payment = await new Sika(secretKey, { baseUrl: proxy.url }).payments.create({
        amount: 1_200,
        reference,
        return_url: RETURN_URL,
      });
      const keys = proxy.headerValues('idempotency-key');
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
      expect((await sika.payments.list({ reference })).data.map(({ id }) => id)).toEqual([payment.id]);
    } finally {
      await proxy.close();
    }
  });

  it('answers errors as typed objects with code, param and request_id', async () => {
    const missing = sika.payments.retrieve('pay_doesnotexist1');
    await expect(missing).rejects.toBeInstanceOf(SikaInvalidRequestError);
    await expect(missing).rejects.toMatchObject({
      statusCode: 404,
      type: 'invalid_request_error',
      code: 'resource_missing',
      param: 'id',
      requestId: expect.stringMatching(/\S/),
    });
    await expect(sika.payments.create({ amount: 0, return_url: RETURN_URL })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'amount',
    });
    await expect(new Sika('sk_test_notarealkey').balance.retrieve()).rejects.toBeInstanceOf(
      SikaAuthenticationError,
    );
    await expect(
      new Sika(secretKey, { baseUrl: 'http://127.0.0.1:1', maxRetries: 1 }).balance.retrieve(),
    ).rejects.toBeInstanceOf(SikaConnectionError);
  });

  it('walks every page of a list, asking the next page only when needed', async () => {
    const reference = `paged-${randomSuffix()}`;
    for (let index = 0; index < 3; index += 1) {
      await sika.payments.create({ amount: 100 + index, reference, return_url: RETURN_URL });
    }
    const onePage = await sika.payments.list({ reference, limit: 100 });
    const walked: string[] = [];
    for await (const payment of sika.payments.list({ reference, limit: 1 })) walked.push(payment.id);
    expect(walked).toHaveLength(3);
    expect(walked).toEqual(onePage.data.map(({ id }) => id));
    expect(await sika.payments.list({ reference, limit: 1 }).autoPagingToArray({ limit: 2 })).toHaveLength(2);
  });

  it('waits out 429 as Retry-After says: a burst that fails without retries passes with them', async () => {
    // 300 requests reach the gateway within two of its 1-second windows of 100: one window gets more.
    const burst = (client: Sika) =>
      Promise.allSettled(Array.from({ length: 300 }, () => client.balance.retrieve()));
    // On a loaded machine one burst may spread over more windows than it fills, or meet the limiter failing
    // open when Redis answers late: a few bursts, until one is refused.
    let refused = false;
    for (let tries = 0; tries < 3 && !refused; tries += 1) {
      const alone = await burst(new Sika(secretKey, { maxRetries: 0 }));
      refused = alone.some(
        (result) => result.status === 'rejected' && result.reason instanceof SikaRateLimitError,
      );
    }
    expect(refused).toBe(true);
    const retried = await burst(new Sika(secretKey, { maxRetries: 6 }));
    expect(retried.filter((result) => result.status === 'rejected')).toEqual([]);
  });

  it('test helpers: the customer of …04 pays now, a payment expires now', async () => {
    const deferred = await sika.payments.create({
      amount: 3_000,
      mode: 'on_delivery',
      expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      customer_alias: '+225 0000000004',
      return_url: RETURN_URL,
    });
    await statusOf(deferred.id, 'accepted_deferred');
    expect((await sika.testHelpers.payments.pay(deferred.id)).id).toBe(deferred.id);
    await statusOf(deferred.id, 'succeeded');
    await expect(sika.testHelpers.payments.pay(deferred.id)).rejects.toMatchObject({
      statusCode: 409,
      code: 'no_request_waiting',
    });

    const waiting = await sika.payments.create({ amount: 800, return_url: RETURN_URL });
    const before = Date.now();
    const expired = await sika.testHelpers.payments.expire(waiting.id);
    expect(expired.status).toBe('expired');
    expect(Date.parse(expired.expires_at)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(expired.expires_at)).toBeGreaterThanOrEqual(before - 5_000);
    expect((await sika.payments.retrieve(waiting.id)).expires_at).toBe(expired.expires_at);
    await expect(sika.testHelpers.payments.expire(waiting.id)).rejects.toMatchObject({
      statusCode: 409,
      code: 'payment_already_final',
    });
  });
});
