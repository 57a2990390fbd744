import { waitFor } from '@sika/testing';
import { api } from './support/api';
import { createMerchant, sikaOps, type CreatedMerchant } from './support/cli';
import { paymentsOf, submitOnHostedPage, type PaymentView } from './support/payments';
import { startWebhookReceiver } from './support/webhook-receiver';

/**
 * The test aliases of spec §1 and Sika's additions, each through the running stack and the simulator over
 * HTTP: what the payment, its attempts and the merchant's webhooks say.
 */

jest.setTimeout(150_000);

let merchant: CreatedMerchant;
const receiver = startWebhookReceiver();

beforeAll(async () => {
  merchant = await createMerchant('E2E Test Aliases', (await receiver).url);
});

afterAll(async () => (await receiver).close());

const payments = () => paymentsOf(merchant.secret_key);
const createPayment = (body: Record<string, unknown>) => payments().create({ amount: 2_500, ...body });
const until: ReturnType<typeof paymentsOf>['until'] = (...args) => payments().until(...args);

/**
 * Waits for the payment's webhooks to include each of `expected`, then checks there is exactly one event per
 * status change. Deliveries are independent, so their order of arrival is not the order of the changes.
 */
async function expectEvents(id: string, expected: string[], timeoutMs = 20_000): Promise<void> {
  const hooks = await receiver;
  const types = () =>
    hooks.received.filter(({ event }) => event.data.object.id === id).map(({ event }) => event.type);
  await waitFor(() => expected.every((type) => types().includes(type)), {
    timeoutMs,
    description: `${expected.join(', ')} for ${id}`,
  });
  expect(types().sort()).toEqual([...expected].sort());
}

