import { testIdentity } from '@sika/testing';

import { Harness } from '../../../services/payments/test/support/harness';
import { connectServices, type Services } from '../src/services';

/**
 * The CLI's clients against a real payments service (real gRPC with mutual TLS, real Postgres) whose audit
 * answer is larger than gRPC's default limit of 4 MiB: the audit reads every succeeded payment's id.
 */
jest.setTimeout(120_000);

const SUCCEEDED = 200_000;

let harness: Harness;
let services: Services;

beforeAll(async () => {
  harness = await Harness.start('audit_answers');
  const unused = '127.0.0.1:9';
  services = connectServices(
    {
      payments: `127.0.0.1:${harness.service.grpc.port}`,
      merchants: unused,
      ledger: unused,
      webhookDispatcher: unused,
      payouts: unused,
      simulatorUrl: `http://${unused}`,
    },
    (await testIdentity('cli')).tls,
  );
});

afterAll(async () => {
  services?.close();
  await harness?.close();
});

it("reads an audit answer larger than gRPC's default limit (4 MiB)", async () => {
  await harness.db.query(
    `INSERT INTO payments (id, merchant_id, livemode, status, amount, currency, mode, fee_rate_bps,
                           fee_fixed_amount, return_url, checkout_url, expires_at, created_at, updated_at)
     SELECT 'pay_' || lpad(n::text, 24, '0'), 'mer_audit', false, 'succeeded', 1000, 'XOF', 'immediate', 150,
            25, 'https://shop.example/return', 'https://checkout.example/pay', now(), now(), now()
       FROM generate_series(1, $1::integer) AS n`,
    [SUCCEEDED],
  );

  const audit = await services.auditPayments(false);

  expect(audit.succeededPaymentIds).toHaveLength(SUCCEEDED);
  expect(new Set(audit.succeededPaymentIds).size).toBe(SUCCEEDED);
});
