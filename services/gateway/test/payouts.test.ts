import { payoutsV1 } from '@sika/contracts';

import { errorOf, KEYS, SCOPES, startTestGateway, type TestGateway } from './support/gateway';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const createPayout = (body: unknown, headers: Record<string, string> = {}, key: string = KEYS.aTest) =>
  gateway.request('/v1/payouts', { method: 'POST', key, body, headers });

const lastCreate = () =>
  [...gateway.peers.payouts.calls].reverse().find((call) => call.method === 'createPayout')
    ?.request as payoutsV1.CreatePayoutRequest;

describe('POST /v1/payouts', () => {
  it('creates a payout of an amount: 200, the payout object, the key and the scope forwarded', async () => {
    const response = await createPayout({ amount: 4_000 }, { 'Idempotency-Key': 'po-a' });
    expect(response.status).toBe(200);
    const payout = (await response.json()) as Record<string, unknown>;
    expect(payout).toMatchObject({
      id: expect.stringMatching(/^po_/),
      object: 'payout',
      amount: 4_000,
      currency: 'XOF',
      status: 'pending',
      method: 'manual',
      destination: { type: 'phone', holder_name: 'Marchand Test Sika' },
      failure_code: null,
      paid_at: null,
      livemode: false,
    });
    expect(JSON.stringify(payout)).not.toContain('0000000100');
    expect(lastCreate()).toMatchObject({ scope: SCOPES.aTest, idempotencyKey: 'po-a', amount: 4_000n });
  });

  it('pays out the whole balance for an absent body, {} and {"amount": null} alike: one fingerprint', async () => {
    const fingerprints = new Set<string>();
    for (const [index, body] of [undefined, {}, { amount: null }].entries()) {
      const response = await createPayout(body, { 'Idempotency-Key': `po-all-${index}` });
      expect(response.status).toBe(200);
      expect(lastCreate().amount).toBeUndefined();
      fingerprints.add(lastCreate().requestFingerprint);
    }
    expect(fingerprints.size).toBe(1);
  });

  it('requires an Idempotency-Key (decided), without asking payouts', async () => {
    const calls = gateway.peers.payouts.calls.length;
    const response = await createPayout({ amount: 10 });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'parameter_missing', param: 'Idempotency-Key' });
    expect(gateway.peers.payouts.calls).toHaveLength(calls);
  });

  it.each([
    [{ amount: 0 }, 'amount'],
    [{ amount: -5 }, 'amount'],
    [{ amount: 1.5 }, 'amount'],
    [{ amount: '100' }, 'amount'],
    [{ amount: 2 ** 53 }, 'amount'],
    [{ currency: 'XOF' }, 'currency'],
  ])('refuses %j with 400 naming %s', async (body, param) => {
    const response = await createPayout(body, { 'Idempotency-Key': `bad-${param}-${JSON.stringify(body)}` });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ param });
  });

  it('answers a replay with the same payout and another body with 409 idempotency_key_reused', async () => {
    const first = (await (await createPayout({ amount: 70 }, { 'Idempotency-Key': 'po-r' })).json()) as {
      id: string;
    };
    const again = (await (await createPayout({ amount: 70 }, { 'Idempotency-Key': 'po-r' })).json()) as {
      id: string;
    };
    expect(again.id).toBe(first.id);
    const other = await createPayout({ amount: 71 }, { 'Idempotency-Key': 'po-r' });
    expect(other.status).toBe(409);
    expect(await errorOf(other)).toMatchObject({ code: 'idempotency_key_reused' });
  });
});

describe('GET /v1/payouts and /v1/payouts/{id}', () => {
  it('reads a payout of the key, and answers 404 for a malformed id without asking payouts', async () => {
    const created = (await (await createPayout({ amount: 5 }, { 'Idempotency-Key': 'po-g' })).json()) as {
      id: string;
    };
    const read = await gateway.request(`/v1/payouts/${created.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: created.id, object: 'payout' });

    const calls = gateway.peers.payouts.calls.length;
    const malformed = await gateway.request('/v1/payouts/pay_123');
    expect(malformed.status).toBe(404);
    expect(await errorOf(malformed)).toMatchObject({ code: 'resource_missing', param: 'id' });
    expect(gateway.peers.payouts.calls).toHaveLength(calls);

    const otherMode = await gateway.request(`/v1/payouts/${created.id}`, { key: KEYS.aLive });
    expect(otherMode.status).toBe(404);
  });

  it('lists with the filters forwarded, and refuses unknown parameters and statuses', async () => {
    const response = await gateway.request(
      '/v1/payouts?status=paid&limit=5&created_from=2026-01-01T00:00:00Z&created_to=2027-01-01T00:00:00Z',
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ object: 'list', has_more: false });
    const listCall = [...gateway.peers.payouts.calls].reverse().find((call) => call.method === 'listPayouts')
      ?.request as payoutsV1.ListPayoutsRequest;
    expect(listCall).toMatchObject({
      status: payoutsV1.PayoutStatus.PAYOUT_STATUS_PAID,
      page: { limit: 5 },
      createdFrom: new Date('2026-01-01T00:00:00Z'),
      createdTo: new Date('2027-01-01T00:00:00Z'),
    });
    for (const [query, param] of [
      ['status=pending_payout', 'status'],
      ['limit=101', 'limit'],
      ['starting_after=pay_1', 'starting_after'],
      ['reference=x', 'reference'],
    ]) {
      const refused = await gateway.request(`/v1/payouts?${query}`);
      expect(refused.status).toBe(400);
      expect(await errorOf(refused)).toMatchObject({ param });
    }
  });

  it('answers 405 with Allow for another method', async () => {
    const response = await gateway.request('/v1/payouts/po_1', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
