import type { Payment, PaymentCreationInput, Payout, Sika } from '@sika/node';

import { UsageError } from '../config';
import { enterAliasOnHostedPage } from '../hosted-page';
import { until } from '../payment-watch';

/** A test alias of the simulator (docs/testing.md), by its last two digits. */
const alias = (lastDigits: string) => `+225 00000000${lastDigits}`;
const RETURN_URL = 'https://example.com/sika-trigger';
/** An on-delivery payment's deadline: PI-SPI lets a customer accept now and pay later with 24 h or more. */
const ON_DELIVERY_MS = 2 * 86_400_000;

export interface Triggered {
  trigger: string;
  payment_id?: string;
  payout_id?: string;
  /** The events Sika sends for it, in order (what `sika listen` shows). */
  events: string[];
  /** What to do next, if anything. */
  next?: string;
}

interface Context {
  sika: Sika;
  amount: number;
  trigger: string;
}

function create(context: Context, extra: Partial<PaymentCreationInput> = {}): Promise<Payment> {
  return context.sika.payments.create({
    amount: context.amount,
    description: `sika trigger ${context.trigger}`,
    metadata: { sika_trigger: context.trigger },
    return_url: RETURN_URL,
    ...extra,
  });
}

const attemptNumber = (n: number) => (payment: Payment) => payment.attempts[n - 1]?.status === 'declined';

/** Each event type, and how a test payment or payout produces it (the aliases of docs/testing.md). */
const EVENT_TRIGGERS: Record<string, (context: Context) => Promise<Triggered>> = {
  'payment.request_sent': async (context) => {
    const payment = await create(context, { customer_alias: alias('04') });
    await until(context.sika, payment.id, (p) => p.status === 'request_sent', 'request_sent');
    return {
      trigger: context.trigger,
      payment_id: payment.id,
      events: ['payment.request_sent'],
      next: `The customer of ${alias('04')} pays when told: sika pay ${payment.id}`,
    };
  },
  'payment.accepted_deferred': async (context) => {
    const payment = await create(context, {
      customer_alias: alias('04'),
      mode: 'on_delivery',
      expires_at: new Date(Date.now() + ON_DELIVERY_MS).toISOString(),
    });
    await until(context.sika, payment.id, (p) => p.status === 'accepted_deferred', 'accepted_deferred');
    return {
      trigger: context.trigger,
      payment_id: payment.id,
      events: ['payment.request_sent', 'payment.accepted_deferred'],
      next: `At delivery, the customer pays: sika pay ${payment.id}`,
    };
  },
  'payment.succeeded': async (context) => {
    const payment = await create(context, { customer_alias: alias('01') });
    await until(context.sika, payment.id, (p) => p.status === 'succeeded', 'succeeded');
    return {
      trigger: context.trigger,
      payment_id: payment.id,
      events: ['payment.request_sent', 'payment.succeeded'],
    };
  },
  'payment.declined': async (context) => {
    // The customer refuses every attempt; the fifth refusal leaves no attempt to come (spec §3.2 rule 1).
    const payment = await create(context, { customer_alias: alias('02') });
    await until(context.sika, payment.id, attemptNumber(1), 'refused');
    for (let attempt = 2; attempt <= 5; attempt += 1) {
      await enterAliasOnHostedPage(payment.checkout_url, alias('02'));
      await until(context.sika, payment.id, attemptNumber(attempt), `refused ${attempt} times`);
    }
    await until(context.sika, payment.id, (p) => p.status === 'declined', 'declined');
    return {
      trigger: context.trigger,
      payment_id: payment.id,
      events: ['payment.request_sent', 'payment.declined'],
    };
  },
  'payment.expired': async (context) => {
    const payment = await create(context);
    await context.sika.testHelpers.payments.expire(payment.id);
    return { trigger: context.trigger, payment_id: payment.id, events: ['payment.expired'] };
  },
  'payment.canceled': async (context) => {
    const payment = await create(context);
    await context.sika.payments.cancel(payment.id);
    return { trigger: context.trigger, payment_id: payment.id, events: ['payment.canceled'] };
  },
  'payment.failed': async (context) => {
    const payment = await create(context, { customer_alias: alias('06') });
    await until(context.sika, payment.id, (p) => p.status === 'failed', 'failed');
    return {
      trigger: context.trigger,
      payment_id: payment.id,
      events: ['payment.request_sent', 'payment.failed'],
    };
  },
  'payment.duplicate_refunded': async (context) => {
    // The customer validates two attempts: the second to pay settles the payment, the first is returned.
    const payment = await create(context);
    await enterAliasOnHostedPage(payment.checkout_url, alias('04'));
    await until(context.sika, payment.id, (p) => p.attempts[0]?.status === 'sent', 'waiting at the bank');
    await enterAliasOnHostedPage(payment.checkout_url, alias('01'));
    await until(context.sika, payment.id, (p) => p.status === 'succeeded', 'succeeded');
    await context.sika.testHelpers.payments.pay(payment.id);
    await until(context.sika, payment.id, (p) => p.attempts[0]?.refund_status === 'sent', 'refunded');
    return {
      trigger: context.trigger,
      payment_id: payment.id,
      events: ['payment.request_sent', 'payment.succeeded', 'payment.duplicate_refunded'],
    };
  },
  'payout.paid': (context) => payout(context, 'paid'),
  'payout.failed': (context) => payout(context, 'failed'),
};

