import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor } from '@sika/testing';
import { api } from '../../support/api';
import { auditTestMode, type CreatedMerchant } from '../../support/cli';
import { verifySignature, type ReceivedWebhook } from '../../support/webhook-receiver';

/**
 * Money moved through the public API while the services misbehave, and what must hold of it afterwards:
 * nothing acknowledged lost or doubled, the balance exact to the franc, every status change told as one
 * event with one `evt_` id, and the operator's audit clean.
 */

export interface Payment {
  id: string;
  status: string;
  amount: number;
  net_amount: number | null;
}
export interface Payout {
  id: string;
  status: 'pending' | 'paid' | 'failed';
  amount: number;
}
interface ApiError {
  error: { code: string };
}
type Kind = 'payments' | 'payouts';

/** Uniform in [min, max): the jitter of retries, and of the chaos. */
export const random = (min: number, max: number) => min + Math.random() * (max - min);

/** Reads the books through the public API, once every payment and payout was settled. */
export interface Books {
  payments: Payment[];
  payouts: Payout[];
}

/**
 * A merchant's server: retries a creation with the same key through every failure until it is answered, and
 * records the id each answer 200 gave under its key (there must be one).
 */
export class MerchantServer {
  /** Idempotency key → every id an answer 200 gave for it. */
  readonly acknowledged: Record<Kind, Map<string, Set<string>>> = { payments: new Map(), payouts: new Map() };
  /** Answers no merchant should get: each one fails the test. */
  readonly unexpected: string[] = [];

  constructor(
    readonly merchant: CreatedMerchant,
    /** How long a client retries, as a merchant's server would with the same key. */
    private readonly retryForMs: number,
  ) {}

  /**
   * One creation, retried with the same key through a refused connection, a 5xx, a 429 or a key still in use;
   * resolves to the id answered, or undefined for any other 4xx (recorded if unexpected).
   */
  async create(
    kind: Kind,
    key: string,
    body: Record<string, unknown>,
    expectedRefusals: readonly string[] = [],
  ): Promise<string | undefined> {
    const answer = await this.untilAnswered(`${kind} ${key}`, `/v1/${kind}`, body, key, expectedRefusals);
    if (answer === undefined) return undefined;
    const ids = this.acknowledged[kind].get(key) ?? new Set<string>();
    this.acknowledged[kind].set(key, ids.add(answer.id));
    return answer.id;
  }

  /**
   * Cancels a payment, retried with the same key like a creation; `expectedRefusals` are answers that race
   * allows (a payment its payer settled first is `payment_already_final`).
   */
  async cancel(paymentId: string, key: string, expectedRefusals: readonly string[] = []): Promise<void> {
    await this.untilAnswered(
      `cancel ${paymentId}`,
      `/v1/payments/${paymentId}/cancel`,
      undefined,
      key,
      expectedRefusals,
    );
  }

  async read<T>(path: string): Promise<T> {
    return waitFor(
      async () => {
        const answer = await api<T>(this.merchant.secret_key, 'GET', path).catch(() => undefined);
        return answer?.status === 200 ? answer.body : undefined;
      },
      { timeoutMs: 30_000, description: `GET ${path}` },
    );
  }

  async listAll<T extends { id: string }>(kind: Kind): Promise<T[]> {
    const all: T[] = [];
    for (;;) {
      const after = all.length === 0 ? '' : `&starting_after=${all.at(-1)?.id}`;
      const page = await this.read<{ data: T[]; has_more: boolean }>(`/v1/${kind}?limit=100${after}`);
      all.push(...page.data);
      if (!page.has_more) return all;
    }
  }

  private async untilAnswered(
    what: string,
    path: string,
    body: Record<string, unknown> | undefined,
    idempotencyKey?: string,
    expectedRefusals: readonly string[] = [],
  ): Promise<{ id: string } | undefined> {
    const giveUpAt = Date.now() + this.retryForMs;
    while (Date.now() < giveUpAt) {
      try {
        const answer = await api<{ id: string } & Partial<ApiError>>(this.merchant.secret_key, 'POST', path, {
          ...(body !== undefined && { body }),
          ...(idempotencyKey !== undefined && { idempotencyKey }),
        });
        if (answer.status === 200) return answer.body;
        const code = answer.body.error?.code ?? String(answer.status);
        // Still running (its first try outlived the answer the client got): retry later, as the error says.
        const retryable = answer.status >= 500 || answer.status === 429 || code === 'idempotency_key_in_use';
        if (!retryable) {
          if (!expectedRefusals.includes(code)) this.unexpected.push(`${what}: ${answer.status} ${code}`);
          return undefined;
        }
      } catch {
        // The gateway is down or the connection was cut: the same request again, as a merchant's server would.
      }
      await sleep(random(100, 400));
    }
    this.unexpected.push(`${what}: never answered`);
    return undefined;
  }
}

