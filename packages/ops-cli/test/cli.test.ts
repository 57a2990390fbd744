import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import { merchantsV1 } from '@sika/contracts';
import { testIdentity, type TestSchema } from '@sika/testing';

import {
  createMerchantsSchema,
  startMerchants,
  testLogger,
} from '../../../services/merchants/test/support/merchants-server';
import type { RunningMerchants } from '../../../services/merchants/test/support/merchants-server';
import { runSika } from './support/run-sika';
import type { SikaRun } from './support/run-sika';
import { startWebhooksFixture } from './support/webhooks-fixture';
import type { WebhooksFixture } from './support/webhooks-fixture';

/**
 * The CLI as a process against a real merchants service (real gRPC, real Postgres schema), a real gRPC
 * WebhooksService (the fixture: webhook-dispatcher did not exist when this test was written) and payout
 * accounts from a PayoutsService fixture.
 */
// Each run starts a Node process that compiles the CLI's sources: about a second, several on a busy machine.
jest.setTimeout(90_000);

let schema: TestSchema;
let merchants: RunningMerchants;
let webhooks: WebhooksFixture;
let env: Record<string, string>;

beforeAll(async () => {
  schema = await createMerchantsSchema('cli');
  merchants = await startMerchants(schema);
  webhooks = await startWebhooksFixture(testLogger());
  env = {
    MERCHANTS_GRPC_ADDRESS: merchants.address,
    WEBHOOK_DISPATCHER_GRPC_ADDRESS: webhooks.address,
    // The CLI's own certificate from the test CA: the services allow identity cli their operator methods.
    ...(await testIdentity('cli')).env,
  };
});

afterAll(async () => {
  await webhooks?.stop();
  await merchants?.stop();
  await schema?.drop();
});

/** stdout must be exactly one JSON object on one line. */
function jsonOf(run: SikaRun): Record<string, unknown> {
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.stdout.endsWith('\n')).toBe(true);
  expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

async function createMerchant(name: string, extra: string[] = []): Promise<Record<string, unknown>> {
  return jsonOf(await runSika(['merchant:create', '--name', name, ...extra, '--json'], env));
}

const ACTIVATION_DETAILS = {
  legalName: 'Renouvelle SARL',
  registrationNumber: 'CI-ABJ-03-2024-B12-01234',
  contactName: 'Awa Traoré',
  contactEmail: 'awa@renouvelle.example',
  contactPhone: '+225 07 00 00 01 00',
};

/** What the dashboard does before an operator's review: the merchant asks for live mode. */
async function requestActivation(merchantId: string): Promise<void> {
  await merchants.client.requestActivation({ merchantId, ...ACTIVATION_DETAILS });
}

