import path from 'node:path';

import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import type { Client, ServiceError } from '@grpc/grpc-js';
import { merchantsV1 } from '@sika/contracts';
import { createGrpcClient } from '@sika/platform';
import { resolveDatabaseUrl, spawnProcess } from '@sika/testing';
import type { SpawnedProcess } from '@sika/testing';
import { service as healthService } from 'grpc-health-check';

import { TEST_PEPPER } from './support/merchants-server';

/** main.ts as its own process: configuration, gRPC with grpc.health.v1, probes and metrics, graceful stop. */
// Each test starts main.ts through tsx: a few seconds on a busy machine.
jest.setTimeout(30_000);

const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(WORKSPACE_ROOT, 'services/merchants/src/main.ts');

function spawnMain(
  env: Record<string, string | undefined>,
  readyWhen?: (line: string) => boolean,
): Promise<SpawnedProcess> {
  return spawnProcess({
    name: 'merchants',
    command: process.execPath,
    args: ['--import', 'tsx', MAIN],
    cwd: WORKSPACE_ROOT,
    env: {
      TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
      HOST: '127.0.0.1',
      GRPC_PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
      // Jest's own flag must not leak into the child.
      NODE_OPTIONS: undefined,
      ...env,
    },
    ...(readyWhen === undefined ? {} : { readyWhen }),
  });
}

function portFromLog(output: string, message: string): number {
  const line = output
    .split('\n')
    .map((prefixed) => prefixed.replace(/^\[merchants\] /, ''))
    .find(
      (candidate) => candidate.startsWith('{') && (JSON.parse(candidate) as { msg?: string }).msg === message,
    );
  if (line === undefined) throw new Error(`no "${message}" line in:\n${output}`);
  return (JSON.parse(line) as { port: number }).port;
}

interface HealthClient extends Client {
  check(
    request: { service: string },
    callback: (error: ServiceError | null, response: { status: string }) => void,
  ): void;
}
const HealthClientConstructor = makeGenericClientConstructor(healthService, 'grpc.health.v1.Health');

function healthStatus(address: string, service: string): Promise<string> {
  const health = new HealthClientConstructor(
    address,
    credentials.createInsecure(),
  ) as unknown as HealthClient;
  return new Promise<string>((resolve, reject) => {
    health.check({ service }, (error, response) => (error ? reject(error) : resolve(response.status)));
  }).finally(() => health.close());
}

it('refuses to start without a pepper of at least 32 characters, naming the variable', async () => {
  const databaseUrl = await resolveDatabaseUrl();
  for (const [pepper, problem] of [
    [undefined, 'API_KEY_PEPPER is missing'],
    ['too-short', 'API_KEY_PEPPER is invalid: must be at least 32 characters'],
  ] as const) {
    const child = await spawnMain({ DATABASE_URL: databaseUrl, API_KEY_PEPPER: pepper });
    expect(await child.exited).toEqual({ code: 1, signal: null });
    expect(child.output()).toContain(problem);
    expect(child.output()).not.toContain('too-short');
  }
});

it('serves gRPC with health, answers probes and metrics, and stops gracefully on SIGTERM', async () => {
  const merchants = await spawnMain(
    { DATABASE_URL: await resolveDatabaseUrl(), API_KEY_PEPPER: TEST_PEPPER },
    (line) => line.includes('"msg":"metrics server listening"'),
  );
  try {
    const address = `127.0.0.1:${portFromLog(merchants.output(), 'grpc server listening')}`;
    const probes = `http://127.0.0.1:${portFromLog(merchants.output(), 'metrics server listening')}`;

    expect(await healthStatus(address, '')).toBe('SERVING');
    expect(await healthStatus(address, 'sika.merchants.v1.MerchantsService')).toBe('SERVING');

    const ready = await fetch(`${probes}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { database: 'ok' } });
    expect((await fetch(`${probes}/healthz`)).status).toBe(200);

    // A call that needs no table: the probes' database may not hold the merchants schema.
    const client = createGrpcClient(merchantsV1.MerchantsServiceClient, address, { deadlineMs: 5_000 });
    await expect(client.authenticateKey({ secretKey: 'sk_test_nope' })).rejects.toMatchObject({
      code: 'api_key_invalid',
    });
    client.close();
    expect(await (await fetch(`${probes}/metrics`)).text()).toMatch(
      /grpc_server_handling_seconds_count\{[^}]*grpc_method="AuthenticateKey"[^}]*\} 1/,
    );
  } finally {
    expect(await merchants.stop()).toEqual({ code: 0, signal: null });
  }
  expect(merchants.output()).toContain('"msg":"shutdown complete"');
});
