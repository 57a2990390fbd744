import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@sika/testing';
import { api } from '../support/api';
import { createMerchant, sika, type CreatedMerchant } from '../support/cli';
import { assertBuilt, assertPortsFree, recreateDatabase } from '../support/stack-preparation';
import { startWebhookReceiver, verifySignature } from '../support/webhook-receiver';
import { SupervisedStack } from './support/supervised-stack';

/**
 * Architecture invariant 7, under fire: paid payments and payouts are created through the public API while
 * Sika's services are killed with SIGKILL at random and started again. Afterwards nothing acknowledged is
 * lost or doubled, the balance is exact to the franc, every status change was delivered as one event with
 * one `evt_` id, and the operator's audit finds no violation. The simulator plays the customers' banks,
 * outside Sika: it is not killed.
 */

const FAULTS_ENV = { SIKA_DB_NAME: 'sika_faults' } as const;
const VICTIMS = [
  'gateway',
  'merchants',
  'payments',
  'psp-connector',
  'ledger',
  'payouts',
  'webhook-dispatcher',
];
/** Kills, one after another: each waits for the restarted service to be ready before the next. */
const KILLS = 8;
const PAYMENT_WORKERS = 3;
const PAYOUT_EVERY_MS = 2_500;
const PAYOUT_AMOUNT = 500;
const PAYING_ALIAS = '+225 0000000001';
/** A client retries until this long after the chaos, as a merchant's server would with the same key. */
const RETRY_FOR_MS = 150_000;
const SETTLE_MS = 180_000;

jest.setTimeout(3 * SETTLE_MS + RETRY_FOR_MS + 120_000);

interface Payment {
  id: string;
  status: string;
  amount: number;
  net_amount: number | null;
}
interface Payout {
  id: string;
  status: 'pending' | 'paid' | 'failed';
  amount: number;
}
interface ApiError {
  error: { code: string };
}

const random = (min: number, max: number) => min + Math.random() * (max - min);