/** Not doubled: every key was answered with one id, and no two keys share one. Returns those ids. */
export function expectOneIdPerKey(server: MerchantServer): Record<Kind, string[]> {
  const ids = { payments: [] as string[], payouts: [] as string[] };
  for (const kind of ['payments', 'payouts'] as const) {
    for (const [key, answered] of server.acknowledged[kind]) {
      expect({ key, ids: [...answered] }).toEqual({ key, ids: [...answered].slice(0, 1) });
      ids[kind].push([...answered][0]!);
    }
    expect(new Set(ids[kind]).size).toBe(ids[kind].length);
  }
  return ids;
}

/** Not lost: waits until each acknowledged payment has the status expected of it and every payout is paid. */
export async function waitUntilSettled(
  server: MerchantServer,
  expected: { payments: ReadonlyMap<string, string>; payouts: readonly string[] },
  timeoutMs: number,
): Promise<void> {
  await waitFor(
    async () => {
      const status = new Map(
        [...(await server.listAll<Payment>('payments')), ...(await server.listAll<Payout>('payouts'))].map(
          (record) => [record.id, record.status],
        ),
      );
      return [...expected.payments].every(([id, wanted]) => status.get(id) === wanted) &&
        expected.payouts.every((id) => status.get(id) === 'paid')
        ? true
        : undefined;
    },
    { timeoutMs, intervalMs: 2_000, description: 'every acknowledged payment and payout settled' },
  );
}

/**
 * Exact to the franc: the balance available is what succeeded payments collected (net) minus what was paid
 * out, nothing pending. A creation whose answer was lost may have made a payment nobody acknowledged: it
 * counts too, since the money it collected is on the balance. Returns the books it read.
 */
export async function expectExactBalance(server: MerchantServer): Promise<Books> {
  const payments = await server.listAll<Payment>('payments');
  const payouts = await server.listAll<Payout>('payouts');
  expect(payouts.filter((p) => p.status !== 'paid')).toEqual([]);
  const collected = payments
    .filter((p) => p.status === 'succeeded')
    .reduce((sum, p) => sum + (p.net_amount ?? Number.NaN), 0);
  const paidOut = payouts.reduce((sum, p) => sum + p.amount, 0);
  const expected = { available: collected - paidOut, pending_payout: 0 };
  // The ledger applies payments' and payouts' decisions from their events: it follows them within moments.
  const readBalance = () => server.read<{ available: number; pending_payout: number }>('/v1/balance');
  await waitFor(
    async () => {
      const { available, pending_payout } = await readBalance();
      return available === expected.available && pending_payout === expected.pending_payout;
    },
    { timeoutMs: 30_000, description: 'the balance to follow the payments and payouts' },
  ).catch(() => undefined);
  expect(await readBalance()).toMatchObject(expected);
  return { payments, payouts };
}

/** The event each final status must have been told with. */
const TOLD_AS: Readonly<Record<string, string>> = {
  succeeded: 'payment.succeeded',
  canceled: 'payment.canceled',
  paid: 'payout.paid',
};

/**
 * Every status change told once: waits until each final status of the books was delivered, then checks that
 * every (object, type) came with one `evt_` id, however many times it was delivered, each delivery signed
 * with the endpoint's secret. Returns how many distinct events were delivered.
 */
export async function expectEveryChangeToldOnce(
  server: MerchantServer,
  received: readonly ReceivedWebhook[],
  books: Books,
  timeoutMs: number,
): Promise<number> {
  const told = (objectId: string, type: string) =>
    received.some((r) => r.event.type === type && r.event.data.object.id === objectId);
  const finals = [...books.payments, ...books.payouts].flatMap((record) => {
    const type = TOLD_AS[record.status];
    return type === undefined ? [] : [{ id: record.id, type }];
  });
  await waitFor(() => finals.every(({ id, type }) => told(id, type)), {
    timeoutMs,
    intervalMs: 2_000,
    description: 'every event delivered',
  });
  const idsByChange = new Map<string, Set<string>>();
  for (const { event, rawBody, signatureHeader } of received) {
    const change = `${event.data.object.id} ${event.type}`;
    idsByChange.set(change, (idsByChange.get(change) ?? new Set()).add(event.id));
    expect(verifySignature(signatureHeader, rawBody, server.merchant.webhook_secret)).toBe(true);
  }
  const doubled = [...idsByChange].filter(([, ids]) => ids.size > 1).map(([change]) => change);
  expect(doubled).toEqual([]);
  return idsByChange.size;
}

/** The operator's audit of books, payments, payouts and events finds nothing. */
export async function expectAuditClean(): Promise<void> {
  // An audit that did not run (a service still restarting) is taken again.
  const audit = await waitFor(() => auditTestMode().catch(() => undefined), {
    timeoutMs: 30_000,
    description: 'the audit',
  });
  expect(audit.violations).toEqual([]);
}
