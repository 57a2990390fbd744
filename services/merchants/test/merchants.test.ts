import { createHmac } from 'node:crypto';

import { status as GrpcStatus } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { AppError } from '@sika/platform';
import type { TestSchema } from '@sika/testing';

import { createMerchantsSchema, startMerchants, TEST_PEPPER } from './support/merchants-server';
import type { RunningMerchants } from './support/merchants-server';

/** The merchants service over real gRPC, on a real Postgres schema with its committed migrations. */
let schema: TestSchema;
let merchants: RunningMerchants;

beforeAll(async () => {
  schema = await createMerchantsSchema('merchants');
  merchants = await startMerchants(schema);
});

afterAll(async () => {
  await merchants?.stop();
  await schema?.drop();
});

async function createMerchant(name = 'Boutique Adjoua'): Promise<{ merchantId: string; testKey: string }> {
  const response = await merchants.client.createMerchant({ name });
  return { merchantId: response.merchant!.id, testKey: response.testSecretKey };
}

/** The AppError a failed call was turned back into, with the gRPC status it travelled as. */
async function failure(call: Promise<unknown>): Promise<{ code: string; param?: string; status: number }> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  return {
    code: appError.code,
    ...(appError.param === undefined ? {} : { param: appError.param }),
    status: (appError.cause as ServiceError).code,
  };
}

describe('CreateMerchant', () => {
  it('creates a merchant with the default fee rule and a test key that authenticates', async () => {
    const response = await merchants.client.createMerchant({ name: '  Boutique Adjoua  ' });
    const merchant = response.merchant!;
    expect(merchant.id).toMatch(/^mer_[0-9A-Za-z]{24}$/);
    expect(merchant).toMatchObject({
      name: 'Boutique Adjoua',
      feeRule: { rateBps: 100, fixedAmount: 0n },
      liveEnabled: false,
    });
    expect(merchant.createdAt).toBeInstanceOf(Date);
    expect(response.testSecretKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);

    await expect(merchants.client.authenticateKey({ secretKey: response.testSecretKey })).resolves.toEqual({
      merchantId: merchant.id,
      livemode: false,
    });
    await expect(merchants.client.getMerchant({ merchantId: merchant.id })).resolves.toEqual({ merchant });
  });

  it.each([
    ['', 'name'],
    ['   ', 'name'],
    ['x'.repeat(101), 'name'],
    ['tab\there', 'name'],
  ])('refuses the name %j as parameter_invalid', async (name, param) => {
    expect(await failure(merchants.client.createMerchant({ name }))).toEqual({
      code: 'parameter_invalid',
      param,
      status: GrpcStatus.INVALID_ARGUMENT,
    });
  });

  it('accepts 100 characters, counted as a person reads them', async () => {
    const name = 'é'.repeat(99) + '🙂';
    const response = await merchants.client.createMerchant({ name });
    expect(response.merchant!.name).toBe(name);
  });
});

