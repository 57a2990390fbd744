import { CONSUMER_QUEUES } from '@sika/contracts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceName } from '../../scripts/stack/services';
import { createMerchant } from '../support/cli';
import { startWebhookReceiver } from '../support/webhook-receiver';
import {
  MerchantServer,
  expectAuditClean,
  expectEveryChangeToldOnce,
  expectExactBalance,
  expectOneIdPerKey,
  waitUntilSettled,
} from './support/money';
import { SupervisedStack, replicaOf } from './support/supervised-stack';

/**
 * Two replicas of each worker service side by side, as Kubernetes runs them: their RabbitMQ consumers
 * compete on the same queues, and their pollers (outbox relays, sweepers, webhook deliveries, daily payouts)
 * run twice over the same tables. Paid and canceled payments and payouts go through the public API at a
 * brisk pace; afterwards nothing is doubled or lost, the balance is exact to the franc, every status change
 * was told as one event with one `evt_` id, the operator's audit is clean, and each replica did its share.
 */

const REPLICAS_ENV = { SIKA_DB_NAME: 'sika_replicas' } as const;
const WORKERS: readonly ServiceName[] = [
  'payments',
  'psp-connector',
  'ledger',
  'payouts',
  'webhook-dispatcher',
];
const DRIVE_MS = 15_000;
const PAYMENT_WORKERS = 3;
/** One payment in this many is left unpaid and canceled: another event type through the dispatchers. */
const CANCEL_EVERY = 5;
const PAYOUT_EVERY_MS = 1_500;
const PAYOUT_AMOUNT = 500;
const PAYING_ALIAS = '+225 0000000001';
const RETRY_FOR_MS = 30_000;
const SETTLE_MS = 90_000;
/** Ten services and five replicas started on a busy machine. */
const START_MS = 3 * 60_000;

jest.setTimeout(DRIVE_MS + RETRY_FOR_MS + 2 * SETTLE_MS + 60_000);

describe('two replicas of each worker service', () => {
  const stack = new SupervisedStack(REPLICAS_ENV);
  const receiver = startWebhookReceiver();
  let server: MerchantServer;

  beforeAll(async () => {
    await stack.start();
    await stack.startReplicas(WORKERS);
    server = new MerchantServer(await createMerchant('Replicas', (await receiver).url), RETRY_FOR_MS);
  }, START_MS);

  afterAll(async () => {
    await stack.stop();
    await (await receiver).close();
  });

  afterEach(() => {
    const state = expect.getState();
    if (state.assertionCalls !== state.numPassingAsserts) {
      process.stderr.write(`last lines:\n${stack.output.all().join('\n')}\n`);
    }
  });

  /** The sum of a counter's samples on a process's /metrics whose labels include `labels`. */
  async function metric(
    processName: string,
    name: string,
    labels: Record<string, string> = {},
  ): Promise<number> {
    const text = await (await fetch(stack.metricsUrl(processName))).text();
    let sum = 0;
    for (const line of text.split('\n')) {
      const [, sample, labelText = '', value] = /^([\w:]+)(\{.*\})? (\S+)$/.exec(line) ?? [];
      if (sample !== name) continue;
      if (Object.entries(labels).every(([label, wanted]) => labelText.includes(`${label}="${wanted}"`))) {
        sum += Number(value);
      }
    }
    return sum;
  }

  /**
   * What each worker's two processes must both have done, read from each process alone: what its consumers
   * applied (`sika_messages_settled_total`), what its handlers log, or what its metrics count.
   */
  const WORK: ReadonlyArray<{
    what: string;
    count: (replica: (name: ServiceName) => string) => Promise<number>;
  }> = [
    {
      what: 'payments: scheme updates applied',
      count: (replica) =>
        metric(replica('payments'), 'sika_messages_settled_total', {
          queue: CONSUMER_QUEUES.paymentsPaymentRequestUpdates.queue,
          outcome: 'applied',
        }),
    },
    {
      what: 'psp-connector: payout transfers taken from its queue',
      count: async (replica) => stack.logged(replica('psp-connector'), 'payout transfer requested'),
    },
    {
      what: 'ledger: decisions booked',
      count: (replica) => metric(replica('ledger'), 'sika_messages_settled_total', { outcome: 'applied' }),
    },
    {
      what: 'payouts: transfer outcomes applied',
      count: async (replica) => stack.logged(replica('payouts'), 'payout paid'),
    },
    {
      what: 'webhook-dispatcher: events stored',
      count: (replica) => metric(replica('webhook-dispatcher'), 'webhook_events_stored_total'),
    },
    {
      what: 'webhook-dispatcher: delivery attempts',
      count: (replica) => metric(replica('webhook-dispatcher'), 'webhook_delivery_attempts_total'),
    },
  ];

  it('doubles nothing, loses nothing, keeps the books and the events exact, and shares the work', async () => {
    const driveUntil = Date.now() + DRIVE_MS;
    /** Payment id → the status it must end in. */
    const expected = new Map<string, string>();

    let paymentCount = 0;
    const paying = Array.from({ length: PAYMENT_WORKERS }, async (_, worker) => {
      while (Date.now() < driveUntil) {
        const n = (paymentCount += 1);
        const key = `replicas-payment-${worker}-${n}`;
        const canceled = n % CANCEL_EVERY === 0;
        const id = await server.create('payments', key, {
          amount: 1_000 + (n % 7) * 100,
          ...(!canceled && { customer_alias: PAYING_ALIAS }),
          return_url: 'https://shop.example/thanks',
        });
        if (id === undefined) continue;
        if (canceled) await server.cancel(id, `${key}-cancel`);
        expected.set(id, canceled ? 'canceled' : 'succeeded');
      }
    });

    let payoutCount = 0;
    const payingOut = (async () => {
      while (Date.now() < driveUntil) {
        await sleep(PAYOUT_EVERY_MS);
        // Early on the balance may not cover it yet: a refusal is an answer, not a fault.
        await server.create('payouts', `replicas-payout-${(payoutCount += 1)}`, { amount: PAYOUT_AMOUNT }, [
          'balance_insufficient',
        ]);
      }
    })();

    await Promise.all([...paying, payingOut]);
    expect(server.unexpected).toEqual([]);

    const acknowledged = expectOneIdPerKey(server);
    expect(acknowledged.payments.length).toBeGreaterThan(50);
    expect(acknowledged.payouts.length).toBeGreaterThan(5);
    await waitUntilSettled(server, { payments: expected, payouts: acknowledged.payouts }, SETTLE_MS);
    const books = await expectExactBalance(server);
    const { received } = await receiver;
    const events = await expectEveryChangeToldOnce(server, received, books, SETTLE_MS);
    await expectAuditClean();

    const work = Object.fromEntries(
      await Promise.all(
        WORK.map(async ({ what, count }) => [
          what,
          [await count((name) => name), await count((name) => replicaOf(name))],
        ]),
      ),
    ) as Record<string, [number, number]>;
    const idle = Object.entries(work).filter(([, counts]) => counts.includes(0));
    expect(idle).toEqual([]);

    const canceled = [...expected.values()].filter((status) => status === 'canceled').length;
    process.stderr.write(
      `replicas: ${acknowledged.payments.length} payments acknowledged (${canceled} canceled), ` +
        `${acknowledged.payouts.length} payouts, ${books.payments.length} payments in all, ` +
        `${received.length} deliveries of ${events} events; work (first replica, second):\n` +
        Object.entries(work)
          .map(([what, [first, second]]) => `  ${what}: ${first}, ${second}\n`)
          .join(''),
    );
  });
});