/** A port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('merchant:create prints the merchant, its test key and its test webhook secret as one JSON object', async () => {
  const created = await createMerchant('Boutique Adjoua', ['--webhook-url', 'https://shop.example/hooks']);
  expect(Object.keys(created)).toEqual([
    'merchant_id',
    'name',
    'livemode',
    'secret_key',
    'webhook_secret',
    'webhook_url',
  ]);
  expect(created).toMatchObject({
    name: 'Boutique Adjoua',
    livemode: false,
    webhook_url: 'https://shop.example/hooks',
  });
  expect(created.merchant_id).toMatch(/^mer_[0-9A-Za-z]{24}$/);
  expect(created.secret_key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
  expect(created.webhook_secret).toMatch(/^whsec_/);

  await expect(
    merchants.client.authenticateKey({ secretKey: created.secret_key as string }),
  ).resolves.toEqual({
    merchantId: created.merchant_id,
    livemode: false,
  });
  expect(webhooks.endpoint(created.merchant_id as string, false)).toEqual({
    scope: { merchantId: created.merchant_id, livemode: false },
    url: 'https://shop.example/hooks',
    secret: created.webhook_secret,
  });
});

it('merchant:create without a webhook URL still creates the test endpoint and its secret', async () => {
  const created = await createMerchant('Sans Webhook');
  expect(created.webhook_url).toBeNull();
  expect(created.webhook_secret).toMatch(/^whsec_/);
});

it('merchant:approve opens live mode once asked for, then merchant:renew-key issues a live key', async () => {
  const created = await createMerchant('Renouvelle');
  const merchantId = created.merchant_id as string;
  const renewLive = ['merchant:renew-key', '--merchant', merchantId, '--mode', 'live', '--json'];
  const approve = ['merchant:approve', '--merchant', merchantId, '--json'];

  const early = await runSika(renewLive, env);
  expect(early).toMatchObject({ status: 1, stdout: '' });
  expect(early.stderr).toContain('account_not_activated');

  const unasked = await runSika(approve, env);
  expect(unasked).toEqual({
    status: 1,
    stdout: '',
    stderr: `sika-ops: ${merchantId} has not requested activation: there is nothing to approve\n`,
  });

  await requestActivation(merchantId);
  const { merchant: pending } = await merchants.client.getMerchant({ merchantId });
  expect(pending).toMatchObject({
    liveEnabled: false,
    activation: { status: merchantsV1.ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW },
  });

  // No live payout account is needed (nor possible: its look-up waits for this approval).
  const approved = jsonOf(await runSika(approve, env));
  expect(approved).toMatchObject({
    merchant_id: merchantId,
    live_enabled: true,
    activation: {
      status: 'approved',
      details: { legal_name: 'Renouvelle SARL', contact_phone: '+2250700000100' },
    },
  });
  const again = await runSika(approve, env);
  expect(again).toMatchObject({
    status: 1,
    stderr: `sika-ops: ${merchantId} is already activated for live use\n`,
  });

  const live = jsonOf(await runSika(renewLive, env));
  expect(Object.keys(live)).toEqual(['merchant_id', 'livemode', 'secret_key', 'previous_expires_at']);
  expect(live).toMatchObject({ merchant_id: merchantId, livemode: true });
  expect(live.secret_key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
  await expect(merchants.client.authenticateKey({ secretKey: live.secret_key as string })).resolves.toEqual({
    merchantId,
    livemode: true,
  });

  // The previous test key keeps working for the hour asked, so the merchant's servers can switch.
  const test = jsonOf(
    await runSika(
      [
        'merchant:renew-key',
        ...['--merchant', merchantId, '--mode', 'test', '--expire-previous-after', '3600', '--json'],
      ],
      env,
    ),
  );
  expect(test).toMatchObject({ merchant_id: merchantId, livemode: false });
  const previousExpiresAt = Date.parse(test.previous_expires_at as string);
  expect(previousExpiresAt).toBeGreaterThan(Date.now() + 3_500_000);
  await expect(
    merchants.client.authenticateKey({ secretKey: created.secret_key as string }),
  ).resolves.toEqual({
    merchantId,
    livemode: false,
  });
  await expect(merchants.client.authenticateKey({ secretKey: test.secret_key as string })).resolves.toEqual({
    merchantId,
    livemode: false,
  });

  const shown = jsonOf(await runSika(['merchant:show', '--merchant', merchantId, '--json'], env));
  expect(shown).toMatchObject({
    merchant_id: merchantId,
    name: 'Renouvelle',
    live_enabled: true,
    fee_rule: { rate_bps: 100, fixed_amount: 0 },
    activation: { status: 'approved' },
    secret_keys: [
      { livemode: false, last_four: (test.secret_key as string).slice(-4), expires_at: null },
      {
        livemode: false,
        last_four: (created.secret_key as string).slice(-4),
        expires_at: test.previous_expires_at,
      },
      { livemode: true, last_four: (live.secret_key as string).slice(-4), expires_at: null },
    ],
  });
  expect(JSON.stringify(shown)).not.toContain((live.secret_key as string).slice(8, -4));
});

it('merchant:show prints a new merchant, not requested, with its test key by its last four characters', async () => {
  const created = await createMerchant('Montre');
  const merchantId = created.merchant_id as string;
  const shown = jsonOf(await runSika(['merchant:show', '--merchant', merchantId, '--json'], env));
  expect(Object.keys(shown)).toEqual([
    'merchant_id',
    'name',
    'live_enabled',
    'created_at',
    'fee_rule',
    'activation',
    'secret_keys',
  ]);
  expect(shown).toMatchObject({
    live_enabled: false,
    activation: { status: 'not_requested', requested_at: null, approved_at: null, details: null },
    secret_keys: [{ livemode: false, last_four: (created.secret_key as string).slice(-4) }],
  });

  await requestActivation(merchantId);
  const text = await runSika(['merchant:show', '--merchant', merchantId], env);
  expect({ status: text.status, stderr: text.stderr }).toEqual({ status: 0, stderr: '' });
  expect(text.stdout).toContain(
    `Merchant ${merchantId}: Montre\nLive mode: disabled\nActivation: pending_review`,
  );
  expect(text.stdout).toContain('  Legal name: Renouvelle SARL\n');
  expect(text.stdout).toContain(`  test: …${(created.secret_key as string).slice(-4)} (since `);
});

it('webhook:set changes the URL of a mode, keeping its secret, and gives the other mode its own', async () => {
  const created = await createMerchant('Webhooks', ['--webhook-url', 'https://old.example/h']);
  const merchantId = created.merchant_id as string;
  const [test, live] = await Promise.all([
    runSika(
      ['webhook:set', '--merchant', merchantId, '--mode', 'test', '--url', 'https://new.example/h', '--json'],
      env,
    ),
    runSika(
      [
        'webhook:set',
        '--merchant',
        merchantId,
        '--mode',
        'live',
        '--url',
        'https://live.example/h',
        '--json',
      ],
      env,
    ),
  ]);
  expect(jsonOf(test)).toEqual({
    merchant_id: merchantId,
    livemode: false,
    webhook_url: 'https://new.example/h',
    webhook_secret: created.webhook_secret,
  });
  const liveEndpoint = jsonOf(live);
  expect(liveEndpoint).toMatchObject({
    merchant_id: merchantId,
    livemode: true,
    webhook_url: 'https://live.example/h',
  });
  expect(liveEndpoint.webhook_secret).toMatch(/^whsec_/);
  expect(liveEndpoint.webhook_secret).not.toBe(created.webhook_secret);
});

it('prints a short human-readable form without --json', async () => {
  const run = await runSika(['merchant:create', '--name', 'Lisible'], env);
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  expect(run.stdout).toMatch(/^Merchant mer_[0-9A-Za-z]{24} created: Lisible\n/);
  expect(run.stdout).toMatch(/Test secret key \(shown once, store it now\): sk_test_[0-9A-Za-z]{32}\n/);
  expect(run.stdout).toMatch(/Test webhook secret: whsec_/);
});

it('answers bad arguments with exit status 2 and the usage on stderr, calling no service', async () => {
  const run = await runSika(['merchant:renew-key', '--merchant', 'nope', '--mode', 'live', '--json'], env);
  expect(run.status).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(
    /^sika-ops: --merchant must be a merchant id such as 'mer_…'\n\nUsage: sika-ops <command>/,
  );
});

it('answers a refusal by a service with exit status 1 and its code and message on stderr', async () => {
  const run = await runSika(
    ['merchant:renew-key', '--merchant', 'mer_000000000000000000000000', '--mode', 'test', '--json'],
    env,
  );
  expect(run).toEqual({
    status: 1,
    stdout: '',
    stderr: `sika-ops: merchants at ${merchants.address}: resource_missing: No such merchant: 'mer_000000000000000000000000' (param: merchant_id)\n`,
  });
});

it('says how to finish when the merchant was created but the webhook-dispatcher could not be reached', async () => {
  const unreachable = `127.0.0.1:${await closedPort()}`;
  const run = await runSika(['merchant:create', '--name', 'Moitié', '--json'], {
    ...env,
    WEBHOOK_DISPATCHER_GRPC_ADDRESS: unreachable,
  });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe('');
  const merchantId = /merchant (mer_[0-9A-Za-z]{24}) was created/.exec(run.stderr)?.[1];
  expect(merchantId).toBeDefined();
  expect(run.stderr).toContain(`webhook-dispatcher at ${unreachable}: service_unavailable`);
  // gRPC's own words follow Sika's generic message: the operator sees why the call failed.
  expect(run.stderr).toMatch(/service_unavailable: [^\n]* \(gRPC (UNAVAILABLE|DEADLINE_EXCEEDED): [^\n]+\)/);
  expect(run.stderr).toContain(`sika-ops merchant:renew-key --merchant ${merchantId} --mode test`);
  await expect(merchants.client.getMerchant({ merchantId: merchantId! })).resolves.toMatchObject({
    merchant: { name: 'Moitié' },
  });
});

it("lists the emails recorded for a merchant's account, most recent first, as an operator reads them", async () => {
  const created = await createMerchant('Courrier');
  const merchantId = created['merchant_id'] as string;
  for (const kind of [
    merchantsV1.EmailKind.EMAIL_KIND_WELCOME,
    merchantsV1.EmailKind.EMAIL_KIND_WEBHOOK_SECRET_ROLLED,
  ]) {
    await merchants.client.recordEmail({
      merchantId,
      to: 'awa@courrier.example',
      kind,
      livemode: false,
      sendAfterSeconds: 3600,
    });
  }

  const listed = jsonOf(await runSika(['merchant:emails', '--merchant', merchantId, '--json'], env));
  expect(listed['emails']).toEqual([
    expect.objectContaining({
      merchant_id: merchantId,
      to: 'awa@courrier.example',
      kind: 'webhook_secret_rolled',
      status: 'pending',
      subject: 'Your test webhook secret was rolled',
    }),
    expect.objectContaining({ kind: 'welcome', status: 'pending', sent_at: null }),
  ]);
  const text = await runSika(['merchant:emails', '--merchant', merchantId], env);
  expect(text.status).toBe(0);
  expect(text.stdout).toContain('pending');
  expect(text.stdout).toContain('to awa@courrier.example (webhook_secret_rolled, test)');
});
