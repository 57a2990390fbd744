import { ledgerV1 } from '@sika/contracts';
import { createGrpcClient, type GrpcClient } from '@sika/platform';
import { waitFor } from '@sika/testing';
import { api } from './support/api';
import { createMerchant, sikaOps, type CreatedMerchant } from './support/cli';
import { stackGrpcTls } from './support/grpc-identity';
import { paymentsOf, submitOnHostedPage } from './support/payments';
import { startWebhookReceiver } from './support/webhook-receiver';

/**
 * Money a customer pays by mistake goes back to them (spec §3.2 rules 3 and 4), through the running stack:
 * booked to Sika's refunds payable, never to the merchant's balance, returned whole by PI-SPI's fund return.
 */

jest.setTimeout(90_000);

const LEDGER_GRPC_ADDRESS = '127.0.0.1:8054';

let merchant: CreatedMerchant;
let ledger: GrpcClient<ledgerV1.LedgerServiceClient>;
const receiver = startWebhookReceiver();

beforeAll(async () => {
  merchant = await createMerchant('E2E Refunds', (await receiver).url);
  // GetRefundsPayable is an operator's read: the ledger allows it to the CLI's identity.
  ledger = createGrpcClient(ledgerV1.LedgerServiceClient, LEDGER_GRPC_ADDRESS, {
    deadlineMs: 10_000,
    tls: stackGrpcTls('cli'),
  });
});

afterAll(async () => {
  ledger.close();
  await (await receiver).close();
});

const payments = () => paymentsOf(merchant.secret_key);
const createPayment = (body: Record<string, unknown> = {}) => payments().create({ amount: 5_000, ...body });
const until: ReturnType<typeof paymentsOf>['until'] = (...args) => payments().until(...args);

const simulatePayment = (id: string) => sikaOps('payment:simulate', '--payment', id);

async function available(): Promise<number> {
  const balance = await api<{ available: number }>(merchant.secret_key, 'GET', '/v1/balance');
  return balance.body.available;
}

const refundsPayable = async (): Promise<bigint> =>
  (await ledger.getRefundsPayable({ livemode: false })).amount;

/**
 * The ledger applies the decisions payments and psp-connector committed from their events, on queues of its
 * own: what it shows follows them within moments.
 */
const settlesTo = <T>(read: () => Promise<T>, expected: T) =>
  waitFor(async () => (await read()) === expected, {
    timeoutMs: 10_000,
    description: `the books at ${String(expected)}`,
  });

async function eventTypes(id: string): Promise<string[]> {
  const hooks = await receiver;
  return hooks.received.filter(({ event }) => event.data.object.id === id).map(({ event }) => event.type);
}

describe('money paid by mistake goes back to the customer', () => {
  it('a duplicate: one credit, the second attempt duplicate and refunded, payment.duplicate_refunded once', async () => {
    const before = await available();
    const created = await createPayment();
    const { id } = created;
    expect((await submitOnHostedPage(created, '+225 0000000004')).status).toBe(303);
    await until(id, (payment) => payment.attempts[0]?.status === 'sent');
    expect((await submitOnHostedPage(created, '+225 0000000001')).status).toBe(303);
    await until(id, (payment) => payment.status === 'succeeded');

    await simulatePayment(id);
    const refunded = await until(id, (payment) => payment.attempts[0]?.refund_status === 'sent');
    expect(refunded.status).toBe('succeeded');
    expect(refunded.attempts).toMatchObject([
      { status: 'succeeded', duplicate: true, refund_status: 'sent' },
      { status: 'succeeded', duplicate: false, refund_status: null },
    ]);
    await settlesTo(available, before + 4_950);
    await waitFor(async () => (await eventTypes(id)).includes('payment.duplicate_refunded'));
    expect((await eventTypes(id)).sort()).toEqual(
      ['payment.request_sent', 'payment.succeeded', 'payment.duplicate_refunded'].sort(),
    );
    await settlesTo(refundsPayable, 0n);
  });

  it('paid after the merchant canceled: returned, never credited', async () => {
    const before = await available();
    const { id } = await createPayment({ customer_alias: '+225 0000000004' });
    await until(id, (payment) => payment.status === 'request_sent');
    const canceled = await api<{ status: string }>(merchant.secret_key, 'POST', `/v1/payments/${id}/cancel`);
    expect(canceled.body.status).toBe('canceled');

    await simulatePayment(id);
    const refunded = await until(id, (payment) => payment.attempts[0]?.refund_status === 'sent');
    expect(refunded.status).toBe('canceled');
    expect(refunded.attempts[0]).toMatchObject({ status: 'succeeded', duplicate: false });
    expect(await available()).toBe(before);
    await settlesTo(refundsPayable, 0n);
  });

  it('another amount than asked (alias …08 pays one franc short): returned, never credited', async () => {
    const before = await available();
    const { id } = await createPayment({ customer_alias: '+225 0000000008' });
    const refunded = await until(id, (payment) => payment.attempts[0]?.refund_status === 'sent');
    expect(refunded.status).toBe('request_sent');
    expect(refunded.attempts[0]).toMatchObject({ status: 'failed', failure_code: 'amount_mismatch' });
    expect(await available()).toBe(before);
    await settlesTo(refundsPayable, 0n);
  });

  it("a return the customer's bank rejects (alias …07 rejects the first) is sent again until it goes", async () => {
    const { id } = await createPayment({ customer_alias: '+225 0000000007' });
    await until(id, (payment) => payment.status === 'request_sent');
    await api(merchant.secret_key, 'POST', `/v1/payments/${id}/cancel`);
    await simulatePayment(id);
    await until(id, (payment) => payment.attempts[0]?.refund_status === 'pending');
    const refunded = await until(id, (payment) => payment.attempts[0]?.refund_status === 'sent');
    expect(refunded.status).toBe('canceled');
    await settlesTo(refundsPayable, 0n);
  });
});
