import { setTimeout as sleep } from 'node:timers/promises';
import { createMerchant } from '../support/cli';
import { startWebhookReceiver } from '../support/webhook-receiver';
import {
  MerchantServer,
  random,
  expectAuditClean,
  expectEveryChangeToldOnce,
  expectExactBalance,
  expectOneIdPerKey,
  waitUntilSettled,
} from './support/money';
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
const KILLS = 6;
const PAYMENT_WORKERS = 3;
const PAYOUT_EVERY_MS = 2_500;
const PAYOUT_AMOUNT = 500;
const MIN_PAYOUTS = 4;
const PAYING_ALIAS = '+225 0000000001';
/** A client retries until this long after the chaos, as a merchant's server would with the same key. */
const RETRY_FOR_MS = 150_000;
const SETTLE_MS = 180_000;

jest.setTimeout(3 * SETTLE_MS + RETRY_FOR_MS + 120_000);

describe('money in and out while services are killed at random', () => {
  const stack = new SupervisedStack(FAULTS_ENV);
  const receiver = startWebhookReceiver();
  let server: MerchantServer;
  const kills: string[] = [];

  beforeAll(async () => {
    await stack.start();
    server = new MerchantServer(await createMerchant('Faults', (await receiver).url), RETRY_FOR_MS);
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
        await server.create('payments', `faults-payment-${worker}-${n}`, {
          amount: 1_000 + (n % 7) * 100,
          customer_alias: PAYING_ALIAS,
          return_url: 'https://shop.example/thanks',
        });
      }
    });

    let payoutCount = 0;
    let payoutsAcknowledged = 0;
    // Paid out until the chaos is over and a few payouts went through: how many fit in the chaos depends
    // on how fast the machine restarts services, which the test does not control.
    const payingOut = (async () => {
      while (!chaosOver || payoutsAcknowledged < MIN_PAYOUTS) {
        await sleep(PAYOUT_EVERY_MS);
        // Early on the balance may not cover it yet: a refusal is an answer, not a fault.
        const id = await server.create(
          'payouts',
          `faults-payout-${(payoutCount += 1)}`,
          { amount: PAYOUT_AMOUNT },
          ['balance_insufficient'],
        );
        if (id !== undefined) payoutsAcknowledged += 1;
      }
    })();

    await Promise.all([chaos, ...paying, payingOut]);
    expect(server.unexpected).toEqual([]);

    const acknowledged = expectOneIdPerKey(server);
    expect(acknowledged.payments.length).toBeGreaterThan(20);
    expect(acknowledged.payouts.length).toBeGreaterThanOrEqual(MIN_PAYOUTS);
    await waitUntilSettled(
      server,
      {
        payments: new Map(acknowledged.payments.map((id) => [id, 'succeeded'])),
        payouts: acknowledged.payouts,
      },
      SETTLE_MS,
    );
    const books = await expectExactBalance(server);
    const { received } = await receiver;
    await expectEveryChangeToldOnce(server, received, books, SETTLE_MS);
    await expectAuditClean();
    process.stderr.write(
      `faults: ${kills.length} kills (${kills.join(', ')}), ${acknowledged.payments.length} payments and ` +
        `${acknowledged.payouts.length} payouts acknowledged, ${books.payments.length} payments in all, ` +
        `${received.length} deliveries\n`,
    );
  });
});
