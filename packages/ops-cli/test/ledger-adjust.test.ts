import { testIdentity, type TestSchema } from '@sika/testing';

import {
  createMerchantsSchema,
  startMerchants,
  type RunningMerchants,
} from '../../../services/merchants/test/support/merchants-server';
import { startLedger, type LedgerHarness } from '../../../services/ledger/test/support';
import { runSika, type SikaRun } from './support/run-sika';

/**
 * `sika ledger:adjust` as a process against a real ledger and a real merchants service (real gRPC over mutual
 * TLS, real Postgres schemas).
 */
// Each run starts a Node process that compiles the CLI's sources: about a second, several on a busy machine.
jest.setTimeout(90_000);

let schema: TestSchema;
let merchants: RunningMerchants;
let ledger: LedgerHarness;
let env: Record<string, string>;
let merchantId: string;

beforeAll(async () => {
  schema = await createMerchantsSchema('cli_adjust');
  merchants = await startMerchants(schema);
  ledger = await startLedger();
  env = {
    MERCHANTS_GRPC_ADDRESS: merchants.address,
    LEDGER_GRPC_ADDRESS: ledger.address,
    SIKA_OPERATOR: 'awa',
    ...(await testIdentity('cli')).env,
  };
  const created = await merchants.client.createMerchant({ name: 'Boutique Adjoua' });
  merchantId = created.merchant?.id ?? '';
  await ledger.credit({ merchantId, livemode: false }, 10_000n, 100n, 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf');
});

afterAll(async () => {
  await ledger?.close();
  await merchants?.stop();
  await schema?.drop();
});

const adjust = (amount: string, key: string, extra: string[] = []) =>
  runSika(
    [
      'ledger:adjust',
      '--merchant',
      merchantId,
      '--mode',
      'test',
      '--amount',
      amount,
      '--reason',
      'Fee charged twice on pay_3kTMd9Qx0bW7vYcN1LzR8aPf',
      '--idempotency-key',
      key,
      ...extra,
    ],
    env,
  );

function jsonOf(run: SikaRun): Record<string, unknown> {
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

const available = async () =>
  (await ledger.client.getBalance({ scope: { merchantId, livemode: false } })).balance?.available;

it('posts an adjustment once per key and prints it; the merchant sees it among its movements', async () => {
  const posted = jsonOf(await adjust('-500', 'ticket-4521', ['--json']));
  expect(posted).toEqual({
    adjustment_id: expect.stringMatching(/^adj_[A-Za-z0-9]{24}$/),
    merchant_id: merchantId,
    livemode: false,
    amount: -500,
    reason: 'Fee charged twice on pay_3kTMd9Qx0bW7vYcN1LzR8aPf',
    requested_by: 'awa',
    idempotency_key: 'ticket-4521',
    created_at: ledger.clock.now().toISOString(),
    balance_transaction_id: expect.stringMatching(/^txn_/),
    created: true,
  });
  expect(await available()).toBe(9_400n);

  const repeated = jsonOf(await adjust('-500', 'ticket-4521', ['--json', '--operator', 'kofi']));
  expect(repeated).toEqual({ ...posted, created: false });
  expect(await available()).toBe(9_400n);

  const { balanceTransactions } = await ledger.client.listBalanceTransactions({
    scope: { merchantId, livemode: false },
    page: undefined,
    type: 0,
  });
  expect(balanceTransactions[0]).toMatchObject({
    id: posted.balance_transaction_id,
    amount: -500n,
    sourceId: posted.adjustment_id,
  });
});

it('prints a readable account of what it did without --json', async () => {
  const run = await adjust('250', 'ticket-4522');
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.stdout).toMatch(
    new RegExp(
      `^Adjustment adj_\\w{24} posted: 250 XOF on the test available balance of ${merchantId} \\(movement txn_\\w{24}\\)\\.\n` +
        'Reason: Fee charged twice on pay_3kTMd9Qx0bW7vYcN1LzR8aPf\n' +
        'Requested by awa at .+, idempotency key ticket-4522\n$',
    ),
  );
});

it('refuses, writing nothing, an adjustment that would make the available balance negative', async () => {
  const before = await available();
  const run = await adjust(`-${(before ?? 0n) + 1n}`, 'ticket-4523');
  expect(run).toEqual({
    status: 1,
    stdout: '',
    stderr:
      `sika-ops: ledger at ${ledger.address}: balance_insufficient: The adjustment (-${(before ?? 0n) + 1n}) would ` +
      `make the available balance (${before}) negative: at most ${before} can be taken from it. (param: amount)\n`,
  });
  expect(await available()).toBe(before);
});

it('refuses a key used for another adjustment, and a merchant that does not exist', async () => {
  await ledger.client.postAdjustment({
    scope: { merchantId, livemode: false },
    amount: -1n,
    reason: 'Fee charged twice on pay_3kTMd9Qx0bW7vYcN1LzR8aPf',
    idempotencyKey: 'ticket-4525',
    requestedBy: 'kofi',
  });
  const reused = await adjust('-499', 'ticket-4525');
  expect(reused).toMatchObject({ status: 1, stdout: '' });
  expect(reused.stderr).toMatch(/^sika-ops: ledger at [^:]+:\d+: idempotency_key_reused: /);

  const unknown = await runSika(
    [
      'ledger:adjust',
      '--merchant',
      'mer_000000000000000000000000',
      '--mode',
      'test',
      '--amount',
      '100',
      '--reason',
      'Typo',
      '--idempotency-key',
      'ticket-4524',
    ],
    env,
  );
  expect(unknown).toMatchObject({ status: 1, stdout: '' });
  expect(unknown.stderr).toMatch(/^sika-ops: merchants at [^:]+:\d+: resource_missing: /);
  const rows = await ledger.db.query("SELECT 1 FROM adjustments WHERE idempotency_key = 'ticket-4524'");
  expect(rows).toEqual([]);
});

it('asks who the operator is when neither --operator nor SIKA_OPERATOR says it, calling nothing', async () => {
  const run = await runSika(
    [
      'ledger:adjust',
      '--merchant',
      merchantId,
      '--mode',
      'test',
      '--amount',
      '1',
      '--reason',
      'r',
      '--idempotency-key',
      'k',
    ],
    { ...env, SIKA_OPERATOR: '' },
  );
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(
    /^sika-ops: --operator is required \(or set SIKA_OPERATOR\): who asks for the adjustment\n/,
  );
});
