import { parseArgs } from 'node:util';
import { request } from 'undici';

import { createMerchant } from '../../test-e2e/support/cli';
import { GATEWAY_URL } from '../../test-e2e/support/environment';
import { withServerProcess } from './throughput/ceiling';
import { RETURN_URL } from './throughput/creations';
import { STACK_DATABASE } from './throughput/database';
import { openLoop } from './throughput/open-loop';
import { clockTicksPerSecond, procStat, stackProcesses } from './throughput/processes';

const USAGE = `pnpm bench:rate-cost [options]     (the gateway's row needs the local stack: bash scripts/start.sh)

  --rates R,R,...    offered requests per second, each in turn (default 10,100,1000)
  --requests N       requests per rate at least (default 600; low rates run longer for them)
  --max-duration S   longest run of one rate (default 30)
`;

/**
 * A Node.js server doing a fixed amount of work per request (three JSON round trips of a page of 100
 * payments, ≈ 0.3 ms on a warm core here), in a process of its own: what any Node.js service pays per request
 * on this machine at a given rate, Sika's code aside. It writes its port on stdout once listening.
 */
const REFERENCE_SERVER = `
const page = { data: Array.from({ length: 100 }, (_, i) => ({ id: 'pay_' + i, amount: i * 100, status: 'succeeded', metadata: { order: 'o' + i } })) };
const server = require('node:http').createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    let size = 0;
    for (let round = 0; round < 3; round += 1) size += JSON.parse(JSON.stringify(page)).data.length;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ size }));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

interface RateFigure {
  rate: number;
  offeredPerSecond: number;
  requests: number;
  failed: number;
  cpuMsPerRequest: number;
}

interface RateSettings {
  /** Requests per rate at least, unless that would take longer than maxDurationS. */
  minRequests: number;
  maxDurationS: number;
}

interface Target {
  name: string;
  /** The pids whose CPU a request costs. */
  pids: readonly number[];
  send: () => Promise<boolean>;
}

function parseRates(text: string): number[] {
  const rates = text.split(',').map(Number);
  if (rates.some((rate) => !Number.isFinite(rate) || rate <= 0)) {
    throw new Error(`--rates expects positive numbers separated by commas, not ${text}\n\n${USAGE}`);
  }
  return rates;
}

function cpuTicksOf(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + (procStat(pid)?.cpuTicks ?? 0), 0);
}

/** Each rate in turn: the target's CPU per request answered, from /proc (clock ticks, 10 ms here). */
async function measureTarget(
  target: Target,
  rates: readonly number[],
  { minRequests, maxDurationS }: RateSettings,
): Promise<RateFigure[]> {
  const ticksPerSecond = clockTicksPerSecond();
  const figures: RateFigure[] = [];
  for (const rate of rates) {
    const count = Math.max(1, Math.round(Math.min(minRequests, rate * maxDurationS)));
    let failed = 0;
    const before = cpuTicksOf(target.pids);
    const { started, offeredPerSecond } = await openLoop(rate, count, async () => {
      if (!(await target.send())) failed += 1;
    });
    await Promise.all(started);
    const cpuMs = ((cpuTicksOf(target.pids) - before) * 1_000) / ticksPerSecond;
    figures.push({ rate, offeredPerSecond, requests: count, failed, cpuMsPerRequest: cpuMs / count });
  }
  return figures;
}

async function answered(url: string, init: Parameters<typeof request>[1]): Promise<boolean> {
  try {
    const response = await request(url, init);
    await response.body.dump();
    return response.statusCode >= 200 && response.statusCode < 300;
  } catch {
    return false;
  }
}

function withReferenceServer<T>(use: (target: Target) => Promise<T>): Promise<T> {
  return withServerProcess(REFERENCE_SERVER, (origin, pid) =>
    use({
      name: 'reference Node.js server (fixed work)',
      pids: [pid],
      send: () => answered(`${origin}/`, { method: 'POST', body: '{"amount":1000}' }),
    }),
  );
}

/** The running stack's gateway, creating payments without alias for a merchant of its own. */
async function gatewayTarget(): Promise<Target | undefined> {
  const pids = stackProcesses(STACK_DATABASE)
    .filter(({ row }) => row === 'gateway')
    .map(({ pid }) => pid);
  if (pids.length === 0) return undefined;
  const { secret_key: key } = await createMerchant('Rate cost benchmark');
  const body = JSON.stringify({ amount: 1_000, return_url: RETURN_URL });
  return {
    name: 'gateway, POST /v1/payments',
    pids,
    send: () =>
      answered(`${GATEWAY_URL}/v1/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      }),
  };
}

function formatRows({ name }: Target, figures: readonly RateFigure[]): string {
  const rows = figures.map(
    (figure) =>
      `${name.padEnd(40)} ${String(figure.rate).padStart(6)}/s ${figure.offeredPerSecond.toFixed(0).padStart(7)}/s ` +
      `${String(figure.requests).padStart(8)} ${String(figure.failed).padStart(7)} ${figure.cpuMsPerRequest.toFixed(2).padStart(9)}`,
  );
  return `${rows.join('\n')}\n`;
}

/** Measures `target` at every rate and prints its rows. */
async function report(target: Target, rates: readonly number[], settings: RateSettings): Promise<void> {
  process.stdout.write(formatRows(target, await measureTarget(target, rates, settings)));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rates: { type: 'string', default: '10,100,1000' },
      requests: { type: 'string', default: '600' },
      'max-duration': { type: 'string', default: '30' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const rates = parseRates(values.rates);
  const settings: RateSettings = {
    minRequests: Number(values.requests),
    maxDurationS: Number(values['max-duration']),
  };
  if (!(settings.minRequests > 0) || !(settings.maxDurationS > 0)) {
    throw new Error(`--requests and --max-duration expect positive numbers\n\n${USAGE}`);
  }

  const lines = [
    'CPU per request by offered rate (open loop; CPU time of the target process from /proc)',
    `${'target'.padEnd(40)} ${'rate'.padStart(8)} ${'offered'.padStart(9)} ${'requests'.padStart(8)} ${'failed'.padStart(7)} ${'ms/request'.padStart(9)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await withReferenceServer((target) => report(target, rates, settings));
  const gateway = await gatewayTarget();
  if (gateway === undefined) {
    process.stdout.write('gateway: no stack running (bash scripts/start.sh), its rows left out\n');
    return;
  }
  await report(gateway, rates, settings);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
