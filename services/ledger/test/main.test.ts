import { ledgerV1 } from '@sika/contracts';
import { createGrpcClient, newId } from '@sika/platform';
import { loggedPort, resolveDatabaseUrl, spawnService, stopGracefully, testIdentity } from '@sika/testing';

/** main.ts as its own process: configuration, gRPC, probes and metrics, graceful stop. */

it('refuses to start without DATABASE_URL, naming it', async () => {
  const child = await spawnService('ledger', { env: { DATABASE_URL: undefined } });
  expect(await child.exited).toEqual({ code: 1, signal: null });
  expect(child.output()).toContain('DATABASE_URL is missing');
});

it('serves gRPC, answers probes and metrics, and stops gracefully on SIGTERM', async () => {
  const ledger = await spawnService('ledger', {
    env: { DATABASE_URL: await resolveDatabaseUrl() },
    readyMessage: 'metrics server listening',
  });
  try {
    const address = `127.0.0.1:${await loggedPort(ledger, 'grpc server listening')}`;
    const probes = `http://127.0.0.1:${await loggedPort(ledger, 'metrics server listening')}`;
    const ready = await fetch(`${probes}/readyz`);
    expect(ready.status).toBe(200);

    // Refused before any table is read: the probes' database need not hold the ledger schema.
    const client = createGrpcClient(ledgerV1.LedgerServiceClient, address, {
      deadlineMs: 5_000,
      tls: (await testIdentity('payments')).tls,
    });
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
    await stopGracefully(ledger);
  }
});
