import path from 'node:path';
import { ledgerV1 } from '@sika/contracts';
import { createGrpcClient, newId } from '@sika/platform';
import { resolveDatabaseUrl, spawnProcess, type SpawnedProcess } from '@sika/testing';

/** main.ts as its own process: configuration, gRPC, probes and metrics, graceful stop. */
const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(WORKSPACE_ROOT, 'services/ledger/src/main.ts');

function spawnMain(
  env: Record<string, string | undefined>,
  readyWhen?: (line: string) => boolean,
): Promise<SpawnedProcess> {
  return spawnProcess({
    name: 'ledger',
    command: process.execPath,
    args: ['--import', 'tsx', MAIN],
    cwd: WORKSPACE_ROOT,
    env: {
      TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
      HOST: '127.0.0.1',
      GRPC_PORT: '0',
      METRICS_PORT: '0',
      LOG_LEVEL: 'info',
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
    .map((prefixed) => prefixed.replace(/^\[ledger\] /, ''))
    .find(
      (candidate) => candidate.startsWith('{') && (JSON.parse(candidate) as { msg?: string }).msg === message,
    );
  if (line === undefined) throw new Error(`no "${message}" line in:\n${output}`);
  return (JSON.parse(line) as { port: number }).port;
}

it('refuses to start without DATABASE_URL, naming it', async () => {
  const child = await spawnMain({ DATABASE_URL: undefined });
  expect(await child.exited).toEqual({ code: 1, signal: null });
  expect(child.output()).toContain('DATABASE_URL is missing');
});

it('serves gRPC, answers probes and metrics, and stops gracefully on SIGTERM', async () => {
  const ledger = await spawnMain({ DATABASE_URL: await resolveDatabaseUrl() }, (line) =>
    line.includes('"msg":"metrics server listening"'),
  );
  try {
    const address = `127.0.0.1:${portFromLog(ledger.output(), 'grpc server listening')}`;
    const probes = `http://127.0.0.1:${portFromLog(ledger.output(), 'metrics server listening')}`;
    const ready = await fetch(`${probes}/readyz`);
    expect(ready.status).toBe(200);

    // Refused before any table is read: the probes' database need not hold the ledger schema.
    const client = createGrpcClient(ledgerV1.LedgerServiceClient, address, { deadlineMs: 5_000 });
    await expect(
      client.postPaymentCredit({
        scope: { merchantId: newId('mer'), livemode: false },
        paymentId: newId('pay'),
        amount: 0n,
        feeAmount: 0n,
      }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount' });
    client.close();
    expect(await (await fetch(`${probes}/metrics`)).text()).toMatch(
      /grpc_server_handling_seconds_count\{[^}]*grpc_method="PostPaymentCredit"[^}]*\} 1/,
    );
  } finally {
    expect(await ledger.stop()).toEqual({ code: 0, signal: null });
  }
  expect(ledger.output()).toContain('"msg":"shutdown complete"');
});
