import { spawn } from 'node:child_process';
import path from 'node:path';

import { constructEvent, Sika } from '@sika/node';
import { waitFor } from '@sika/testing';

import { createMerchant, type CreatedMerchant } from './support/cli';
import { REPOSITORY_ROOT } from './support/environment';
import { runSika } from './support/merchant-cli';
import { startWebhookReceiver } from './support/webhook-receiver';

/**
 * The merchant's CLI (packages/merchant-cli) against the running stack: each trigger must produce exactly the
 * events it announces, as the merchant's endpoint receives them.
 */

jest.setTimeout(120_000);

const receiver = startWebhookReceiver();
// Awaited by each test rather than in beforeAll: concurrent tests may start before beforeAll has finished.
const ready = receiver.then(async ({ url }) => createMerchant('E2E Merchant CLI', url));
let merchant: CreatedMerchant;
let sika: Sika;

beforeEach(async () => {
  merchant = await ready;
  sika = new Sika(merchant.secret_key);
});

afterAll(async () => (await receiver).close());

/** The event types the endpoint received about a record (sorted: deliveries may overtake each other), each signed. */
async function eventsAbout(id: string, count: number): Promise<string[]> {
  const [hooks, { webhook_secret: secret }] = await Promise.all([receiver, ready]);
  const about = () => hooks.received.filter(({ event }) => event.data.object.id === id);
  await waitFor(() => about().length >= count, {
    timeoutMs: 30_000,
    description: `${count} events about ${id}`,
  });
  return about()
    .map(({ rawBody, signatureHeader }) => constructEvent(rawBody, signatureHeader, secret).type)
    .sort();
}

interface Triggered {
  trigger: string;
  payment_id?: string;
  payout_id?: string;
  events: string[];
}

describe('sika trigger, pay and expire', () => {
  it.concurrent.each([
    ['payment.succeeded'],
    ['payment.accepted_deferred'],
    ['payment.declined'],
    ['payment.expired'],
    ['payment.canceled'],
    ['payment.failed'],
    ['payment.duplicate_refunded'],
    ['payout.paid'],
  ])('%s: the payment or payout that produces it, and exactly the events announced', async (eventType) => {
    const merchant = await ready;
    const run = await runSika(['trigger', eventType, '--json'], merchant.secret_key);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const triggered = JSON.parse(run.stdout) as Triggered;
    expect(triggered.events).toContain(eventType);
    const paymentEvents = triggered.events.filter((type) => type.startsWith('payment.'));
    expect(await eventsAbout(triggered.payment_id!, paymentEvents.length)).toEqual(paymentEvents.sort());
    if (triggered.payout_id !== undefined) {
      expect(await eventsAbout(triggered.payout_id, 1)).toEqual([eventType]);
    }
  });

  it('payout.failed says what it needs when the test payout account pays', async () => {
    const run = await runSika(['trigger', 'payout.failed'], merchant.secret_key);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /was paid: payout\.failed needs a test payout account that fails\. Register \+225 0000000106/,
    );
  });

  it('an alias scenario, then the customer of …04 pays with sika pay (as the docs show it, through pnpm)', async () => {
    const created = await runSika(['trigger', '04', '--on-delivery'], merchant.secret_key, { viaPnpm: true });
    expect(created.status).toBe(0);
    const paymentId = /sika pay (pay_\w+)/.exec(created.stdout)?.[1];
    expect(paymentId).toBeDefined();
    await waitFor(async () => (await sika.payments.retrieve(paymentId!)).status === 'accepted_deferred');
    const paid = await runSika(['pay', paymentId!, '--json'], merchant.secret_key);
    expect({ status: paid.status, result: JSON.parse(paid.stdout) as unknown }).toEqual({
      status: 0,
      result: { payment_id: paymentId, status: 'succeeded' },
    });
    expect(await eventsAbout(paymentId!, 3)).toEqual(
      ['payment.request_sent', 'payment.accepted_deferred', 'payment.succeeded'].sort(),
    );
    const again = await runSika(['pay', paymentId!], merchant.secret_key);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^sika: no_request_waiting: /);
  });

  it('refuses a live key, and a missing one, before calling anything', async () => {
    const live = await runSika(['trigger', 'payment.succeeded'], 'sk_live_0000000000000000000000000');
    expect(live.status).toBe(2);
    expect(live.stderr).toMatch(/^sika: sika works with a test secret key \(sk_test_…\) only/);
    const missing = await runSika(['expire', 'pay_123'], undefined);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^sika: Set SIKA_SECRET_KEY/);
  });
});

describe('sika listen', () => {
  const forwardedTo = startWebhookReceiver();
  afterAll(async () => (await forwardedTo).close());

  it('forwards a new event from the events API, signed, the same JSON as GET /v1/events/{id}', async () => {
    const target = await forwardedTo;
    const child = spawn(
      process.execPath,
      [
        path.join(REPOSITORY_ROOT, 'packages/merchant-cli/dist/main.js'),
        'listen',
        '--forward-to',
        target.url,
        '--events',
        'payment.canceled',
      ],
      { env: { PATH: process.env.PATH ?? '', SIKA_SECRET_KEY: merchant.secret_key } },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const secret = await waitFor(() => /signing secret is (whsec_\w+)/.exec(output)?.[1], {
        timeoutMs: 20_000,
        description: 'listen ready',
      });
      const payment = await sika.payments.create({ amount: 1_000, return_url: 'https://shop.example/r' });
      await sika.payments.cancel(payment.id);
      const forwarded = await waitFor(
        () => target.received.find(({ event }) => event.data.object.id === payment.id),
        { timeoutMs: 30_000, description: `payment.canceled of ${payment.id} forwarded` },
      );
      const event = constructEvent(forwarded.rawBody, forwarded.signatureHeader, secret);
      expect(event.type).toBe('payment.canceled');
      expect(event).toEqual(await sika.events.retrieve(event.id));
      expect(output).toContain(`--> payment.canceled [${event.id}]`);
      expect(target.received.every(({ event: { type } }) => type === 'payment.canceled')).toBe(true);
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
    }
  });
});
