/* eslint-disable no-console -- a benchmark: its output is the figures it prints. */
/**
 * What reading the balance and paying out cost with a short and with a long history: two test-mode merchants
 * of the running local stack, one with 10 movements and one with 1,000,000 (written straight into the ledger's
 * schema, see balance-cost/history.ts), each measured in turn, twice, after the hello-world ceiling of the same
 * run. `GET /v1/balance` and `POST /v1/payouts` (1 franc, a new Idempotency-Key each) in a closed loop. Needs
 * the stack with the per-key rate limit out of the way:
 *
 *   RATE_LIMIT_TEST=1000000 bash scripts/start.sh
 *   pnpm bench:balance [--movements 1000000] [--duration 10] [--connections 8]
 *
 * The long history stays in the stack's database (SIKA_DB_NAME, default sika) afterwards.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { withDatabase } from '../db/urls';
import { adminUrlFromEnv } from '../stack/infra';
import { createMerchant } from '../../test-e2e/support/cli';
import { GATEWAY_URL } from '../../test-e2e/support/environment';
import { formerBalanceReadMs, seedHistory } from './balance-cost/history';
import { measureCeiling } from './throughput/ceiling';
import { STACK_DATABASE } from './throughput/database';
import { runLoad, type LoadFigures, type LoadRequest } from './throughput/load';
import { stackProcesses } from './throughput/processes';

const SHORT_HISTORY = 10;
/** Each seeded movement: enough that a long run of 1-franc payouts never empties either balance. */
const MOVEMENT_AMOUNT = 100_000;
/** The history is spread over this many days before now: day 1,000. */
const HISTORY_DAYS = 1_000;
const ROUNDS = 2;

interface Merchant {
  label: string;
  merchantId: string;
  secretKey: string;
  movements: number;
}

const decimal = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function positiveInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`--${name} expects a positive integer, not ${text}`);
  return value;
}

function balanceRequest(merchant: Merchant): LoadRequest {
  return {
    method: 'GET',
    path: '/v1/balance',
    prepare: () => ({ headers: { authorization: `Bearer ${merchant.secretKey}` } }),
  };
}

function payoutRequest(merchant: Merchant): LoadRequest {
  return {
    method: 'POST',
    path: '/v1/payouts',
    prepare: () => ({
      headers: {
        authorization: `Bearer ${merchant.secretKey}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: '{"amount":1}',
    }),
  };
}

function row(name: string, figures: LoadFigures): string {
  const throttled = figures.statuses.counts['429'] ?? 0;
  return (
    `${name.padEnd(40)} ${decimal(figures.succeededPerSecond).padStart(8)}/s ` +
    `${decimal(figures.p50Ms, 1).padStart(7)} ms ${decimal(figures.p99Ms, 1).padStart(7)} ms   ` +
    figures.statuses.format() +
    (throttled > 0 ? '   (429: start the stack with RATE_LIMIT_TEST=1000000)' : '')
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      movements: { type: 'string', default: '1000000' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '8' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log('pnpm bench:balance [--movements 1000000] [--duration 10] [--connections 8]');
    return;
  }
  const longHistory = positiveInteger('movements', values.movements);
  const durationS = positiveInteger('duration', values.duration);
  const connections = positiveInteger('connections', values.connections);
  const running = new Set(stackProcesses(STACK_DATABASE).map(({ row: service }) => service));
  for (const needed of ['gateway', 'ledger', 'payouts', 'merchants']) {
    if (!running.has(needed))
      throw new Error(`services/${needed} is not running: start the stack (bash scripts/start.sh)`);
  }
  const progress = (text: string) => console.error(`[bench] ${text}`);
  const adminUrl = withDatabase(adminUrlFromEnv(process.env), STACK_DATABASE);
  const stamp = new Date().toISOString();

  const merchants: Merchant[] = [];
  for (const movements of [SHORT_HISTORY, longHistory]) {
    const label = `${decimal(movements)} movements`;
    const created = await createMerchant(`Balance bench ${stamp}, ${label}`);
    progress(`${created.merchant_id}: writing ${label}`);
    await seedHistory(adminUrl, {
      merchantId: created.merchant_id,
      movements,
      amount: MOVEMENT_AMOUNT,
      days: HISTORY_DAYS,
      progress,
    });
    merchants.push({ label, merchantId: created.merchant_id, secretKey: created.secret_key, movements });
  }

  const load = { connections, durationS };
  progress('ceiling: hello world');
  const ceiling = await measureCeiling(load);
  const lines: string[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const merchant of merchants) {
      progress(`round ${round}: GET /v1/balance, ${merchant.label}`);
      lines.push(
        row(`GET /v1/balance, ${merchant.label}`, await runLoad(GATEWAY_URL, balanceRequest(merchant), load)),
      );
    }
    for (const merchant of merchants) {
      progress(`round ${round}: POST /v1/payouts, ${merchant.label}`);
      lines.push(
        row(`POST /v1/payouts, ${merchant.label}`, await runLoad(GATEWAY_URL, payoutRequest(merchant), load)),
      );
    }
  }
  const former = await Promise.all(
    merchants.map((merchant) => formerBalanceReadMs(adminUrl, merchant.merchantId, 5)),
  );

  console.log(`pnpm bench:balance, ${stamp}`);
  console.log(
    `machine: ${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}, load average ` +
      os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' '),
  );
  console.log(
    `merchants: ${merchants.map((merchant) => `${merchant.merchantId} (${merchant.label})`).join(', ')}`,
  );
  console.log(`closed loop, ${connections} connections, ${durationS} s each, ${ROUNDS} rounds alternated\n`);
  console.log(
    `${'request'.padEnd(40)} ${'2xx'.padStart(10)} ${'p50'.padStart(10)} ${'p99'.padStart(10)}   statuses`,
  );
  console.log(row('hello-world ceiling (GET /)', ceiling));
  for (const line of lines) console.log(line);
  console.log(
    `\nthe former balance read (the sum of the merchant's postings), median of 5: ` +
      merchants
        .map((merchant, index) => `${decimal(former[index] ?? NaN, 2)} ms with ${merchant.label}`)
        .join(', '),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