/**
 * A payment paid at once, then a payout of its net amount to the test payout account. Which event follows is
 * the account's doing: the default test account is paid; one registered on the dashboard's Payouts page as
 * +225 0000000106 (or …108, …123) fails.
 */
async function payout(context: Context, wanted: 'paid' | 'failed'): Promise<Triggered> {
  const payment = await create(context, { customer_alias: alias('01') });
  const paid = await until(context.sika, payment.id, (p) => p.status === 'succeeded', 'succeeded');
  let created: Payout = await context.sika.payouts.create({ amount: paid.net_amount });
  const deadline = Date.now() + 60_000;
  while (created.status === 'pending' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    created = await context.sika.payouts.retrieve(created.id);
  }
  const result = {
    trigger: context.trigger,
    payment_id: payment.id,
    payout_id: created.id,
    events: ['payment.request_sent', 'payment.succeeded', `payout.${created.status}`],
  };
  if (created.status === wanted) return result;
  throw new TriggerMissed(
    wanted === 'failed'
      ? `${created.id} was ${created.status}: payout.failed needs a test payout account that fails. Register ` +
          "+225 0000000106 (a blocked account) on the dashboard's Payouts page, then trigger again."
      : `${created.id} is ${created.status}: your test payout account is one that fails (see the dashboard's ` +
          'Payouts page).',
  );
}

/** The trigger ran, but the account's setup produced another event than the one asked for. */
export class TriggerMissed extends Error {
  override readonly name = 'TriggerMissed';
}

export const EVENT_TYPES = Object.keys(EVENT_TRIGGERS);

/** What the customer's bank does for each test alias (docs/testing.md). */
const ALIAS_OUTCOMES: Record<string, string> = {
  '01': 'pays at once: payment.request_sent, payment.succeeded',
  '02': 'refuses: the payment stays request_sent while the customer may try again',
  '03': 'ignores the request: the payment expires at expires_at (payment.expired)',
  '04': 'accepts and pays when told (sika pay)',
  '05': 'is unknown: the attempt fails with alias_unknown, the payment stays created',
  '06': 'fails technically: payment.failed',
  '07': 'pays when told (sika pay), then rejects the first return of its money',
  '08': 'pays one franc short: never credited, the money returned',
};

async function aliasScenario(
  context: Context,
  customerAlias: string,
  onDelivery: boolean,
): Promise<Triggered> {
  const deferred = onDelivery
    ? { mode: 'on_delivery' as const, expires_at: new Date(Date.now() + ON_DELIVERY_MS).toISOString() }
    : {};
  const payment = await create(context, { customer_alias: customerAlias, ...deferred });
  const lastDigits = /^\+225 ?0{8}(\d\d)$/.exec(customerAlias)?.[1] ?? '';
  const outcome = ALIAS_OUTCOMES[lastDigits];
  return {
    trigger: context.trigger,
    payment_id: payment.id,
    events: [],
    next: `${customerAlias} ${outcome ?? 'is not one of the test aliases: see docs/testing.md'}; follow it with sika listen.${
      lastDigits === '04' || lastDigits === '07' ? ` Pay now: sika pay ${payment.id}` : ''
    }`,
  };
}

/**
 * `sika trigger <event type | alias>`: an event type creates the test payment or payout that produces it
 * (and waits until it did); a test alias (`04`, `+225 0000000004`) creates a payment for that customer.
 */
export async function trigger(
  sika: Sika,
  what: string,
  options: { amount: number; onDelivery: boolean },
): Promise<Triggered> {
  const context = { sika, amount: options.amount, trigger: what };
  const byEvent = EVENT_TRIGGERS[what];
  if (byEvent !== undefined) return byEvent(context);
  if (/^\d{2}$/.test(what)) return aliasScenario(context, alias(what), options.onDelivery);
  if (what.startsWith('+')) return aliasScenario(context, what, options.onDelivery);
  throw new UsageError(
    `Unknown trigger '${what}'. Event types: ${EVENT_TYPES.join(', ')}; or a test alias: 01 to 08, or '+225 0000000004'.`,
  );
}

export function describeTriggered(result: Triggered): string {
  const made = [result.payment_id, result.payout_id].filter(Boolean).join(' and ');
  const lines = [`Triggered ${result.trigger}: ${made}.`];
  if (result.events.length > 0) lines.push(`Sika sends: ${result.events.join(', ')}.`);
  if (result.next !== undefined) lines.push(result.next);
  return `${lines.join('\n')}\n`;
}
