import { waitFor } from '@sika/testing';
import { api } from './support/api';
import { createMerchant, type CreatedMerchant } from './support/cli';
import { CHECKOUT_URL } from './support/environment';
import { startWebhookReceiver } from './support/webhook-receiver';

/**
 * The test aliases of spec §1 and Sika's additions, each through the running stack and the simulator over
 * HTTP: what the payment, its attempts and the merchant's webhooks say.
 */

jest.setTimeout(150_000);

interface Attempt {
  status: string;
  failure_code: string | null;
}

interface Payment {
  id: string;
  status: string;
  expires_at: string;
  attempts: Attempt[];
}

const RETURN_URL = 'https://shop.example/thanks';

let merchant: CreatedMerchant;
const receiver = startWebhookReceiver();

beforeAll(async () => {
  merchant = createMerchant('E2E Test Aliases', (await receiver).url);
});

afterAll(async () => (await receiver).close());

async function createPayment(body: Record<string, unknown>): Promise<Payment> {
  const created = await api<Payment>(merchant.secret_key, 'POST', '/v1/payments', {
    body: { amount: 2_500, return_url: RETURN_URL, ...body },
  });
  expect(created.status).toBe(200);
  return created.body;
}

const read = async (id: string): Promise<Payment> =>
  (await api<Payment>(merchant.secret_key, 'GET', `/v1/payments/${id}`)).body;

function until(id: string, accept: (payment: Payment) => boolean, timeoutMs = 20_000): Promise<Payment> {
  return waitFor(
    async () => {
      const payment = await read(id);
      return accept(payment) ? payment : undefined;
    },
    { timeoutMs, description: `payment ${id}` },
  );
}

async function eventTypes(id: string, last: string, timeoutMs = 20_000): Promise<string[]> {
  const hooks = await receiver;
  const types = () =>
    hooks.received.filter(({ event }) => event.data.object.id === id).map(({ event }) => event.type);
  await waitFor(() => types().includes(last), { timeoutMs, description: `${last} for ${id}` });
  return types();
}

/** The customer enters an alias on the hosted page, as its form posts it. */
function submitOnHostedPage(id: string, alias: string): Promise<Response> {
  return fetch(`${CHECKOUT_URL}/pay/${id}/attempts`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: CHECKOUT_URL },
    body: new URLSearchParams({ customer_alias: alias }).toString(),
  });
}

describe('the test aliases, end to end', () => {
  // …03 waits for the payment's own deadline: its clock runs while the other cases do.
  let ignored: Promise<Payment>;
  beforeAll(() => {
    ignored = createPayment({
      customer_alias: '+225 0000000003',
      expires_at: new Date(Date.now() + 65_000).toISOString(),
    });
  });

  it('…01 accepts and pays at once: succeeded', async () => {
    const { id } = await createPayment({ customer_alias: '+225 0000000001' });
    const paid = await until(id, (payment) => payment.status === 'succeeded');
    expect(paid.attempts).toMatchObject([{ status: 'succeeded', failure_code: null }]);
    expect(await eventTypes(id, 'payment.succeeded')).toEqual(['payment.request_sent', 'payment.succeeded']);
  });

  it('…02 refuses: request_sent while another attempt can settle it, declined after the fifth refusal', async () => {
    const { id } = await createPayment({ customer_alias: '+225 0000000002' });
    const refused = await until(id, (payment) => payment.attempts[0]?.status === 'declined');
    expect(refused.status).toBe('request_sent');
    expect(refused.attempts[0]?.failure_code).toBe('payer_declined');

    for (let attempt = 2; attempt <= 5; attempt++) {
      const response = await submitOnHostedPage(id, '+225 00 00 00 00 02');
      expect(response.status).toBe(303);
      const after = await until(id, (payment) => payment.attempts[attempt - 1]?.status === 'declined');
      expect(after.status).toBe(attempt < 5 ? 'request_sent' : 'declined');
    }
    expect(await eventTypes(id, 'payment.declined')).toEqual(['payment.request_sent', 'payment.declined']);
  });

  it('…05 is unknown: the payment is created, its attempt carries alias_unknown, another alias may follow', async () => {
    const { id } = await createPayment({ customer_alias: '+225 0000000005' });
    const unknown = await until(id, (payment) => payment.attempts[0]?.status === 'failed');
    expect(unknown.status).toBe('created');
    expect(unknown.attempts[0]?.failure_code).toBe('alias_unknown');

    const page = await (await fetch(`${CHECKOUT_URL}/pay/${id}`)).text();
    expect(page).toContain('n’est connu d’aucune banque');
    expect(page).toMatch(/name="customer_alias"/);

    expect((await submitOnHostedPage(id, '+225 0000000005')).status).toBe(422);
    expect((await submitOnHostedPage(id, '+225 0000000001')).status).toBe(303);
    await until(id, (payment) => payment.status === 'succeeded');
  });

  it("…06 (Sika's addition) the customer's bank fails: failed and payment.failed", async () => {
    const { id } = await createPayment({ customer_alias: '+225 0000000006' });
    const failed = await until(id, (payment) => payment.status === 'failed');
    expect(failed.attempts).toMatchObject([{ status: 'failed', failure_code: 'bank_failure' }]);
    expect(await eventTypes(id, 'payment.failed')).toEqual(['payment.request_sent', 'payment.failed']);
    const page = await (await fetch(`${CHECKOUT_URL}/pay/${id}`)).text();
    expect(page).toContain('Le paiement n’a pas abouti');
  });

  it('…03 ignores: the request runs out with the payment, which expires at expires_at', async () => {
    const { id, expires_at: expiresAt } = await ignored;
    const expired = await until(id, (payment) => payment.status === 'expired', 90_000);
    expect(Date.now()).toBeGreaterThanOrEqual(new Date(expiresAt).getTime());
    expect(await eventTypes(id, 'payment.expired')).toEqual(['payment.request_sent', 'payment.expired']);
    // The bank's own deadline was the payment's: its expiry reaches the attempt too.
    await until(id, (payment) => payment.attempts[0]?.status === 'expired', 20_000);
    expect(expired.attempts).toHaveLength(1);
  });
});
