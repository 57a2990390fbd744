import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@sika/testing';
import { api } from '../support/api';
import { createMerchant } from '../support/cli';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { expectAuditClean, MerchantServer, random } from './support/money';
import { holdTableLock } from './support/postgres-lock';
import { SupervisedStack } from './support/supervised-stack';

/**
 * Architecture invariant 8: a service that stalls (a long GC pause, a frozen VM, a lock held by a long
 * transaction) and finishes its work after its caller gave up never makes Sika pay the same francs twice.
 * Each money step that crosses services is run with its callee stalled past the caller's deadline while the
 * competing command arrives; then Sika runs with every worker service stalled at random while merchants pay,
 * cancel and pay out. Afterwards every payment either succeeded and was credited once, or did not succeed, was
 * never credited and had any money it received returned; the operator's audit is clean.
 */

// The books watch looks every 2 s, so that its rounds meet the stalls too; it must find nothing (the last test).
const WATCH_ROUND_MS = 2_000;
const STALLS_ENV = { SIKA_DB_NAME: 'sika_stalls', BOOKS_WATCH_INTERVAL: `${WATCH_ROUND_MS}ms` } as const;
const PAYING_ALIAS = '+225 0000000001';
/** Accepts the request and pays only when told (the simulator's "pay now"). */
const LATER_ALIAS = '+225 0000000004';
const SIMULATOR_URL = 'http://127.0.0.1:8090';
/** Longer than any caller's deadline on a worker service (payments' and payouts' are 5 s, psp-connector's 10 s). */
const PAST_DEADLINES_MS = 11_000;
const RETRY_FOR_MS = 120_000;
const SETTLE_MS = 120_000;
// Long enough for about six faults, each stall or lock past a deadline; CI's budget bounds it.
const RANDOM_PHASE_MS = 25_000;
const STALLED = ['payments', 'ledger', 'psp-connector', 'payouts', 'webhook-dispatcher'] as const;

jest.setTimeout(600_000);

interface PaymentView {
  id: string;
  status: string;
  tx_id: string | null;
  attempts: { tx_id: string; status: string; duplicate: boolean; refund_status: string | null }[];
}
interface Movement {
  type: string;
  amount: number;
  source_id: string;
}

