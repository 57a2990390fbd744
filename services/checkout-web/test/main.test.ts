import path from 'node:path';

import { spawnProcess } from '@sika/testing';
import type { SpawnedProcess } from '@sika/testing';

import { PaymentsStandIn } from './support/payments-stand-in';

/** main.ts as its own process: configuration, the page against payments over gRPC, graceful stop. */
const WORKSPACE_ROOT = path.resolve(__dirname, '../../..');
const MAIN = path.join(WORKSPACE_ROOT, 'services/checkout-web/src/main.ts');

function spawnMain(env: Record<string, string | undefined>, ready = true): Promise<SpawnedProcess> {
  return spawnProcess({
    name: 'checkout-web',
    command: process.execPath,
    args: ['--import', 'tsx', MAIN],
    cwd: WORKSPACE_ROOT,
    env: {
      TSX_TSCONFIG_PATH: path.join(WORKSPACE_ROOT, 'tsconfig.test.json'),
      HOST: '127.0.0.1',
      HTTP_PORT: '0',
      LOG_LEVEL: 'info',
      // Jest's own flags must not leak into the child.
      NODE_OPTIONS: undefined,
      ...env,
    },
    ...(ready && { readyWhen: (line: string) => line.includes('"msg":"checkout-web listening"') }),
  });
}

function portFromLog(output: string): number {
  const line = output
    .split('\n')
    .map((prefixed) => prefixed.replace(/^\[checkout-web\] /, ''))
    .find((candidate) => candidate.includes('"msg":"checkout-web listening"'));
  if (line === undefined) throw new Error(`no listening line in:\n${output}`);
  return (JSON.parse(line) as { port: number }).port;
}

it('refuses to start without PAYMENTS_GRPC_ADDRESS, naming it', async () => {
  const child = await spawnMain({ PAYMENTS_GRPC_ADDRESS: undefined }, false);

  expect(await child.exited).toEqual({ code: 1, signal: null });
  expect(child.output()).toContain('PAYMENTS_GRPC_ADDRESS is missing');
});

it('serves the page and ends open event streams at once on SIGTERM', async () => {
  const standIn = new PaymentsStandIn();
  const checkout = await spawnMain({ PAYMENTS_GRPC_ADDRESS: await standIn.start() });
  try {
    const baseUrl = `http://127.0.0.1:${portFromLog(checkout.output())}`;
    standIn.bankDelayMs = 60_000;
    const payment = standIn.add();
    const posted = await fetch(`${baseUrl}/pay/${payment.id}/attempts`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'customer_alias=%2B225+0000000003',
    });
    expect(posted.status).toBe(303);
    const stream = await fetch(`${baseUrl}/pay/${payment.id}/events`);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry: 2000');

    const stoppedAt = Date.now();
    const exit = await checkout.stop({ timeoutMs: 10_000 });
    const streamEnd = await readToEnd(reader);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - stoppedAt).toBeLessThan(3_000);
    expect(streamEnd).toBe('ended');
    expect(checkout.output()).toContain('"msg":"shutdown complete"');
  } finally {
    await standIn.stop();
  }
});

async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<'ended' | 'failed'> {
  try {
    while (!(await reader.read()).done);
    return 'ended';
  } catch {
    return 'failed';
  }
}
