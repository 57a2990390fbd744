import { waitFor } from '@sika/testing';
import { api } from './support/api';
import { createMerchant, sikaOps, type CreatedMerchant } from './support/cli';
import { goLive } from './support/go-live';
import { paymentsOf } from './support/payments';
import { startWebhookReceiver, verifySignature } from './support/webhook-receiver';

/**
 * Money out (spec §2.3 to §2.5, §3.3, §4.7 to §4.9): a merchant's balance paid out to its payout account
 * through the running stack, psp-connector and the simulator's payout destinations included.
 */

jest.setTimeout(90_000);

interface PayoutView {
  id: string;
  object: string;
  amount: number;
  status: 'pending' | 'paid' | 'failed';
  method: string;
  destination: { type: string; alias: string; holder_name: string };
  failure_code: string | null;
  paid_at: string | null;
  created_at: string;
  livemode: boolean;
}

interface Balance {
  available: number;
  pending_payout: number;
}

interface PayoutAccountView {
  account: { status: string; alias: string; holder_name: string; default_test_account: boolean } | null;
}

let merchant: CreatedMerchant;
const receiver = startWebhookReceiver();
let keyCount = 0;

beforeAll(async () => {
  merchant = await createMerchant('E2E Payouts', (await receiver).url);
});

afterAll(async () => {
  await (await receiver).close();
});

const balance = async (key = merchant.secret_key): Promise<Balance> =>
  (await api<Balance>(key, 'GET', '/v1/balance')).body;

const createPayout = (body?: Record<string, unknown>, key = merchant.secret_key, idempotencyKey?: string) =>
  api<PayoutView & { error?: { code: string; param?: string } }>(key, 'POST', '/v1/payouts', {
    ...(body && { body }),
    idempotencyKey: idempotencyKey ?? `e2e-payout-${(keyCount += 1)}-${Date.now()}`,
  });

const readPayout = async (id: string, key = merchant.secret_key) =>
  (await api<PayoutView>(key, 'GET', `/v1/payouts/${id}`)).body;

const untilSettled = (id: string): Promise<PayoutView> =>
  waitFor(
    async () => {
      const payout = await readPayout(id);
      return payout.status === 'pending' ? undefined : payout;
    },
    { timeoutMs: 30_000, description: `payout ${id} settled` },
  );

/** Credits the test balance the way merchants earn it: a payment the customer behind …01 pays at once. */
async function earn(amount: number, secretKey = merchant.secret_key): Promise<void> {
  const payments = paymentsOf(secretKey);
  const { id } = await payments.create({ amount, customer_alias: '+225 0000000001' });
  await payments.untilCredited(id);
}

async function webhookOf(payoutId: string, type: string) {
  const hooks = await receiver;
  return waitFor(
    () => hooks.received.find(({ event }) => event.type === type && event.data.object.id === payoutId),
    { timeoutMs: 30_000, description: `${type} of ${payoutId}` },
  );
}

/** Registers a test payout account by its alias and confirms the holder name the scheme gave. */
async function useTestPayoutAccount(
  alias: string,
  merchantId = merchant.merchant_id,
): Promise<PayoutAccountView> {
  const registered = await sikaOps<PayoutAccountView>(
    'payout-account:set',
    '--merchant',
    merchantId,
    '--mode',
    'test',
    '--alias',
    alias,
  );
  expect(registered.account).toMatchObject({ status: 'awaiting_confirmation' });
  return sikaOps<PayoutAccountView>(
    'payout-account:confirm',
    '--merchant',
    merchantId,
    '--mode',
    'test',
    '--holder-name',
    registered.account?.holder_name ?? '',
  );
}

