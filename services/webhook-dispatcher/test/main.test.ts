import { randomBytes } from 'node:crypto';
import { webhooksV1 } from '@sika/contracts';
import { createGrpcClient, newId } from '@sika/platform';
import {
  createRabbitScope,
  loggedPort,
  resolveDatabaseUrl,
  spawnService,
  stopGracefully,
  type RabbitScope,
  type SpawnedProcess,
  testIdentity,
} from '@sika/testing';

/** main.ts as its own process: configuration, gRPC, consumer, probes and metrics, graceful stop. */

let rabbit: RabbitScope;
let names: { EVENTS_EXCHANGE: string; PAYMENT_EVENTS_QUEUE: string; PAYOUT_EVENTS_QUEUE: string };

beforeAll(async () => {
  rabbit = await createRabbitScope();
  const queue = rabbit.name('webhooks-main.payment-events');
  rabbit.track(`${queue}.retry`);
  rabbit.track(`${queue}.dlq`);
  // Never the real queue: a test process must not take events meant for a running stack.
  const payoutQueue = rabbit.name('webhooks-main.payout-events');
  rabbit.track(`${payoutQueue}.retry`);
  rabbit.track(`${payoutQueue}.dlq`);
  names = {
    EVENTS_EXCHANGE: rabbit.name('webhooks-main.events'),
    PAYMENT_EVENTS_QUEUE: queue,
    PAYOUT_EVENTS_QUEUE: payoutQueue,
  };
});

afterAll(async () => {
  await rabbit.cleanup();
});

/** main.ts with the test's database, broker and names; `env` adds to them or removes some. */
async function spawnMain(
  env: Record<string, string | undefined>,
  readyMessage?: string,
): Promise<SpawnedProcess> {
  return spawnService('webhook-dispatcher', {
    env: { DATABASE_URL: await resolveDatabaseUrl(), AMQP_URL: rabbit.amqpUrl, ...names, ...env },
    ...(readyMessage !== undefined && { readyMessage }),
  });
}

it('refuses to start without valid secret keys, naming the variable and never echoing a key', async () => {
  for (const [key, problem] of [
    [undefined, 'WEBHOOK_SECRET_KEY is missing'],
    ['c2hvcnQta2V5', 'WEBHOOK_SECRET_KEY is invalid: expected 32 bytes'],
  ] as const) {
    const child = await spawnMain({ WEBHOOK_SECRET_KEY: key });
    expect(await child.exited).toEqual({ code: 1, signal: null });
    expect(child.output()).toContain(problem);
    expect(child.output()).not.toContain('c2hvcnQta2V5');
  }
  const child = await spawnMain({
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_SECRET_PREVIOUS_KEYS: `${randomBytes(32).toString('hex')},c2hvcnQta2V5`,
  });
  expect(await child.exited).toEqual({ code: 1, signal: null });
  expect(child.output()).toContain('WEBHOOK_SECRET_PREVIOUS_KEYS is invalid: entry 2: expected 32 bytes');
  expect(child.output()).not.toContain('c2hvcnQta2V5');
});

it('serves gRPC, answers probes and metrics, and stops gracefully on SIGTERM', async () => {
  const dispatcher = await spawnMain(
    { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') },
    'metrics server listening',
  );
  try {
    const address = `127.0.0.1:${await loggedPort(dispatcher, 'grpc server listening')}`;
    const probes = `http://127.0.0.1:${await loggedPort(dispatcher, 'metrics server listening')}`;
    const ready = await fetch(`${probes}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { database: 'ok', broker: 'ok' } });

    // Refused before any table is read: the probes' database need not hold the webhooks schema.
    const client = createGrpcClient(webhooksV1.WebhooksServiceClient, address, {
      deadlineMs: 5_000,
      tls: (await testIdentity('dashboard-web')).tls,
    });
    await expect(
      client.setEndpoint({ scope: { merchantId: newId('mer'), livemode: false }, url: 'not a url' }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'url' });
    client.close();
    const scraped = await (await fetch(`${probes}/metrics`)).text();
    expect(scraped).toMatch(/grpc_server_handling_seconds_count\{[^}]*grpc_method="SetEndpoint"[^}]*\} 1/);
    // What an on-call watches: nothing waits in a fresh broker (the pending deliveries: event-store.test.ts).
    for (const series of [
      `sika_dead_letter_messages{queue="${names.PAYMENT_EVENTS_QUEUE}",service="webhook-dispatcher"} 0`,
      'sika_db_pool_saturated_total{service="webhook-dispatcher"} 0',
    ]) {
      expect(scraped).toContain(series);
    }
  } finally {
    await stopGracefully(dispatcher);
  }
});
