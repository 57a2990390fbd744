import { loggedPort, resolveRedisUrl, spawnService, stopGracefully } from '@sika/testing';

import { pagePathOf, PaymentsStandIn, TEST_CHECKOUT_TOKEN_KEY } from './support/payments-stand-in';

/** main.ts as its own process: configuration, the page against payments over gRPC, graceful stop. */

it('refuses to start without PAYMENTS_GRPC_ADDRESS, naming it', async () => {
  const child = await spawnService('checkout-web', { env: { PAYMENTS_GRPC_ADDRESS: undefined } });

  expect(await child.exited).toEqual({ code: 1, signal: null });
  expect(child.output()).toContain('PAYMENTS_GRPC_ADDRESS is missing');
  // Nor without the key that checks each link's token.
  expect(child.output()).toContain('CHECKOUT_TOKEN_KEY is missing');
});

it('serves the page and ends open event streams at once on SIGTERM', async () => {
  const standIn = new PaymentsStandIn();
  const checkout = await spawnService('checkout-web', {
    env: {
      PAYMENTS_GRPC_ADDRESS: await standIn.start(),
      CHECKOUT_TOKEN_KEY: TEST_CHECKOUT_TOKEN_KEY,
      REDIS_URL: await resolveRedisUrl(),
      // Every test on this machine submits from 127.0.0.1, whose count in Redis outlives each run: this test
      // is about shutdown, not the limit (abuse-limits.test.ts is).
      SUBMISSION_LIMIT: '100000',
    },
    readyMessage: 'checkout-web listening',
  });
  try {
    const baseUrl = `http://127.0.0.1:${await loggedPort(checkout, 'checkout-web listening')}`;
    standIn.bankDelayMs = 60_000;
    const payment = standIn.add();
    const posted = await fetch(`${baseUrl}${pagePathOf(payment.id)}/attempts`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'customer_alias=%2B225+0000000003',
    });
    expect(posted.status).toBe(303);
    const stream = await fetch(`${baseUrl}${pagePathOf(payment.id)}/events`);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('retry: 2000');

    const stoppedAt = Date.now();
    await stopGracefully(checkout, { timeoutMs: 10_000 });
    const streamEnd = await readToEnd(reader);

    expect(Date.now() - stoppedAt).toBeLessThan(3_000);
    expect(streamEnd).toBe('ended');
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
