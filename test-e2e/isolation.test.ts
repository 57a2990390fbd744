import { api } from './support/api';
import { createMerchant, sikaOps, type CreatedMerchant } from './support/cli';
import { goLive } from './support/go-live';

jest.setTimeout(60_000);

const paymentBody = { amount: 2_500, return_url: 'https://shop.example/return' };

describe('isolation between merchants and between modes', () => {
  let merchantA: CreatedMerchant;
  let merchantB: CreatedMerchant;

  beforeAll(async () => {
    [merchantA, merchantB] = await Promise.all([
      createMerchant('E2E Isolation A'),
      createMerchant('E2E Isolation B'),
    ]);
  });

  it("answers 404 to merchant B reading merchant A's payment, exactly as for an unknown id", async () => {
    const created = await api<{ id: string }>(merchantA.secret_key, 'POST', '/v1/payments', {
      body: paymentBody,
    });
    expect(created.status).toBe(200);

    const foreign = await api<{ error: Record<string, unknown> }>(
      merchantB.secret_key,
      'GET',
      `/v1/payments/${created.body.id}`,
    );
    const unknown = await api<{ error: Record<string, unknown> }>(
      merchantB.secret_key,
      'GET',
      '/v1/payments/pay_doesnotexist1',
    );
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    const withoutRequestId = ({ request_id: _ignored, ...rest }: Record<string, unknown>) => rest;
    expect(withoutRequestId(foreign.body.error)).toEqual(withoutRequestId(unknown.body.error));

    const cancel = await api(merchantB.secret_key, 'POST', `/v1/payments/${created.body.id}/cancel`);
    expect(cancel.status).toBe(404);
    const listB = await api<{ data: unknown[] }>(merchantB.secret_key, 'GET', '/v1/payments');
    expect(listB.body.data).toEqual([]);
  });

  it('never shows test data to a live key', async () => {
    const created = await api<{ id: string }>(merchantA.secret_key, 'POST', '/v1/payments', {
      body: paymentBody,
    });
    const liveKey = await goLive(merchantA.merchant_id);
    expect(liveKey).toMatch(/^sk_live_[A-Za-z0-9]+$/);

    expect((await api(liveKey, 'GET', `/v1/payments/${created.body.id}`)).status).toBe(404);
    expect((await api<{ data: unknown[] }>(liveKey, 'GET', '/v1/payments')).body.data).toEqual([]);
    expect((await api(liveKey, 'GET', '/v1/balance')).body).toMatchObject({ available: 0, livemode: true });
    expect((await api<{ data: unknown[] }>(liveKey, 'GET', '/v1/balance_transactions')).body.data).toEqual(
      [],
    );
    // Test helpers refuse a live key before looking anything up.
    for (const action of ['pay', 'expire']) {
      const helper = await api<{ error: { code: string } }>(
        liveKey,
        'POST',
        `/v1/test_helpers/payments/${created.body.id}/${action}`,
      );
      expect({ status: helper.status, code: helper.body.error.code }).toEqual({
        status: 403,
        code: 'test_mode_only',
      });
    }
  });

  it('rejects a missing, malformed or revoked key with 401', async () => {
    const missing = await fetch('http://127.0.0.1:8080/v1/balance');
    expect(missing.status).toBe(401);
    expect((await api('sk_test_notarealkey', 'GET', '/v1/balance')).status).toBe(401);

    const merchant = await createMerchant('E2E Renewal');
    await sikaOps('merchant:renew-key', '--merchant', merchant.merchant_id, '--mode', 'test');
    const revoked = await api<{ error: { code: string } }>(merchant.secret_key, 'GET', '/v1/balance');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('api_key_invalid');
  });
});
