import { merchantsV1 } from '@sika/contracts';
import { createGrpcClient } from '@sika/platform';
import {
  grpcHealthStatus,
  loggedPort,
  resolveDatabaseUrl,
  spawnService,
  stopGracefully,
  testIdentity,
} from '@sika/testing';

import { TEST_PEPPER } from './support/merchants-server';

/** main.ts as its own process: configuration, gRPC with grpc.health.v1, probes and metrics, graceful stop. */
// Each test starts main.ts through tsx: a few seconds on a busy machine.
jest.setTimeout(30_000);

it('refuses to start without a pepper of at least 32 characters, naming the variable', async () => {
  const databaseUrl = await resolveDatabaseUrl();
  for (const [pepper, problem] of [
    [undefined, 'API_KEY_PEPPER is missing'],
    ['too-short', 'API_KEY_PEPPER is invalid: must be at least 32 characters'],
  ] as const) {
    const child = await spawnService('merchants', {
      env: { DATABASE_URL: databaseUrl, API_KEY_PEPPER: pepper },
    });
    expect(await child.exited).toEqual({ code: 1, signal: null });
    expect(child.output()).toContain(problem);
    expect(child.output()).not.toContain('too-short');
  }
});

it('serves gRPC with health, answers probes and metrics, and stops gracefully on SIGTERM', async () => {
  const merchants = await spawnService('merchants', {
    env: { DATABASE_URL: await resolveDatabaseUrl(), API_KEY_PEPPER: TEST_PEPPER },
    readyMessage: 'metrics server listening',
  });
  try {
    const address = `127.0.0.1:${await loggedPort(merchants, 'grpc server listening')}`;
    const probes = `http://127.0.0.1:${await loggedPort(merchants, 'metrics server listening')}`;

    expect(await grpcHealthStatus(address, '')).toBe('SERVING');
    expect(await grpcHealthStatus(address, 'sika.merchants.v1.MerchantsService')).toBe('SERVING');

    const ready = await fetch(`${probes}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { database: 'ok' } });
    expect((await fetch(`${probes}/healthz`)).status).toBe(200);

    // A call that needs no table: the probes' database may not hold the merchants schema.
    const client = createGrpcClient(merchantsV1.MerchantsServiceClient, address, {
      deadlineMs: 5_000,
      tls: (await testIdentity('gateway')).tls,
    });
    await expect(client.authenticateKey({ secretKey: 'sk_test_nope' })).rejects.toMatchObject({
      code: 'api_key_invalid',
    });
    client.close();
    expect(await (await fetch(`${probes}/metrics`)).text()).toMatch(
      /grpc_server_handling_seconds_count\{[^}]*grpc_method="AuthenticateKey"[^}]*\} 1/,
    );
  } finally {
    await stopGracefully(merchants);
  }
});