describe('money steps whose callee finishes after its caller gave up', () => {
  const stack = new SupervisedStack(STALLS_ENV);
  const receiver = startWebhookReceiver();
  const servers: MerchantServer[] = [];
  const faults: string[] = [];

  beforeAll(async () => {
    await stack.start();
  });

  afterAll(async () => {
    await stack.stop();
    await (await receiver).close();
  });

  afterEach(() => {
    const state = expect.getState();
    if (state.assertionCalls !== state.numPassingAsserts) {
      process.stderr.write(`faults: ${faults.join(', ')}\nlast lines:\n${stack.output.all().join('\n')}\n`);
    }
  });

  async function newMerchant(name: string): Promise<MerchantServer> {
    const server = new MerchantServer(await createMerchant(name, (await receiver).url), RETRY_FOR_MS);
    servers.push(server);
    return server;
  }

  const stall = (service: string, ms: number): Promise<void> => {
    faults.push(`${service} stopped ${Math.round(ms)} ms`);
    return stack.stall(service, ms);
  };

  const lock = (table: string, ms: number) => {
    faults.push(`${table} locked ${ms} ms`);
    return holdTableLock(STALLS_ENV.SIKA_DB_NAME, table, ms);
  };

  const readPayment = (server: MerchantServer, id: string) => server.read<PaymentView>(`/v1/payments/${id}`);

  /** Until the payment has the status: decided by payments alone, whatever state its peers are in. */
  const untilStatus = (server: MerchantServer, id: string, status: string, timeoutMs: number) =>
    waitFor(async () => (await readPayment(server, id)).status === status, {
      timeoutMs,
      description: `${id} ${status}`,
    });

  /** One try: the answer's status and error code, or `unanswered` when the connection failed. */
  async function once(server: MerchantServer, path: string, key: string, body?: Record<string, unknown>) {
    const answer = await api<{ id?: string; status?: string; error?: { code: string } }>(
      server.merchant.secret_key,
      'POST',
      path,
      { ...(body !== undefined && { body }), idempotencyKey: key },
    ).catch(() => undefined);
    return (
      answer && {
        status: answer.status,
        code: answer.body.error?.code,
        body: answer.body,
        headers: answer.headers,
      }
    );
  }

  /** Every movement of the merchant, by source. */
  async function movementsBySource(server: MerchantServer): Promise<Map<string, string[]>> {
    const all: Movement[] = [];
    for (;;) {
      const after = all.length === 0 ? '' : `&starting_after=${(all.at(-1) as { id?: string }).id}`;
      const page = await server.read<{ data: (Movement & { id: string })[]; has_more: boolean }>(
        `/v1/balance_transactions?limit=100${after}`,
      );
      all.push(...page.data);
      if (!page.has_more) break;
    }
    const bySource = new Map<string, string[]>();
    for (const movement of all) {
      bySource.set(movement.source_id, [...(bySource.get(movement.source_id) ?? []), movement.type].sort());
    }
    return bySource;
  }

  /**
   * The invariant this file is about, for every payment of the merchant: once nothing is in flight any more,
   * succeeded and credited exactly once (one `payment` and one `fee` movement), or not succeeded with no
   * movement at all; and every transfer owed back was returned.
   */
  async function expectEachPaymentSettledOnce(server: MerchantServer): Promise<void> {
    const settled = await waitFor(
      async () => {
        const payments = await server.listAll<PaymentView>('payments');
        const owed = payments.flatMap((payment) =>
          payment.attempts.filter((attempt) => attempt.refund_status === 'pending'),
        );
        const open = payments.filter((payment) => ['created', 'request_sent'].includes(payment.status));
        const movements = await movementsBySource(server);
        const uncredited = payments.filter(
          (payment) => payment.status === 'succeeded' && !movements.has(payment.id),
        );
        return owed.length === 0 && open.length === 0 && uncredited.length === 0 && { payments, movements };
      },
      { timeoutMs: SETTLE_MS, intervalMs: 1_000, description: 'every payment final, credited, refunded' },
    );
    for (const payment of settled.payments) {
      const credited = settled.movements.get(payment.id) ?? [];
      expect({ id: payment.id, status: payment.status, credited }).toEqual({
        id: payment.id,
        status: payment.status,
        credited: payment.status === 'succeeded' ? ['fee', 'payment'] : [],
      });
      for (const attempt of payment.attempts) expect([null, 'sent']).toContain(attempt.refund_status);
    }
  }

  it('credit: a cancel meets a payment whose ledger is locked past any deadline (the reported case)', async () => {
    const server = await newMerchant('Stalls credit lock');
    const held = await lock('ledger.ledger_transactions', 8_000);
    const id = await server.create('payments', 'credit-lock', {
      amount: 1_000,
      customer_alias: PAYING_ALIAS,
      return_url: 'https://shop.example/thanks',
    });
    await untilStatus(server, id!, 'succeeded', 6_000);
    const cancel = await once(server, `/v1/payments/${id}/cancel`, 'credit-lock-cancel');
    // Decided once, by payments, without waiting for the ledger: the payer's money won the race.
    expect([cancel?.status, cancel?.code]).toEqual([409, 'payment_already_final']);
    await held.released;
    await expectEachPaymentSettledOnce(server);
    expect((await readPayment(server, id!)).status).toBe('succeeded');
  });

  it('money back: a duplicate paid while the ledger is stopped is booked and returned once', async () => {
    const server = await newMerchant('Stalls duplicate');
    const id = (await server.create('payments', 'duplicate', {
      amount: 1_200,
      return_url: 'https://shop.example/thanks',
    }))!;
    const { checkout_url } = await server.read<{ checkout_url: string }>(`/v1/payments/${id}`);
    for (const alias of [LATER_ALIAS, PAYING_ALIAS]) {
      const form = await fetch(`${checkout_url}/attempts`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: new URL(checkout_url).origin,
        },
        body: new URLSearchParams({ customer_alias: alias }).toString(),
      });
      expect(form.status).toBe(303);
      await waitFor(async () => (await readPayment(server, id)).attempts.at(-1)?.status !== 'pending');
    }
    await waitFor(async () => (await readPayment(server, id)).status === 'succeeded');
    const waiting = (await readPayment(server, id)).attempts[0]!;
    const stalled = stall('ledger', PAST_DEADLINES_MS);
    const paid = await fetch(`${SIMULATOR_URL}/simulator/demandes-paiements/${waiting.tx_id}/paiement`, {
      method: 'POST',
    });
    expect(paid.status).toBe(200);
    await stalled;
    await expectEachPaymentSettledOnce(server);
    const after = await readPayment(server, id);
    expect(after.attempts.map((attempt) => [attempt.duplicate, attempt.refund_status])).toEqual([
      [true, 'sent'],
      [false, null],
    ]);
  });

  it('payment: the payer pays and the merchant cancels while payments itself is stopped', async () => {
    const server = await newMerchant('Stalls payments');
    const id = (await server.create('payments', 'payments-stop', {
      amount: 1_300,
      customer_alias: LATER_ALIAS,
      return_url: 'https://shop.example/thanks',
    }))!;
    const sent = await waitFor(async () => {
      const payment = await readPayment(server, id);
      return payment.status === 'request_sent' && payment;
    });
    const stalled = stall('payments', 7_000);
    const paid = await fetch(`${SIMULATOR_URL}/simulator/demandes-paiements/${sent.tx_id}/paiement`, {
      method: 'POST',
    });
    expect(paid.status).toBe(200);
    const first = await once(server, `/v1/payments/${id}/cancel`, 'payments-stop-cancel');
    if (first !== undefined && first.status >= 500) expect(first.headers.get('retry-after')).not.toBeNull();
    await stalled;
    // The merchant's retry with the same key gets the answer of whichever won: both are final and consistent.
    const answer = await waitFor(async () => {
      const retried = await once(server, `/v1/payments/${id}/cancel`, 'payments-stop-cancel');
      return retried !== undefined && retried.status < 500 && retried;
    });
    expect([200, 409]).toContain(answer.status);
    await expectEachPaymentSettledOnce(server);
  });

  it('payouts: two payouts reserved while the ledger is stopped past payouts’ deadline, never overdrawn', async () => {
    const server = await newMerchant('Stalls payouts');
    for (const n of [1, 2]) {
      await server.create('payments', `earn-${n}`, {
        amount: 5_000,
        customer_alias: PAYING_ALIAS,
        return_url: 'https://shop.example/thanks',
      });
    }
    await expectEachPaymentSettledOnce(server);
    const { available } = await server.read<{ available: number }>('/v1/balance');
    expect(available).toBeGreaterThan(6_000);

    const stalled = stall('ledger', PAST_DEADLINES_MS);
    const [partial, whole] = await Promise.all([
      once(server, '/v1/payouts', 'payout-partial', { amount: 6_000 }),
      once(server, '/v1/payouts', 'payout-whole', {}),
    ]);
    for (const answer of [partial, whole]) {
      expect(answer?.status).toBe(503);
      expect(answer?.headers.get('retry-after')).not.toBeNull();
    }
    await stalled;
    const ids = await Promise.all([
      server.create('payouts', 'payout-partial', { amount: 6_000 }, ['balance_insufficient']),
      server.create('payouts', 'payout-whole', {}, ['balance_insufficient']),
    ]);
    // Whichever the ledger reserved first: never more than available, each reserved once.
    const made = ids.filter((id): id is string => id !== undefined);
    expect(made.length).toBeGreaterThanOrEqual(1);
    const payouts = await waitFor(
      async () => {
        const all = await server.listAll<{ id: string; status: string; amount: number }>('payouts');
        return all.every((payout) => payout.status === 'paid') && all;
      },
      { timeoutMs: SETTLE_MS, description: 'the payouts paid' },
    );
    expect(payouts.map((payout) => payout.id).sort()).toEqual([...made].sort());
    const reserved = payouts.reduce((sum, payout) => sum + payout.amount, 0);
    expect(reserved).toBeLessThanOrEqual(available);
    await waitFor(async () => {
      const balance = await server.read<{ available: number; pending_payout: number }>('/v1/balance');
      return balance.available === available - reserved && balance.pending_payout === 0;
    });
  });

  it('payouts: a payout paid while the ledger is stopped is released once it runs again', async () => {
    const server = await newMerchant('Stalls release');
    await server.create('payments', 'earn', {
      amount: 3_000,
      customer_alias: PAYING_ALIAS,
      return_url: 'https://shop.example/thanks',
    });
    await expectEachPaymentSettledOnce(server);
    const { available } = await server.read<{ available: number }>('/v1/balance');
    const id = await server.create('payouts', 'release', { amount: 1_000 });
    const stalled = stall('ledger', PAST_DEADLINES_MS);
    // payouts decides `paid` on the transfer's verdict without asking the ledger.
    await waitFor(
      async () => (await server.read<{ status: string }>(`/v1/payouts/${id}`)).status === 'paid',
      {
        timeoutMs: PAST_DEADLINES_MS - 1_000,
        description: 'the payout paid while the ledger is stopped',
      },
    );
    await stalled;
    // The day's automatic payout (payouts' daily run, caught up by a fresh database's first run that reaches
    // the ledger) may sweep what is left meanwhile: every payout of the merchant counts, all of them released.
    await waitFor(
      async () => {
        const payouts = await server.listAll<{ id: string; status: string; amount: number }>('payouts');
        const paidOut = payouts.reduce((sum, payout) => sum + payout.amount, 0);
        const balance = await server.read<{ available: number; pending_payout: number }>('/v1/balance');
        return (
          payouts.every((payout) => payout.status === 'paid') &&
          balance.available === available - paidOut &&
          balance.pending_payout === 0
        );
      },
      { timeoutMs: SETTLE_MS, description: 'the reservations released' },
    );
  });

  it('random stalls of every worker and locks held past deadlines, while merchants pay, cancel and pay out', async () => {
    const merchants = await Promise.all([1, 2, 3].map((n) => newMerchant(`Stalls random ${n}`)));
    let over = false;
    const chaos = (async () => {
      const started = Date.now();
      // Two of the faults are locks held past deadlines: on the ledger's books, and on payouts' own table.
      const locks = new Map([
        [1, 'ledger.ledger_transactions'],
        [3, 'payouts.payouts'],
      ]);
      for (let fault = 0; Date.now() - started < RANDOM_PHASE_MS; fault++) {
        await sleep(random(1_000, 3_000));
        const table = locks.get(fault);
        if (table !== undefined) await (await lock(table, 6_000)).released;
        else await stall(STALLED[Math.floor(Math.random() * STALLED.length)]!, random(1_000, 9_000));
      }
      over = true;
    })();
    let n = 0;
    const cancels: Promise<void>[] = [];
    const working = merchants.map(async (server, worker) => {
      while (!over) {
        const key = `random-${worker}-${(n += 1)}`;
        const id = await server.create('payments', key, {
          amount: 1_000 + (n % 5) * 100,
          customer_alias: Math.random() < 0.2 ? LATER_ALIAS : PAYING_ALIAS,
          return_url: 'https://shop.example/thanks',
        });
        if (id !== undefined && Math.random() < 1 / 3) {
          // One in three canceled at a random moment: before, during or after its payer's answer.
          cancels.push(
            sleep(random(0, 2_000)).then(() => server.cancel(id, `${key}-cancel`, ['payment_already_final'])),
          );
        }
        if (n % 6 === 0) {
          await server.create('payouts', `${key}-payout`, { amount: 500 }, ['balance_insufficient']);
        }
      }
    });
    await Promise.all([chaos, ...working]);
    await Promise.all(cancels);
    // Payments still waiting at the bank (alias …04) are canceled: nobody will pay them now.
    for (const server of merchants) {
      for (const payment of await server.listAll<PaymentView>('payments')) {
        if (payment.status === 'request_sent') {
          await server.cancel(payment.id, `${payment.id}-end`, ['payment_already_final']);
        }
      }
    }
    for (const server of merchants) expect(server.unexpected).toEqual([]);
    for (const server of [...servers]) await expectEachPaymentSettledOnce(server);
    await waitFor(
      async () => {
        for (const server of servers) {
          const payouts = await server.listAll<{ id: string; status: string }>('payouts');
          if (payouts.some((payout) => payout.status === 'pending')) return false;
        }
        return true;
      },
      { timeoutMs: SETTLE_MS, description: 'every payout settled' },
    );
    await expectAuditClean();
    // A last round of the books watch reads what was booked last; none of its rounds, stalled or not, found a
    // violation (a false alarm would page an operator).
    await new Promise((resolve) => setTimeout(resolve, 2 * WATCH_ROUND_MS));
    expect(stack.loggedLines('ledger', 'the books broke an invariant')).toEqual([]);
    process.stderr.write(`stalls: ${faults.length} faults (${faults.join(', ')})\n`);
  });
});
