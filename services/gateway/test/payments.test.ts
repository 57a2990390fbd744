import { paymentsV1 } from '@sika/contracts';

import { errorOf, KEYS, SCOPES, startTestGateway, type TestGateway } from './support/gateway';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const body = { amount: 10_000, return_url: 'https://shop.example/return', reference: 'order-1' };

async function create(
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  key: string = KEYS.aTest,
) {
  return gateway.request('/v1/payments', { method: 'POST', key, body: { ...body, ...fields }, headers });
}

async function json<T = Record<string, unknown>>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

function lastCall(method: string) {
  return [...gateway.peers.payments.calls].reverse().find((call) => call.method === method)?.request;
}

describe('POST /v1/payments', () => {
  it('creates a payment: 200, the spec §2.1 object, checkout_url, no attempts', async () => {
    const response = await create({ metadata: { order_id: '42' }, description: 'Shoes' });
    expect(response.status).toBe(200);
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(await json(response)).toMatchObject({
      object: 'payment',
      status: 'created',
      amount: 10_000,
      currency: 'XOF',
      fee_amount: null,
      net_amount: null,
      mode: 'immediate',
      reference: 'order-1',
      description: 'Shoes',
      checkout_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8081\//),
      livemode: false,
      metadata: { order_id: '42' },
      attempts: [],
    });
  });

  it('sends payments the scope and the normalized fields, and no fingerprint without a key', async () => {
    const expiresAt = new Date(Date.now() + 10 * 60_000);
    await create({
      expires_at: expiresAt.toISOString(),
      customer_alias: '+225 0000000001',
      cancel_url: null,
    });
    expect(gateway.peers.payments.lastCreation()).toEqual({
      scope: SCOPES.aTest,
      requestFingerprint: '',
      amount: 10_000n,
      currency: 'XOF',
      mode: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
      expiresAt,
      reference: 'order-1',
      customerAlias: '+225 0000000001',
      returnUrl: body.return_url,
      metadata: {},
    });
  });

  it('returns the same payment for the same key and the same body, whatever the key order and spacing', async () => {
    const headers = { 'idempotency-key': 'order-42-attempt-1' };
    const first = await json(await create({}, headers));
    const replay = await gateway.request('/v1/payments', {
      method: 'POST',
      body: `{ "reference" : "order-1", "return_url":"https://shop.example/return",\n "currency": "XOF", "amount": 10000 }`,
      headers,
    });
    expect(replay.status).toBe(200);
    expect((await json(replay))['id']).toBe(first['id']);
    expect(gateway.peers.payments.lastCreation()).toMatchObject({
      idempotencyKey: 'order-42-attempt-1',
      requestFingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('replays the payment once its expires_at has left the creation bounds (spec §4.1)', async () => {
    const headers = { 'idempotency-key': 'order-45' };
    const expiresAt = new Date(Date.now() + 61_000).toISOString();
    const first = await create({ expires_at: expiresAt }, headers);
    expect(first.status).toBe(200);
    // Less than the minimum minute is now left: a new payment with this deadline would be refused.
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - 60_000 - Date.now() + 50));
    const replay = await create({ expires_at: expiresAt }, headers);
    expect(replay.status).toBe(200);
    expect((await json(replay))['id']).toBe((await json(first))['id']);
    const unkeyed = await create({ expires_at: expiresAt });
    expect(await errorOf(unkeyed)).toMatchObject({ code: 'parameter_invalid', param: 'expires_at' });
  });

  it('answers 409 idempotency_key_reused for the same key with another body', async () => {
    const headers = { 'idempotency-key': 'order-43' };
    await create({}, headers);
    const response = await create({ amount: 10_001 }, headers);
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toMatchObject({
      type: 'idempotency_error',
      code: 'idempotency_key_reused',
    });
  });

  it('scopes keys per merchant and mode: another merchant may use the same key', async () => {
    const headers = { 'idempotency-key': 'shared-key' };
    const mine = await json(await create({}, headers));
    const theirs = await json(await create({ amount: 7 }, headers, KEYS.bTest));
    expect(theirs['id']).not.toBe(mine['id']);
  });

  it('answers 409 idempotency_key_in_use while the first request with the key is running', async () => {
    gateway.peers.payments.createDelayMs = 300;
    try {
      const headers = { 'idempotency-key': 'order-44' };
      const [first, second] = await Promise.all([
        create({}, headers),
        new Promise<Response>((resolve) => setTimeout(() => resolve(create({}, headers)), 100)),
      ]);
      expect(first.status).toBe(200);
      expect(second.status).toBe(409);
      expect((await errorOf(second)).code).toBe('idempotency_key_in_use');
    } finally {
      gateway.peers.payments.createDelayMs = 0;
    }
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['holding a control character (a tab)', 'order\t42'],
  ])('refuses an Idempotency-Key that is %s, and sends nothing to payments', async (_case, key) => {
    const before = gateway.peers.downstreamCalls().length;
    const response = await create({}, { 'idempotency-key': key });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' });
    expect(gateway.peers.downstreamCalls()).toHaveLength(before);
  });

  it('accepts an Idempotency-Key of 255 characters', async () => {
    expect((await create({}, { 'idempotency-key': 'k'.repeat(255) })).status).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"amount": 10'],
    ['JSON that is not an object or an array', '"amount"'],
  ])('answers %s with 400 invalid_json', async (_case, raw) => {
    const response = await gateway.request('/v1/payments', { method: 'POST', body: raw });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('invalid_json');
  });

  it('refuses a body that is not JSON with 415', async () => {
    const response = await gateway.request('/v1/payments', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount=100',
    });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('unsupported_encoding');
  });

  it('reports the missing fields of an empty request', async () => {
    const response = await gateway.request('/v1/payments', { method: 'POST' });
    expect(await errorOf(response)).toMatchObject({ code: 'parameter_missing', param: 'amount' });
  });
});

describe('GET /v1/payments/{id}', () => {
  it('reads a payment of the same merchant and mode', async () => {
    const created = await json(await create());
    const response = await gateway.request(`/v1/payments/${String(created['id'])}`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual(created);
  });

  it.each([
    ['another merchant', KEYS.bTest],
    ['the other mode of the same merchant', KEYS.aLive],
  ])('answers 404 resource_missing for a payment of %s, as if it did not exist', async (_case, key) => {
    const created = await json(await create());
    const response = await gateway.request(`/v1/payments/${String(created['id'])}`, { key });
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', param: 'id' });
    const unknown = await errorOf(await gateway.request('/v1/payments/pay_doesnotexist', { key }));
    expect({ ...error, message: '', request_id: '' }).toEqual({ ...unknown, message: '', request_id: '' });
  });

  it('answers 404 for an id that cannot exist, without asking payments', async () => {
    const before = gateway.peers.downstreamCalls().length;
    for (const id of ['po_123', 'pay_', 'pay_12-3', 'anything']) {
      const response = await gateway.request(`/v1/payments/${id}`);
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toMatchObject({ code: 'resource_missing', param: 'id' });
    }
    expect(gateway.peers.downstreamCalls()).toHaveLength(before);
  });

  it('labels logs and metrics with the route pattern, never the id', async () => {
    await gateway.request('/v1/payments/pay_labelled');
    const line = gateway.logs.find(
      (entry) => entry.includes('"http request"') && entry.includes('pay_labelled'),
    );
    expect(line).toBeUndefined();
    const routes = gateway.logs
      .filter((entry) => entry.includes('"http request"'))
      .map((entry) => JSON.parse(entry).route);
    expect(routes).toContain('/v1/payments/:id');
    const metrics = await (await fetch(`${gateway.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/v1\/payments\/:id"/);
    expect(metrics).not.toContain('pay_labelled');
  });

  it('serves /readyz and /metrics on the operations port, not on the public one', async () => {
    expect((await fetch(`${gateway.opsUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${gateway.opsUrl}/metrics`)).status).toBe(200);
    for (const path of ['/readyz', '/metrics']) {
      const response = await gateway.request(path, { key: null });
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('route_not_found');
    }
    expect((await gateway.request('/healthz', { key: null })).status).toBe(200);
  });

  it('answers 405 with Allow for another method', async () => {
    const response = await gateway.request('/v1/payments/pay_123', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect((await errorOf(response)).code).toBe('method_not_allowed');
  });
});

describe('POST /v1/payments/{id}/cancel', () => {
  it('cancels a payment, forwarding the Idempotency-Key', async () => {
    const created = await json(await create());
    const response = await gateway.request(`/v1/payments/${String(created['id'])}/cancel`, {
      method: 'POST',
      headers: { 'idempotency-key': 'cancel-1' },
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ id: created['id'], status: 'canceled' });
    expect(lastCall('cancelPayment')).toEqual({
      scope: SCOPES.aTest,
      paymentId: created['id'],
      idempotencyKey: 'cancel-1',
    });
  });

  it('accepts an empty JSON object and refuses any field', async () => {
    const created = await json(await create());
    const path = `/v1/payments/${String(created['id'])}/cancel`;
    const withField = await gateway.request(path, { method: 'POST', body: { reason: 'x' } });
    expect(await errorOf(withField)).toMatchObject({ code: 'parameter_unknown', param: 'reason' });
    expect((await gateway.request(path, { method: 'POST', body: {} })).status).toBe(200);
  });

  it('answers 409 payment_already_final for a succeeded payment', async () => {
    const succeeded = gateway.peers.payments.seed(SCOPES.aTest, {
      status: paymentsV1.PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
    });
    const response = await gateway.request(`/v1/payments/${succeeded.id}/cancel`, { method: 'POST' });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe('payment_already_final');
  });

  it("answers 404 for another merchant's payment and leaves it as it was", async () => {
    const created = await json(await create());
    const response = await gateway.request(`/v1/payments/${String(created['id'])}/cancel`, {
      method: 'POST',
      key: KEYS.bTest,
    });
    expect(response.status).toBe(404);
    expect((await json(await gateway.request(`/v1/payments/${String(created['id'])}`)))['status']).toBe(
      'created',
    );
  });
});

describe('GET /v1/payments', () => {
  let scoped: TestGateway;

  beforeAll(async () => {
    scoped = await startTestGateway();
    for (const reference of ['r1', 'r2', 'r3']) {
      await scoped.request('/v1/payments', { method: 'POST', body: { ...body, reference } });
    }
    await scoped.request('/v1/payments', {
      method: 'POST',
      key: KEYS.aLive,
      body: { ...body, reference: 'live' },
    });
  });
  afterAll(() => scoped.close());

  it('lists the payments of the key, most recent first, 20 by default', async () => {
    const page = await json<{ object: string; data: { reference: string }[]; has_more: boolean }>(
      await scoped.request('/v1/payments'),
    );
    expect(page).toMatchObject({ object: 'list', has_more: false });
    expect(page.data.map((payment) => payment.reference)).toEqual(['r3', 'r2', 'r1']);
    expect(scoped.peers.payments.calls.at(-1)?.request).toMatchObject({ page: { limit: 20 } });
  });

  it('pages with limit and starting_after', async () => {
    const first = await json<{ data: { id: string; reference: string }[]; has_more: boolean }>(
      await scoped.request('/v1/payments?limit=2'),
    );
    expect(first.has_more).toBe(true);
    const second = await json<{ data: { reference: string }[]; has_more: boolean }>(
      await scoped.request(`/v1/payments?limit=2&starting_after=${first.data[1]!.id}`),
    );
    expect(second).toMatchObject({ has_more: false, data: [{ reference: 'r1' }] });
  });

  it('answers a starting_after naming no record 400 resource_missing, on every list', async () => {
    for (const path of [
      '/v1/payments?starting_after=pay_gone',
      '/v1/balance_transactions?starting_after=txn_gone',
      '/v1/payouts?starting_after=po_gone',
    ]) {
      const response = await scoped.request(path);
      expect([path, response.status]).toEqual([path, 400]);
      expect(await errorOf(response)).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    }
  });

  it('forwards the filters', async () => {
    const response = await scoped.request(
      '/v1/payments?status=created&reference=r2&created_from=2026-01-01T00:00:00Z&created_to=2099-01-01T00:00:00%2B01:00',
    );
    const page = await json<{ data: { reference: string }[] }>(response);
    expect(page.data.map((payment) => payment.reference)).toEqual(['r2']);
    expect(scoped.peers.payments.calls.at(-1)?.request).toMatchObject({
      status: paymentsV1.PaymentStatus.PAYMENT_STATUS_CREATED,
      reference: 'r2',
      createdFrom: new Date('2026-01-01T00:00:00Z'),
      createdTo: new Date('2098-12-31T23:00:00Z'),
    });
  });

  it('shows live payments to the live key only', async () => {
    const live = await json<{ data: { reference: string; livemode: boolean }[] }>(
      await scoped.request('/v1/payments', { key: KEYS.aLive }),
    );
    expect(live.data).toEqual([expect.objectContaining({ reference: 'live', livemode: true })]);
    const other = await json<{ data: unknown[] }>(await scoped.request('/v1/payments', { key: KEYS.bTest }));
    expect(other.data).toEqual([]);
  });
});

describe('balance', () => {
  it('reads the balance and the movements of the key, newest first', async () => {
    gateway.peers.ledger.creditPayment(SCOPES.aTest, 'pay_credited1', 10_000n, 150n);
    gateway.peers.ledger.creditPayment(SCOPES.bTest, 'pay_credited2', 500n, 5n);
    expect(await json(await gateway.request('/v1/balance'))).toEqual({
      object: 'balance',
      available: 9_850,
      pending_payout: 0,
      currency: 'XOF',
      livemode: false,
    });
    const movements = await json<{ object: string; data: unknown[]; has_more: boolean }>(
      await gateway.request('/v1/balance_transactions'),
    );
    expect(movements).toMatchObject({
      object: 'list',
      has_more: false,
      data: [
        { object: 'balance_transaction', type: 'fee', amount: -150, source_id: 'pay_credited1' },
        { object: 'balance_transaction', type: 'payment', amount: 10_000, source_id: 'pay_credited1' },
      ],
    });
    const fees = await json<{ data: unknown[] }>(
      await gateway.request('/v1/balance_transactions?type=fee&limit=1'),
    );
    expect(fees.data).toHaveLength(1);
    expect(gateway.peers.ledger.calls.at(-1)?.request).toMatchObject({ page: { limit: 1 }, type: 2 });
  });
});
