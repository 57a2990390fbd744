/* eslint-disable no-console -- a benchmark: its output is the figures it prints. */
/**
 * Time from `POST /v1/payments` (test mode, alias +225 0000000001, paid at once by the simulator) to the
 * signed `payment.succeeded` webhook arriving at a local receiver. Needs the local stack (scripts/start.sh).
 *
 *   pnpm bench:latency [--payments 30] [--concurrency 1]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { api } from '../../test-e2e/support/api';
import { createMerchant } from '../../test-e2e/support/cli';
import { startWebhookReceiver, verifySignature } from '../../test-e2e/support/webhook-receiver';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { payments: { type: 'string', default: '30' }, concurrency: { type: 'string', default: '1' } },
  });
  const total = Number(values.payments);
  const concurrency = Number(values.concurrency);
  const receiver = await startWebhookReceiver();
  const merchant = await createMerchant(`Latency bench ${new Date().toISOString()}`, receiver.url);
  const arrivals = new Map<string, number>();
  const watch = setInterval(() => {
    for (const { event, signatureHeader, rawBody } of receiver.received) {
      if (event.type !== 'payment.succeeded' || arrivals.has(event.data.object.id)) continue;
      if (!verifySignature(signatureHeader, rawBody, merchant.webhook_secret))
        throw new Error('bad signature');
      arrivals.set(event.data.object.id, performance.now());
    }
  }, 1);

  const latencies: number[] = [];
  const runOne = async (): Promise<void> => {
    const started = performance.now();
    const created = await api<{ id: string }>(merchant.secret_key, 'POST', '/v1/payments', {
      body: { amount: 1_000, customer_alias: '+225 0000000001', return_url: 'https://shop.example/return' },
    });
    if (created.status !== 200) throw new Error(`creation failed: ${JSON.stringify(created.body)}`);
    while (!arrivals.has(created.body.id)) await new Promise((resolve) => setTimeout(resolve, 2));
    latencies.push((arrivals.get(created.body.id) ?? started) - started);
  };
  const workers = Array.from({ length: concurrency }, async (_, worker) => {
    for (let index = worker; index < total; index += concurrency) await runOne();
  });
  await Promise.all(workers);
  clearInterval(watch);
  await receiver.close();

  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
  console.log(`POST /v1/payments → payment.succeeded webhook, ${total} payments, concurrency ${concurrency}`);
  console.log(
    `min ${fmt(latencies[0] ?? NaN)}  median ${fmt(at(0.5))}  p95 ${fmt(at(0.95))}  max ${fmt(latencies.at(-1) ?? NaN)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
