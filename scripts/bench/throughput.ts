/* eslint-disable no-console -- a benchmark: its output is the figures it prints. */
/**
 * Throughput of the running local stack (bash scripts/start.sh), which it measures and never starts:
 * 1. the ceiling of this machine and load generator on a hello-world server; 2. `POST /v1/payments` closed
 * loop; 3. paid payments end to end past saturation, counted by their signed webhooks; 4. latency to the
 * webhook at a fixed offered rate, with the CPU and database transactions per paid payment at that rate;
 * 5. CPU, 6. database transactions per paid payment over phase 3; 7. resident memory; 8. the targets. One
 * phase per file under throughput/.
 *
 *   pnpm bench:throughput [--duration 10] [--rate 100] [--concurrency 400] [--json]   (--help for all)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDurationMs } from '../../packages/platform/src/config';
import { createMerchant } from '../../test-e2e/support/cli';
import { startAutovacuumStandIn } from './throughput/autovacuum';
import { measureCeiling } from './throughput/ceiling';
import { startCostMeter, waitUntilQuiet } from './throughput/costs';
import { KeyRing } from './throughput/creations';
import { openTransactionCounter, STACK_DATABASE } from './throughput/database';
import { measureFixedRate } from './throughput/fixed-rate';
import { parseOptions, USAGE } from './throughput/options';
import { measurePaidPayments } from './throughput/paid-payments';
import { measurePaymentCreation } from './throughput/post-payments';
import {
  clockTicksPerSecond,
  serviceEnv,
  sikaResidentMiB,
  sikaNodeReleases,
  stackProcesses,
  type StackProcess,
} from './throughput/processes';
import { startPaidWebhookReceiver } from './throughput/receiver';
import { formatFigures, targetLines, type Figures } from './throughput/report';

/** services/pispi-simulator/src/config.ts: SIMULATOR_PAYER_DELAY, 300ms unless set. */
const DEFAULT_PAYER_DELAY = '300ms';
/** services/gateway/src/config.ts: RATE_LIMIT_TEST requests per RATE_LIMIT_WINDOW, 100 per 1s unless set. */
const DEFAULT_RATE_LIMIT = { limit: '100', window: '1s' };
/** Before the measured phases: how long to wait for the stack to finish earlier work, and what "done" is. */
const QUIET = { maxS: 30, quietShare: 0.25 };
const IDLE_SAMPLE_MS = 3_000;