describe('money in and out while services are killed at random', () => {
  const stack = new SupervisedStack(FAULTS_ENV);
  const receiver = startWebhookReceiver();
  let merchant: CreatedMerchant;
  const kills: string[] = [];
  /** Idempotency key → every id an answer 200 gave for it (must be one). */
  const acknowledged = { payments: new Map<string, Set<string>>(), payouts: new Map<string, Set<string>>() };
  const unexpected: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    await assertPortsFree();
    await recreateDatabase(FAULTS_ENV);
    await stack.start();
    merchant = createMerchant('Faults', (await receiver).url);
  });

  afterAll(async () => {
    await stack.stop();
    await (await receiver).close();
  });

  afterEach(() => {
    const state = expect.getState();
    if (state.assertionCalls !== state.numPassingAsserts) {
      process.stderr.write(`kills: ${kills.join(', ')}\nlast lines:\n${stack.output.all().join('\n')}\n`);
    }
  });

  /**
   * One creation, retried with the same key through every failure (a refused connection, a 5xx, a 429, a key
   * still in use) until answered; the id of a 200 is recorded under its key. Any other 4xx ends it, recorded
   * if unexpected.
   */
  async function createUntilAnswered(
    kind: 'payments' | 'payouts',
    key: string,
    body: Record<string, unknown>,
    expectedRefusals: readonly string[] = [],
  ): Promise<void> {
    const giveUpAt = Date.now() + RETRY_FOR_MS;
    while (Date.now() < giveUpAt) {
      try {
        const answer = await api<{ id: string } & Partial<ApiError>>(
          merchant.secret_key,
          'POST',
          `/v1/${kind}`,
          { body, idempotencyKey: key },
        );
        if (answer.status === 200) {
          const ids = acknowledged[kind].get(key) ?? new Set<string>();
          ids.add(answer.body.id);
          acknowledged[kind].set(key, ids);
          return;
        }
        const code = answer.body.error?.code ?? String(answer.status);
        // Still running (its first try outlived the answer the client got): retry later, as the error says.
        const retryable = answer.status >= 500 || answer.status === 429 || code === 'idempotency_key_in_use';
        if (!retryable) {
          if (!expectedRefusals.includes(code)) unexpected.push(`${kind} ${key}: ${answer.status} ${code}`);
          return;
        }
      } catch {
        // The gateway is down or the connection was cut: the same key again, as a merchant's server would.
      }
      await sleep(random(100, 400));
    }
    unexpected.push(`${kind} ${key}: never answered`);
  }

  async function read<T>(path: string): Promise<T> {
    return waitFor(
      async () => {
        const answer = await api<T>(merchant.secret_key, 'GET', path).catch(() => undefined);
        return answer?.status === 200 ? answer.body : undefined;
      },
      { timeoutMs: 30_000, description: `GET ${path}` },
    );
  }

  async function listAll<T extends { id: string }>(kind: 'payments' | 'payouts'): Promise<T[]> {
    const all: T[] = [];
    for (;;) {
      const after = all.length === 0 ? '' : `&starting_after=${all.at(-1)?.id}`;
      const page = await read<{ data: T[]; has_more: boolean }>(`/v1/${kind}?limit=100${after}`);
      all.push(...page.data);
      if (!page.has_more) return all;
    }
  }

  it('loses nothing acknowledged, doubles nothing, and keeps the books and the events exact', async () => {
    let chaosOver = false;
    const chaos = (async () => {
      for (let kill = 0; kill < KILLS; kill++) {
        await sleep(random(500, 2_500));
        const victim = VICTIMS[Math.floor(Math.random() * VICTIMS.length)]!;
        kills.push(victim);
        await stack.kill(victim);
        await sleep(random(0, 1_000));
        await stack.startOne(victim);
      }
      chaosOver = true;
    })();

    let paymentCount = 0;
    const paying = Array.from({ length: PAYMENT_WORKERS }, async (_, worker) => {
      while (!chaosOver) {
        const n = (paymentCount += 1);
        await createUntilAnswered('payments', `faults-payment-${worker}-${n}`, {
          amount: 1_000 + (n % 7) * 100,
          customer_alias: PAYING_ALIAS,
          return_url: 'https://shop.example/thanks',
        });
      }
    });

    let payoutCount = 0;
    const payingOut = (async () => {
      while (!chaosOver) {
        await sleep(PAYOUT_EVERY_MS);
        // Early on the balance may not cover it yet: a refusal is an answer, not a fault.
        await createUntilAnswered(
          'payouts',
          `faults-payout-${(payoutCount += 1)}`,
          { amount: PAYOUT_AMOUNT },
          ['balance_insufficient'],
        );
      }
    })();

    await Promise.all([chaos, ...paying, payingOut]);
    expect(unexpected).toEqual([]);

    // Not doubled: every key gave one id, and no two keys share one.
    for (const kind of ['payments', 'payouts'] as const) {
      for (const [key, ids] of acknowledged[kind])
        expect({ key, ids: [...ids] }).toEqual({ key, ids: [...ids].slice(0, 1) });
    }
    const paymentIds = [...acknowledged.payments.values()].map((ids) => [...ids][0]!);
    const payoutIds = [...acknowledged.payouts.values()].map((ids) => [...ids][0]!);
    expect(new Set(paymentIds).size).toBe(paymentIds.length);
    expect(paymentIds.length).toBeGreaterThan(20);
    expect(payoutIds.length).toBeGreaterThan(3);

    // Not lost: every acknowledged payment is paid, every acknowledged payout is paid out.
    await waitFor(
      async () => {
        const payments = await listAll<Payment>('payments');
        const payouts = await listAll<Payout>('payouts');
        const succeeded = new Set(payments.filter((p) => p.status === 'succeeded').map((p) => p.id));
        const paid = new Set(payouts.filter((p) => p.status === 'paid').map((p) => p.id));
        return paymentIds.every((id) => succeeded.has(id)) && payoutIds.every((id) => paid.has(id))
          ? true
          : undefined;
      },
      {
        timeoutMs: SETTLE_MS,
        intervalMs: 2_000,
        description: 'every acknowledged payment and payout settled',
      },
    );

    // Exact to the franc. A creation whose answer was lost may have made a payment nobody acknowledged: it
    // counts too, since the money it collected is on the balance.
    const payments = await listAll<Payment>('payments');
    const payouts = await listAll<Payout>('payouts');
    expect(payouts.filter((p) => p.status !== 'paid')).toEqual([]);
    const collected = payments
      .filter((p) => p.status === 'succeeded')
      .reduce((sum, p) => sum + (p.net_amount ?? Number.NaN), 0);
    const paidOut = payouts.reduce((sum, p) => sum + p.amount, 0);
    const balance = await read<{ available: number; pending_payout: number }>('/v1/balance');
    expect(balance).toMatchObject({ available: collected - paidOut, pending_payout: 0 });

    // Every status change told once: one evt_ id per record and type, signed with the endpoint's secret.
    const { received } = await receiver;
    const told = (objectId: string, type: string) =>
      received.some((r) => r.event.type === type && r.event.data.object.id === objectId);
    await waitFor(
      async () =>
        payments.every((p) => p.status !== 'succeeded' || told(p.id, 'payment.succeeded')) &&
        payouts.every((p) => told(p.id, 'payout.paid'))
          ? true
          : undefined,
      { timeoutMs: SETTLE_MS, intervalMs: 2_000, description: 'every event delivered' },
    );
    const idsByChange = new Map<string, Set<string>>();
    for (const { event, rawBody, signatureHeader } of received) {
      const change = `${event.data.object.id} ${event.type}`;
      idsByChange.set(change, (idsByChange.get(change) ?? new Set()).add(event.id));
      expect(verifySignature(signatureHeader, rawBody, merchant.webhook_secret)).toBe(true);
    }
    const doubled = [...idsByChange].filter(([, ids]) => ids.size > 1).map(([change]) => change);
    expect(doubled).toEqual([]);

    // And the operator's audit of books, payments, payouts and events finds nothing.
    const audit = await waitFor(
      async () => {
        try {
          return sika<{ violations: unknown[] }>('audit', '--mode', 'test');
        } catch (error) {
          const stdout = (error as { stdout?: string }).stdout;
          return stdout ? (JSON.parse(stdout) as { violations: unknown[] }) : undefined;
        }
      },
      { timeoutMs: 30_000, description: 'the audit' },
    );
    expect(audit.violations).toEqual([]);
    process.stderr.write(
      `faults: ${kills.length} kills (${kills.join(', ')}), ${paymentIds.length} payments and ` +
        `${payoutIds.length} payouts acknowledged, ${payments.length} payments in all, ${received.length} deliveries\n`,
    );
  });
});