describe('the test aliases, end to end', () => {
  // …03 waits for the payment's own deadline: its clock runs while the other cases do.
  let ignored: Promise<PaymentView>;
  beforeAll(() => {
    ignored = createPayment({
      customer_alias: '+225 0000000003',
      expires_at: new Date(Date.now() + 65_000).toISOString(),
    });
  });

  /** The operator CLI, as a dashboard would: the customer of alias …04 pays now, at test mode's bank. */
  const simulatePayment = (id: string) =>
    sikaOps<{ payment_id: string; statut: string }>('payment:simulate', '--payment', id);

  it('…01 accepts and pays at once: succeeded', async () => {
    const { id } = await createPayment({ customer_alias: '+225 0000000001' });
    const paid = await until(id, (payment) => payment.status === 'succeeded');
    expect(paid.attempts).toMatchObject([{ status: 'succeeded', failure_code: null }]);
    await expectEvents(id, ['payment.request_sent', 'payment.succeeded']);
  });

  it('…02 refuses: request_sent while another attempt can settle it, declined after the fifth refusal', async () => {
    const created = await createPayment({ customer_alias: '+225 0000000002' });
    const { id } = created;
    const refused = await until(id, (payment) => payment.attempts[0]?.status === 'declined');
    expect(refused.status).toBe('request_sent');
    expect(refused.attempts[0]?.failure_code).toBe('payer_declined');

    for (let attempt = 2; attempt <= 5; attempt++) {
      const response = await submitOnHostedPage(created, '+225 00 00 00 00 02');
      expect(response.status).toBe(303);
      const after = await until(id, (payment) => payment.attempts[attempt - 1]?.status === 'declined');
      expect(after.status).toBe(attempt < 5 ? 'request_sent' : 'declined');
    }
    await expectEvents(id, ['payment.request_sent', 'payment.declined']);
  });

  it('…04 on delivery: accepted_deferred once the customer accepts, succeeded and credited when triggered', async () => {
    const { id } = await createPayment({
      customer_alias: '+225 0000000004',
      mode: 'on_delivery',
      expires_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    const accepted = await until(id, (payment) => payment.status === 'accepted_deferred');
    expect(accepted.attempts).toMatchObject([{ status: 'accepted_deferred', failure_code: null }]);
    await expectEvents(id, ['payment.request_sent', 'payment.accepted_deferred']);

    await expect(simulatePayment(id)).resolves.toMatchObject({ payment_id: id, statut: 'IRREVOCABLE' });
    const paid = await until(id, (payment) => payment.status === 'succeeded');
    expect(paid.net_amount).toBe(2_475);
    await expectEvents(id, ['payment.request_sent', 'payment.accepted_deferred', 'payment.succeeded']);
  });

  it('…04 on an immediate payment: waits at the bank, pays when triggered before the deadline', async () => {
    const { id } = await createPayment({ customer_alias: '+225 0000000004' });
    await until(id, (payment) => payment.status === 'request_sent');
    await simulatePayment(id);
    await until(id, (payment) => payment.status === 'succeeded');
    await expectEvents(id, ['payment.request_sent', 'payment.succeeded']);
  });

  it('…05 is unknown: the creation answers 422 alias_unknown and leaves nothing; on the hosted page, another alias may follow', async () => {
    const count = async () =>
      (await api<{ data: unknown[] }>(merchant.secret_key, 'GET', '/v1/payments?limit=100')).body.data.length;
    const before = await count();
    const refused = await api<{ error: { code: string; param: string } }>(
      merchant.secret_key,
      'POST',
      '/v1/payments',
      {
        body: { amount: 2_500, customer_alias: '+225 0000000005', return_url: 'https://shop.example/thanks' },
        idempotencyKey: 'order-05',
      },
    );
    expect([refused.status, refused.body.error]).toMatchObject([
      422,
      { code: 'alias_unknown', param: 'customer_alias' },
    ]);
    expect(await count()).toBe(before);

    const created = await createPayment({});
    const { id } = created;
    expect((await submitOnHostedPage(created, '+225 0000000005')).status).toBe(422);
    const unknown = await until(id, (payment) => payment.attempts[0]?.status === 'failed');
    expect(unknown.status).toBe('created');
    expect(unknown.attempts[0]?.failure_code).toBe('alias_unknown');
    const page = await (await fetch(created.checkout_url)).text();
    expect(page).toContain('<dt>Marchand</dt><dd>E2E Test Aliases</dd>');
    expect(page).toMatch(/name="customer_alias"/);

    expect((await submitOnHostedPage(created, '+225 0000000001')).status).toBe(303);
    await until(id, (payment) => payment.status === 'succeeded');
  });

  it("…06 (Sika's addition) the customer's bank fails: failed and payment.failed", async () => {
    const created = await createPayment({ customer_alias: '+225 0000000006' });
    const { id } = created;
    const failed = await until(id, (payment) => payment.status === 'failed');
    expect(failed.attempts).toMatchObject([{ status: 'failed', failure_code: 'bank_failure' }]);
    await expectEvents(id, ['payment.request_sent', 'payment.failed']);
    const page = await (await fetch(created.checkout_url)).text();
    expect(page).toContain('Le paiement n’a pas abouti');
  });

  it('…04 on delivery, accepted but never triggered: expired at expires_at (moved to now by the test helper)', async () => {
    const { id } = await createPayment({
      customer_alias: '+225 0000000004',
      mode: 'on_delivery',
      expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    });
    await until(id, (payment) => payment.status === 'accepted_deferred');
    const expired = await api<PaymentView>(
      merchant.secret_key,
      'POST',
      `/v1/test_helpers/payments/${id}/expire`,
    );
    expect(expired.body.status).toBe('expired');
    await expectEvents(id, ['payment.request_sent', 'payment.accepted_deferred', 'payment.expired']);
  });

  it('…04 on delivery with less than 24 hours left: refused at creation, 400 naming expires_at', async () => {
    const refused = await api<{ error: { code: string; param: string } }>(
      merchant.secret_key,
      'POST',
      '/v1/payments',
      {
        body: {
          amount: 2_500,
          mode: 'on_delivery',
          customer_alias: '+225 0000000004',
          expires_at: new Date(Date.now() + 23 * 3_600_000).toISOString(),
          return_url: 'https://shop.example/thanks',
        },
      },
    );
    expect([refused.status, refused.body.error]).toMatchObject([
      400,
      { code: 'parameter_invalid', param: 'expires_at' },
    ]);
  });

  it('…03 ignores: the request runs out with the payment, which expires at expires_at', async () => {
    const { id, expires_at: expiresAt } = await ignored;
    const expired = await until(id, (payment) => payment.status === 'expired', 90_000);
    expect(Date.now()).toBeGreaterThanOrEqual(new Date(expiresAt).getTime());
    await expectEvents(id, ['payment.request_sent', 'payment.expired']);
    // The bank's own deadline was the payment's: its expiry reaches the attempt too.
    await until(id, (payment) => payment.attempts[0]?.status === 'expired', 20_000);
    expect(expired.attempts).toHaveLength(1);
  });
});