describe('payouts', () => {
  it('pays part of the balance to the default test account: reserved at once, then paid, signed webhook', async () => {
    await earn(20_000);
    const before = await balance();
    const created = await createPayout({ amount: 3_000 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'payout',
      amount: 3_000,
      status: 'pending',
      method: 'manual',
      destination: { type: 'phone', holder_name: 'Marchand Test Sika' },
      failure_code: null,
      paid_at: null,
      livemode: false,
    });
    expect(created.body.destination.alias).not.toContain('0000000100');
    const reserved = await balance();
    expect(reserved.available).toBe(before.available - 3_000);
    expect(reserved.pending_payout).toBe(before.pending_payout + 3_000);

    const paid = await untilSettled(created.body.id);
    expect(paid).toMatchObject({ status: 'paid', failure_code: null });
    expect(Date.parse(paid.paid_at ?? '')).toBeGreaterThanOrEqual(Date.parse(paid.created_at));
    // payouts decides `paid`; the ledger then releases the reservation from that committed decision.
    await waitFor(async () => (await balance()).pending_payout === before.pending_payout, {
      description: 'the paid payout released from pending_payout',
    });

    const hook = await webhookOf(created.body.id, 'payout.paid');
    expect(verifySignature(hook.signatureHeader, hook.rawBody, merchant.webhook_secret)).toBe(true);
    expect(hook.event.data.object).toMatchObject({ id: created.body.id, object: 'payout', status: 'paid' });

    const movements = await api<{ data: Array<{ type: string; amount: number; source_id: string }> }>(
      merchant.secret_key,
      'GET',
      '/v1/balance_transactions?type=payout',
    );
    expect(movements.body.data.filter((movement) => movement.source_id === created.body.id)).toEqual([
      expect.objectContaining({ type: 'payout', amount: -3_000 }),
    ]);
  });

  it('pays out the whole available balance without an amount, then refuses an empty balance', async () => {
    const { available } = await balance();
    expect(available).toBeGreaterThan(0);
    const all = await createPayout();
    expect(all.body).toMatchObject({ status: 'pending', amount: available });
    expect((await balance()).available).toBe(0);
    await untilSettled(all.body.id);

    const empty = await createPayout({ amount: null });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ code: 'balance_insufficient' });
    const more = await createPayout({ amount: 1 });
    expect(more.body.error).toMatchObject({ code: 'balance_insufficient', param: 'amount' });
  });

  it('replays a request with its key, refuses the key for another body, and requires a key', async () => {
    await earn(1_000);
    const first = await createPayout({ amount: 100 }, merchant.secret_key, 'e2e-replay');
    const again = await createPayout({ amount: 100 }, merchant.secret_key, 'e2e-replay');
    expect(again.body.id).toBe(first.body.id);
    const other = await createPayout({ amount: 101 }, merchant.secret_key, 'e2e-replay');
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'idempotency_key_reused' });

    const response = await fetch('http://127.0.0.1:8080/v1/payouts', {
      method: 'POST',
      headers: { Authorization: `Bearer ${merchant.secret_key}` },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({
      code: 'parameter_missing',
      param: 'Idempotency-Key',
    });
  });

  it.each([
    ['+225 0000000106', 'account_frozen'],
    ['+225 0000000123', 'no_account'],
    ['+225 0000000108', 'bank_unavailable'],
  ])(
    'a failing destination (%s): failed with %s, the amount back with payout_reversal',
    async (alias, code) => {
      const other = await createMerchant(`E2E Payouts ${code}`, (await receiver).url);
      const account = await useTestPayoutAccount(alias, other.merchant_id);
      expect(account.account).toMatchObject({ status: 'verified', default_test_account: false });
      await earn(2_000, other.secret_key);
      const { available } = await balance(other.secret_key);

      const created = await createPayout({ amount: 500 }, other.secret_key);
      expect(created.body.status).toBe('pending');
      const failed = await waitFor(
        async () => {
          const payout = await readPayout(created.body.id, other.secret_key);
          return payout.status === 'failed' ? payout : undefined;
        },
        { timeoutMs: 30_000, description: 'the failed payout' },
      );
      expect(failed).toMatchObject({ failure_code: code, paid_at: null });
      // The ledger returns the amount from payouts' committed failure, just after it.
      await waitFor(async () => (await balance(other.secret_key)).pending_payout === 0, {
        description: 'the failed payout returned to available',
      });
      expect(await balance(other.secret_key)).toMatchObject({ available, pending_payout: 0 });
      const hook = await webhookOf(created.body.id, 'payout.failed');
      expect(verifySignature(hook.signatureHeader, hook.rawBody, other.webhook_secret)).toBe(true);
      const movements = await api<{ data: Array<{ type: string; amount: number; source_id: string }> }>(
        other.secret_key,
        'GET',
        '/v1/balance_transactions',
      );
      expect(
        movements.body.data
          .filter((movement) => movement.source_id === created.body.id)
          .map((movement) => [movement.type, movement.amount]),
      ).toEqual([
        ['payout_reversal', 500],
        ['payout', -500],
      ]);
    },
  );

  it('refuses to register an alias the scheme does not know', async () => {
    await expect(
      sikaOps(
        'payout-account:set',
        '--merchant',
        merchant.merchant_id,
        '--mode',
        'test',
        '--alias',
        '+225 0000000199',
      ),
    ).rejects.toThrow(/alias_unknown/);
    const shown = await sikaOps<PayoutAccountView>(
      'payout-account:show',
      '--merchant',
      merchant.merchant_id,
      '--mode',
      'test',
    );
    expect(shown.account).toMatchObject({ default_test_account: true, holder_name: 'Marchand Test Sika' });
  });

  it('refuses live payouts without a verified payout account: 403 payout_account_missing', async () => {
    // Going live needs a verified live payout account; replacing it by one not confirmed yet leaves none.
    const liveKey = await goLive(merchant.merchant_id);
    const replaced = await sikaOps<PayoutAccountView>(
      'payout-account:set',
      '--merchant',
      merchant.merchant_id,
      '--mode',
      'live',
      '--alias',
      '+225 0000000106',
    );
    expect(replaced.account).toMatchObject({ status: 'awaiting_confirmation' });
    const refused = await createPayout({ amount: 1 }, liveKey);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'payout_account_missing' });
    const live = await api<{ data: PayoutView[] }>(liveKey, 'GET', '/v1/payouts');
    expect(live.body.data).toEqual([]);
  });

  it('lists most recent first with status filter and paging; another merchant sees none of it', async () => {
    const all = await api<{ data: PayoutView[]; has_more: boolean }>(
      merchant.secret_key,
      'GET',
      '/v1/payouts',
    );
    expect(all.body.data.length).toBeGreaterThanOrEqual(3);
    const times = all.body.data.map((payout) => Date.parse(payout.created_at));
    expect(times).toEqual([...times].sort((left, right) => right - left));

    const first = await api<{ data: PayoutView[]; has_more: boolean }>(
      merchant.secret_key,
      'GET',
      '/v1/payouts?limit=1',
    );
    expect(first.body).toMatchObject({ has_more: true });
    const second = await api<{ data: PayoutView[] }>(
      merchant.secret_key,
      'GET',
      `/v1/payouts?limit=1&starting_after=${first.body.data[0]?.id}`,
    );
    expect(second.body.data[0]?.id).toBe(all.body.data[1]?.id);

    const paid = await api<{ data: PayoutView[] }>(merchant.secret_key, 'GET', '/v1/payouts?status=paid');
    expect(paid.body.data.every((payout) => payout.status === 'paid')).toBe(true);

    const stranger = await createMerchant('E2E Payouts Stranger');
    const theirs = await api<{ error: { code: string } }>(
      stranger.secret_key,
      'GET',
      `/v1/payouts/${all.body.data[0]?.id}`,
    );
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('resource_missing');
    expect((await api<{ data: unknown[] }>(stranger.secret_key, 'GET', '/v1/payouts')).body.data).toEqual([]);
  });

  it('never makes a balance negative under concurrent payouts', async () => {
    const busy = await createMerchant('E2E Payouts Concurrent');
    await earn(10_000, busy.secret_key);
    const { available } = await balance(busy.secret_key);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => createPayout({ amount: 1_500 }, busy.secret_key)),
    );
    const made = answers.filter((answer) => answer.status === 200);
    expect(made).toHaveLength(Math.floor(available / 1_500));
    for (const answer of answers.filter((other) => other.status !== 200)) {
      expect(answer.body.error).toMatchObject({ code: 'balance_insufficient' });
    }
    const after = await balance(busy.secret_key);
    expect(after.available).toBe(available - made.length * 1_500);
    expect(after.available).toBeGreaterThanOrEqual(0);
  });
});