describe('RenewSecretKey', () => {
  it('revokes the old test key and issues a new one that works', async () => {
    const { merchantId, testKey } = await createMerchant();
    const { secretKey } = await merchants.client.renewSecretKey({ merchantId, livemode: false });
    expect(secretKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(secretKey).not.toBe(testKey);

    expect(await failure(merchants.client.authenticateKey({ secretKey: testKey }))).toEqual({
      code: 'api_key_invalid',
      status: GrpcStatus.UNAUTHENTICATED,
    });
    await expect(merchants.client.authenticateKey({ secretKey })).resolves.toEqual({
      merchantId,
      livemode: false,
    });

    const keys = await schema.query<{ livemode: boolean; active: boolean }>(
      'SELECT livemode, revoked_at IS NULL AS active FROM secret_keys WHERE merchant_id = $1 ORDER BY created_at',
      [merchantId],
    );
    expect(keys).toEqual([
      { livemode: false, active: false },
      { livemode: false, active: true },
    ]);
  });

  it('issues a live key that authenticates as live, enables live mode and leaves the test key alone', async () => {
    const { merchantId, testKey } = await createMerchant();
    const { secretKey: liveKey } = await merchants.client.renewSecretKey({ merchantId, livemode: true });
    expect(liveKey).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);

    await expect(merchants.client.authenticateKey({ secretKey: liveKey })).resolves.toEqual({
      merchantId,
      livemode: true,
    });
    await expect(merchants.client.authenticateKey({ secretKey: testKey })).resolves.toEqual({
      merchantId,
      livemode: false,
    });
    const { merchant } = await merchants.client.getMerchant({ merchantId });
    expect(merchant!.liveEnabled).toBe(true);
  });

  it('refuses live keys while live mode is disabled for the merchant', async () => {
    const { merchantId } = await createMerchant();
    const { secretKey: liveKey } = await merchants.client.renewSecretKey({ merchantId, livemode: true });
    await schema.query('UPDATE merchants SET live_enabled = false WHERE id = $1', [merchantId]);
    expect((await failure(merchants.client.authenticateKey({ secretKey: liveKey }))).code).toBe(
      'api_key_invalid',
    );
  });

  it('keeps exactly one active key per mode under concurrent renewals', async () => {
    const { merchantId } = await createMerchant();
    const renewed = await Promise.all(
      Array.from({ length: 5 }, () => merchants.client.renewSecretKey({ merchantId, livemode: false })),
    );
    const outcomes = await Promise.allSettled(
      renewed.map(({ secretKey }) => merchants.client.authenticateKey({ secretKey })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const [active] = await schema.query<{ count: string }>(
      'SELECT count(*) FROM secret_keys WHERE merchant_id = $1 AND NOT livemode AND revoked_at IS NULL',
      [merchantId],
    );
    expect(active!.count).toBe('1');
  });

  it('answers resource_missing for an unknown merchant and parameter_invalid for a malformed id', async () => {
    expect(
      await failure(
        merchants.client.renewSecretKey({ merchantId: 'mer_000000000000000000000000', livemode: false }),
      ),
    ).toEqual({ code: 'resource_missing', param: 'merchant_id', status: GrpcStatus.NOT_FOUND });
    expect(await failure(merchants.client.renewSecretKey({ merchantId: 'pay_123', livemode: true }))).toEqual(
      {
        code: 'parameter_invalid',
        param: 'merchant_id',
        status: GrpcStatus.INVALID_ARGUMENT,
      },
    );
  });
});

describe('AuthenticateKey', () => {
  it.each([
    '',
    'sk_test_',
    'Bearer sk_test_abc',
    `sk_test_${'a'.repeat(31)}`,
    `sk_test_${'a'.repeat(33)}`,
    `sk_prod_${'a'.repeat(32)}`,
    `sk_test_${'a'.repeat(31)}!`,
    `sk_test_${'a'.repeat(32)}`,
    `sk_live_${'a'.repeat(32)}`,
  ])('refuses the malformed or unknown key %j as api_key_invalid', async (secretKey) => {
    expect(await failure(merchants.client.authenticateKey({ secretKey }))).toEqual({
      code: 'api_key_invalid',
      status: GrpcStatus.UNAUTHENTICATED,
    });
  });

  it('refuses a test key turned into a live one by its prefix', async () => {
    const { testKey } = await createMerchant();
    const forged = testKey.replace('sk_test_', 'sk_live_');
    expect((await failure(merchants.client.authenticateKey({ secretKey: forged }))).code).toBe(
      'api_key_invalid',
    );
  });
});

describe('key storage', () => {
  it('stores only the peppered hash and the last four characters, never the key', async () => {
    const { merchantId, testKey } = await createMerchant('Stockage Clés');
    const { secretKey: liveKey } = await merchants.client.renewSecretKey({ merchantId, livemode: true });

    const rows = await schema.query<{ livemode: boolean; hash: string; suffix: string }>(
      'SELECT livemode, hash, suffix FROM secret_keys WHERE merchant_id = $1 ORDER BY livemode',
      [merchantId],
    );
    const hmac = (key: string): string => createHmac('sha256', TEST_PEPPER).update(key).digest('hex');
    expect(rows).toEqual([
      { livemode: false, hash: hmac(testKey), suffix: testKey.slice(-4) },
      { livemode: true, hash: hmac(liveKey), suffix: liveKey.slice(-4) },
    ]);

    // Every column of every table, as text: neither key nor its random part appears anywhere.
    const dump = JSON.stringify([
      await schema.query('SELECT * FROM merchants'),
      await schema.query('SELECT * FROM secret_keys'),
    ]);
    for (const key of [testKey, liveKey]) {
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.slice(8, 36));
    }
  });

  it('invalidates every key when the pepper changes', async () => {
    const { merchantId, testKey } = await createMerchant();
    const otherPepper = await startMerchants(schema, `${TEST_PEPPER}-rotated`);
    try {
      expect((await failure(otherPepper.client.authenticateKey({ secretKey: testKey }))).code).toBe(
        'api_key_invalid',
      );
      await expect(merchants.client.authenticateKey({ secretKey: testKey })).resolves.toEqual({
        merchantId,
        livemode: false,
      });
    } finally {
      await otherPepper.stop();
    }
  });
});

describe('GetMerchant', () => {
  it('answers resource_missing for an unknown merchant', async () => {
    expect(
      await failure(merchants.client.getMerchant({ merchantId: 'mer_000000000000000000000000' })),
    ).toEqual({
      code: 'resource_missing',
      param: 'merchant_id',
      status: GrpcStatus.NOT_FOUND,
    });
  });
});