function stackSettings(
  processes: readonly StackProcess[],
  merchants: number,
  autovacuum: string,
): Figures['stack'] {
  const delay = serviceEnv(processes, 'pispi-simulator', 'SIMULATOR_PAYER_DELAY');
  const limit = serviceEnv(processes, 'gateway', 'RATE_LIMIT_TEST') ?? DEFAULT_RATE_LIMIT.limit;
  const window = serviceEnv(processes, 'gateway', 'RATE_LIMIT_WINDOW') ?? DEFAULT_RATE_LIMIT.window;
  const services = processes.filter(({ kind }) => kind === 'sika').map(({ row }) => row);
  return {
    severalProcesses: [...new Set(services.filter((service, index) => services.indexOf(service) !== index))],
    payerDelayMs: parseDurationMs(delay ?? DEFAULT_PAYER_DELAY) ?? NaN,
    payerDelaySource: delay === undefined ? 'default' : 'SIMULATOR_PAYER_DELAY',
    rateLimit: `${limit} per ${window}`,
    merchants,
    autovacuum,
  };
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const options = parseOptions(process.argv.slice(2), startedAt);
  if (!options) {
    console.log(USAGE);
    return;
  }
  const processes = stackProcesses(STACK_DATABASE);
  const services = new Set(processes.filter(({ kind }) => kind === 'sika').map(({ row }) => row));
  for (const needed of ['gateway', 'payments', 'pispi-simulator', 'webhook-dispatcher']) {
    if (!services.has(needed))
      throw new Error(`services/${needed} is not running: start the stack (bash scripts/start.sh)`);
  }
  const ticksPerSecond = clockTicksPerSecond();

  const receiver = await startPaidWebhookReceiver();
  const counter = await openTransactionCounter();
  const autovacuum = await counter.autovacuum();
  const naptimeMs = await counter.autovacuumNaptimeMs();
  const standIn =
    autovacuum === 'on' || options.skipAutovacuum
      ? undefined
      : await startAutovacuumStandIn(STACK_DATABASE, naptimeMs);
  try {
    const stack = stackSettings(processes, options.merchants, autovacuum);
    const secretKeys: string[] = [];
    for (let index = 0; index < options.merchants; index += 1) {
      const merchant = await createMerchant(
        `Throughput bench ${startedAt.toISOString()} #${index + 1}`,
        receiver.url,
      );
      receiver.trust(merchant.webhook_secret);
      secretKeys.push(merchant.secret_key);
    }
    const keys = new KeyRing(secretKeys);
    const unpaidKeys = new KeyRing(
      await Promise.all(
        Array.from(
          { length: options.merchants },
          async (_, index) =>
            (await createMerchant(`Throughput bench ${startedAt.toISOString()} unpaid #${index + 1}`))
              .secret_key,
        ),
      ),
    );
    const progress = (text: string) => console.error(`[bench] ${text}`);
    const figures: Omit<Figures, 'targets'> = {
      date: startedAt.toISOString(),
      machine: {
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        cpus: os.cpus().length,
        memoryGiB: os.totalmem() / 2 ** 30,
        node: process.version,
        servicesNode: sikaNodeReleases(processes),
        // The stack shares the machine with whatever else runs: a busy machine explains poor figures.
        loadAverage: os.loadavg(),
      },
      stack,
      residentMiB: {},
      webhooks: receiver.counts,
    };
    const load = { connections: options.connections, durationS: options.durationS };

    if (!options.skipCeiling) {
      progress('1. ceiling');
      figures.ceiling = { ...(await measureCeiling(load)), ...load };
    }
    if (!options.skipPost) {
      progress('2. POST /v1/payments');
      const post = await measurePaymentCreation(unpaidKeys, load);
      figures.post = {
        ...post,
        ...load,
        shareOfCeiling: figures.ceiling ? post.requestsPerSecond / figures.ceiling.requestsPerSecond : NaN,
      };
    }
    if (!options.skipPaid) {
      progress('3. paid payments: waiting for the stack to settle, then measuring it idle');
      await waitUntilQuiet(STACK_DATABASE, ticksPerSecond, QUIET);
      const idleMeter = await startCostMeter(STACK_DATABASE, counter, ticksPerSecond);
      await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
      const idle = await idleMeter.stop();
      progress(`3. paid payments: ${options.concurrency} in flight for ${options.paidDurationS} s`);
      const meter = await startCostMeter(STACK_DATABASE, counter, ticksPerSecond);
      const paid = await measurePaidPayments(keys, receiver, {
        concurrency: options.concurrency,
        durationS: options.paidDurationS,
        drainS: options.drainS,
      });
      figures.paid = { ...paid, durationS: options.paidDurationS };
      figures.costs = { load: await meter.stop(), idle };
    }
    if (!options.skipLatency) {
      progress(`4. fixed rate ${options.rate}/s: waiting for the stack to settle`);
      await waitUntilQuiet(STACK_DATABASE, ticksPerSecond, QUIET);
      progress(`4. fixed rate ${options.rate}/s for ${options.durationS} s`);
      const meter = await startCostMeter(STACK_DATABASE, counter, ticksPerSecond);
      const fixedRate = await measureFixedRate(keys, receiver, {
        rate: options.rate,
        durationS: options.durationS,
        drainS: options.drainS,
      });
      figures.fixedRate = {
        ...fixedRate,
        durationS: options.durationS,
        p99BeyondPayerDelayMs: fixedRate.p99Ms - stack.payerDelayMs,
        costs: await meter.stop(),
      };
    }
    figures.residentMiB = sikaResidentMiB(stackProcesses(STACK_DATABASE));
    if (standIn) figures.stack.autovacuumStandIn = { naptimeMs, ...(await standIn.stop()) };

    const complete: Figures = { ...figures, targets: targetLines(figures) };
    console.log(formatFigures(complete));
    if (options.jsonFile) {
      mkdirSync(path.dirname(options.jsonFile), { recursive: true });
      writeFileSync(options.jsonFile, `${JSON.stringify(complete, null, 2)}\n`);
      console.log(`\nFigures written to ${options.jsonFile}`);
    }
  } finally {
    await standIn?.stop();
    await counter.close();
    await receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
