import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { webhooksV1 } from '@sika/contracts';
import { createGrpcClient, newId } from '@sika/platform';
import {
  createRabbitScope,
  resolveDatabaseUrl,
  spawnProcess,
  type RabbitScope,
  type SpawnedProcess,
} from '@sika/testing';

/** main.ts as its own process: configuration, gRPC, consumer, probes and metrics, graceful stop. */
const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(WORKSPACE_ROOT, 'services/webhook-dispatcher/src/main.ts');

let rabbit: RabbitScope;
let names: { EVENTS_EXCHANGE: string; PAYMENT_EVENTS_QUEUE: string };

beforeAll(async () => {
  rabbit = await createRabbitScope();
  const queue = rabbit.name('webhooks-main.payment-events');
  rabbit.track(`${queue}.retry`);
  rabbit.track(`${queue}.dlq`);
  // Never the real queue: a test process must not take events meant for a running stack.
  names = { EVENTS_EXCHANGE: rabbit.name('webhooks-main.events'), PAYMENT_EVENTS_QUEUE: queue };
});

afterAll(async () => {
  await rabbit.cleanup();
});

async function spawnMain(
  env: Record<string, string | undefined>,
  readyWhen?: (line: string) => boolean,
): Promise<SpawnedProcess> {
  return spawnProcess({
    name: 'webhook-dispatcher',
    command: process.execPath,
    args: ['--import', 'tsx', MAIN],
    cwd: WORKSPACE_ROOT,
    env: {
      TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
      HOST: '127.0.0.1',
      GRPC_PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: await resolveDatabaseUrl(),
      AMQP_URL: rabbit.amqpUrl,
      ...names,
      // Jest's own flags must not leak into the child.
      NODE_OPTIONS: undefined,
      ...env,
    },
    ...(readyWhen && { readyWhen }),
  });
}

function portFromLog(output: string, message: string): number {
  const line = output
    .split('\n')
    .map((prefixed) => prefixed.replace(/^\[webhook-dispatcher\] /, ''))
    .find(
      (candidate) => candidate.startsWith('{') && (JSON.parse(candidate) as { msg?: string }).msg === message,
    );
  if (line === undefined) throw new Error(`no "${message}" line in:\n${output}`);
  return (JSON.parse(line) as { port: number }).port;
}

it('refuses to start without a valid WEBHOOK_SECRET_KEY, naming it and never echoing it', async () => {
  for (const [key, problem] of [
    [undefined, 'WEBHOOK_SECRET_KEY is missing'],
    ['c2hvcnQta2V5', 'WEBHOOK_SECRET_KEY is invalid: expected 32 bytes'],
  ] as const) {
    const child = await spawnMain({ WEBHOOK_SECRET_KEY: key });
    expect(await child.exited).toEqual({ code: 1, signal: null });
    expect(child.output()).toContain(problem);
    expect(child.output()).not.toContain('c2hvcnQta2V5');
  }
});

it('serves gRPC, answers probes and metrics, and stops gracefully on SIGTERM', async () => {
  const dispatcher = await spawnMain({ WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') }, (line) =>
    line.includes('"msg":"metrics server listening"'),
  );
  try {
    const address = `127.0.0.1:${portFromLog(dispatcher.output(), 'grpc server listening')}`;
    const probes = `http://127.0.0.1:${portFromLog(dispatcher.output(), 'metrics server listening')}`;
    const ready = await fetch(`${probes}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { database: 'ok', broker: 'ok' } });

    // Refused before any table is read: the probes' database need not hold the webhooks schema.
    const client = createGrpcClient(webhooksV1.WebhooksServiceClient, address, { deadlineMs: 5_000 });
    await expect(
      client.setEndpoint({ scope: { merchantId: newId('mer'), livemode: false }, url: 'not a url' }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'url' });
    client.close();
    expect(await (await fetch(`${probes}/metrics`)).text()).toMatch(
      /grpc_server_handling_seconds_count\{[^}]*grpc_method="SetEndpoint"[^}]*\} 1/,
    );
  } finally {
    expect(await dispatcher.stop()).toEqual({ code: 0, signal: null });
  }
  expect(dispatcher.output()).toContain('"msg":"shutdown complete"');
});
