import { ledgerV1 } from '@sika/contracts';
import { createGrpcClient, newId } from '@sika/platform';
import { deadLetterQueueName, retryQueueName, SERVICE_EVENTS } from '@sika/messaging';
import {
  createRabbitScope,
  loggedPort,
  resolveInfra,
  spawnService,
  stopGracefully,
  testIdentity,
  waitFor,
} from '@sika/testing';

/** main.ts as its own process: configuration, gRPC, probes and metrics, graceful stop. */

it('refuses to start without DATABASE_URL or AMQP_URL, naming them', async () => {
  const child = await spawnService('ledger', { env: { DATABASE_URL: undefined, AMQP_URL: undefined } });
  expect(await child.exited).toEqual({ code: 1, signal: null });
  expect(child.output()).toContain('DATABASE_URL is missing');
  expect(child.output()).toContain('AMQP_URL is missing');
});

it('serves gRPC, answers probes and metrics, and stops gracefully on SIGTERM', async () => {
  const infra = await resolveInfra();
  const rabbit = await createRabbitScope({ amqpUrl: infra.amqpUrl });
  const prefix = `${rabbit.name('t')}.`;
  for (const { queue } of SERVICE_EVENTS.ledger.consumes) {
    for (const name of [queue, retryQueueName(queue), deadLetterQueueName(queue)])
      rabbit.track(`${prefix}${name}`);
  }
  const ledger = await spawnService('ledger', {
    env: {
      DATABASE_URL: infra.databaseUrl,
      AMQP_URL: infra.amqpUrl,
      EVENTS_EXCHANGE: rabbit.name('ledger-main'),
      DECISION_QUEUE_PREFIX: prefix,
      PAYMENTS_GRPC_ADDRESS: '127.0.0.1:1',
      PAYOUTS_GRPC_ADDRESS: '127.0.0.1:1',
      BOOKS_WATCH_INTERVAL: '1h',
    },
    readyMessage: 'metrics server listening',
  });
  try {
    const address = `127.0.0.1:${await loggedPort(ledger, 'grpc server listening')}`;
    const probes = `http://127.0.0.1:${await loggedPort(ledger, 'metrics server listening')}`;
    await waitFor(async () => (await fetch(`${probes}/readyz`)).status === 200, {
      description: 'ready: database and broker',
    });

    // Refused before any table is read: the probes' database need not hold the ledger schema.
    const client = createGrpcClient(ledgerV1.LedgerServiceClient, address, {
      deadlineMs: 5_000,
      tls: (await testIdentity('payouts')).tls,
    });
    await expect(
      client.reservePayout({ scope: { merchantId: newId('mer'), livemode: false }, payoutId: 'pay_1' }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', param: 'payout_id' });
    client.close();
    const scraped = await (await fetch(`${probes}/metrics`)).text();
    expect(scraped).toMatch(/grpc_server_handling_seconds_count\{[^}]*grpc_method="ReservePayout"[^}]*\} 1/);
    expect(scraped).toContain(
      `sika_dead_letter_messages{queue="${prefix}ledger.payment-credits",service="ledger"} 0`,
    );
    expect(scraped).toContain('sika_db_pool_saturated_total{service="ledger"} 0');
  } finally {
    await stopGracefully(ledger);
    await rabbit.cleanup();
  }
});
