import { randomUUID } from 'node:crypto';
import { waitFor } from '@sika/testing';
import { api } from './support/api';
import { createMerchant } from './support/cli';
import { startWebhookReceiver, verifySignature } from './support/webhook-receiver';

jest.setTimeout(60_000);

type Payment = {
  id: string;
  status: string;
  amount: number;
  fee_amount: number | null;
  net_amount: number | null;
  payer_alias_masked: string | null;
  attempts: Array<{ tx_id: string; duplicate: boolean }>;
  metadata: Record<string, string>;
  checkout_url: string;
};

describe('a test-mode payment paid at once by the simulator', () => {
  const receiver = startWebhookReceiver();
  afterAll(async () => (await receiver).close());

  it('goes from creation to the balance and two signed webhooks', async () => {
    const hooks = await receiver;
    const merchant = await createMerchant('E2E Boutique', hooks.url);
    expect(merchant.secret_key).toMatch(/^sk_test_[A-Za-z0-9]+$/);
    expect(merchant.webhook_secret).toMatch(/^whsec_[A-Za-z0-9]+$/);

    const idempotencyKey = randomUUID();
    const body = {
      amount: 10_000,
      reference: 'order-1001',
      description: 'Two baskets of mangoes',
      customer_alias: '+225 0000000001',
      return_url: 'https://shop.example/return',
      metadata: { order_id: '1001' },
    };
    const created = await api<Payment>(merchant.secret_key, 'POST', '/v1/payments', { body, idempotencyKey });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'payment',
      status: 'created',
      amount: 10_000,
      currency: 'XOF',
    });
    // The page's address carries a secret token besides the id: the id alone opens nothing.
    expect(created.body.checkout_url).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:8081/pay/${created.body.id}/[A-Za-z0-9_-]{32}$`),
    );

    const paid = await waitFor(
      async () => {
        const read = await api<Payment>(merchant.secret_key, 'GET', `/v1/payments/${created.body.id}`);
        return read.body.status === 'succeeded' ? read.body : undefined;
      },
      { timeoutMs: 20_000, description: 'payment succeeded' },
    );
    expect(paid.fee_amount).toBe(100);
    expect(paid.net_amount).toBe(9_900);
    expect(paid.attempts).toHaveLength(1);
    expect(paid.attempts[0]?.duplicate).toBe(false);
    expect(paid.payer_alias_masked).toMatch(/\*/);
    expect(JSON.stringify(paid)).not.toContain('0000000001');

    const deliveries = await waitFor(
      () => {
        const types = new Set(hooks.received.map(({ event }) => event.type));
        return types.has('payment.request_sent') && types.has('payment.succeeded')
          ? hooks.received
          : undefined;
      },
      { timeoutMs: 20_000, description: 'payment.request_sent and payment.succeeded webhooks' },
    );
    for (const delivery of deliveries) {
      expect(verifySignature(delivery.signatureHeader, delivery.rawBody, merchant.webhook_secret)).toBe(true);
      expect(delivery.event.id).toMatch(/^evt_[A-Za-z0-9]+$/);
      expect(delivery.event.data.object.id).toBe(paid.id);
    }
    const succeeded = deliveries.find(({ event }) => event.type === 'payment.succeeded');
    expect(succeeded?.event).toMatchObject({ object: 'event', livemode: false });
    expect((succeeded?.event.data.object as unknown as Payment).metadata).toEqual({ order_id: '1001' });
    expect(verifySignature(succeeded?.signatureHeader, succeeded?.rawBody ?? '', 'whsec_wrong')).toBe(false);

    // The ledger credits from the same committed event the webhook carries: a merchant who has received
    // payment.succeeded finds the credit, normally at once, at the latest within seconds (docs/integrating.md).
    const movements = await waitFor(
      async () => {
        const page = await api<{ data: Array<{ type: string; amount: number; source_id: string }> }>(
          merchant.secret_key,
          'GET',
          '/v1/balance_transactions',
        );
        return page.body.data.length === 2 ? page.body.data : undefined;
      },
      { timeoutMs: 5_000, description: 'the credit after payment.succeeded' },
    );
    expect(movements.map(({ type, amount, source_id }) => ({ type, amount, source_id }))).toEqual(
      expect.arrayContaining([
        { type: 'payment', amount: 10_000, source_id: paid.id },
        { type: 'fee', amount: -100, source_id: paid.id },
      ]),
    );
    const balance = await api(merchant.secret_key, 'GET', '/v1/balance');
    expect(balance.body).toEqual({
      object: 'balance',
      available: 9_900,
      pending_payout: 0,
      currency: 'XOF',
      livemode: false,
    });

    const replayed = await api<Payment>(merchant.secret_key, 'POST', '/v1/payments', {
      body,
      idempotencyKey,
    });
    expect(replayed.status).toBe(200);
    expect(replayed.body.id).toBe(created.body.id);

    const reused = await api<{ error: { code: string } }>(merchant.secret_key, 'POST', '/v1/payments', {
      body: { ...body, amount: 10_001 },
      idempotencyKey,
    });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency_key_reused');

    const list = await api<{ data: Payment[] }>(merchant.secret_key, 'GET', '/v1/payments');
    expect(list.body.data.map(({ id }) => id)).toEqual([paid.id]);
  });
});

describe('missed webhooks, recovered with the events API', () => {
  const receiver = startWebhookReceiver();
  afterAll(async () => (await receiver).close());

  type Event = { id: string; type: string; created_at: string; data: { object: { id: string } } };
  type EventList = { object: string; data: Event[]; has_more: boolean };

  it('reads back each delivered event by id, byte for byte, and lists it with each filter', async () => {
    const hooks = await receiver;
    const merchant = await createMerchant('E2E Events', hooks.url);
    const key = merchant.secret_key;
    const create = async (body: Record<string, unknown>) =>
      (
        await api<Payment>(key, 'POST', '/v1/payments', {
          body: { return_url: 'https://shop.example/return', ...body },
          idempotencyKey: randomUUID(),
        })
      ).body;
    const paid = await create({ amount: 2_000, customer_alias: '+225 0000000001' });
    const canceled = await create({ amount: 3_000 });
    await api(key, 'POST', `/v1/payments/${canceled.id}/cancel`);

    const delivered = await waitFor(() => (hooks.received.length >= 3 ? hooks.received : undefined), {
      timeoutMs: 20_000,
      description: 'three webhooks: request_sent, succeeded, canceled',
    });
    for (const delivery of delivered) {
      const read = await api<Event>(key, 'GET', `/v1/events/${delivery.event.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(JSON.parse(delivery.rawBody));
    }

    const listed = async (query: string) => {
      const page = await api<EventList>(key, 'GET', `/v1/events${query}`);
      expect(page.status).toBe(200);
      expect(page.body.object).toBe('list');
      return page.body.data;
    };
    const all = await listed('');
    expect(all.map(({ id }) => id).sort()).toEqual(delivered.map(({ event }) => event.id).sort());
    const times = all.map(({ created_at }) => created_at);
    expect(times).toEqual([...times].sort().reverse());

    const succeeded = all.find(({ type }) => type === 'payment.succeeded')!;
    expect((await listed('?type=payment.succeeded')).map(({ id }) => id)).toEqual([succeeded.id]);
    expect((await listed(`?object_id=${paid.id}`)).map(({ type }) => type)).toEqual([
      'payment.succeeded',
      'payment.request_sent',
    ]);
    expect((await listed(`?object_id=${canceled.id}`)).map(({ type }) => type)).toEqual(['payment.canceled']);
    const from = await listed(`?created_from=${succeeded.created_at}`);
    expect(from.map(({ id }) => id)).toContain(succeeded.id);
    expect(from.every(({ created_at }) => created_at >= succeeded.created_at)).toBe(true);
    const to = await listed(`?created_to=${succeeded.created_at}`);
    expect(to.map(({ id }) => id)).not.toContain(succeeded.id);
    expect(to.every(({ created_at }) => created_at < succeeded.created_at)).toBe(true);
    const [first] = await listed('?limit=1');
    expect(first?.id).toBe(all[0]?.id);
    expect((await listed(`?limit=100&starting_after=${all[0]?.id}`)).map(({ id }) => id)).toEqual(
      all.slice(1).map(({ id }) => id),
    );

    const refused = await api<{ error: { code: string; param: string } }>(key, 'GET', '/v1/events?type=nope');
    expect({ status: refused.status, ...refused.body.error }).toMatchObject({
      status: 400,
      code: 'parameter_invalid',
      param: 'type',
    });
    const stranger = await createMerchant('E2E Events Stranger');
    const hidden = await api<{ error: { code: string } }>(
      stranger.secret_key,
      'GET',
      `/v1/events/${succeeded.id}`,
    );
    expect({ status: hidden.status, code: hidden.body.error.code }).toEqual({
      status: 404,
      code: 'resource_missing',
    });
  });
});
