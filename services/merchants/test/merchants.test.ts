import { createHmac } from 'node:crypto';

import { status as GrpcStatus } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { AppError } from '@sika/platform';
import { merchantsV1 } from '@sika/contracts';
import type { TestSchema } from '@sika/testing';

import { createMerchantsSchema, startMerchants, TEST_PEPPER } from './support/merchants-server';
import type { RunningMerchants } from './support/merchants-server';

const { ActivationStatus } = merchantsV1;

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

const DETAILS = {
  legalName: 'Boutique Adjoua SARL',
  registrationNumber: 'CI-ABJ-03-2024-B12-01234',
  contactName: 'Adjoua Konan',
  contactEmail: 'adjoua@boutique.example',
  contactPhone: '+225 07 00 00 01 00',
};

/** The go-live path: the merchant asks, an operator approves; live keys can then be issued. */
async function activate(merchantId: string): Promise<void> {
  await merchants.client.requestActivation({ merchantId, ...DETAILS });
  await merchants.client.approveActivation({ merchantId });
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
      activation: {
        status: ActivationStatus.ACTIVATION_STATUS_NOT_REQUESTED,
        legalName: '',
        registrationNumber: '',
        contactName: '',
        contactEmail: '',
        contactPhone: '',
        requestedAt: undefined,
        approvedAt: undefined,
      },
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

  it('issues a live key once activated: it authenticates as live and leaves the test key alone', async () => {
    const { merchantId, testKey } = await createMerchant();
    await activate(merchantId);
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
  });

  it('refuses a live key before the activation is approved, and issues none', async () => {
    const { merchantId } = await createMerchant();
    const refusal = {
      code: 'account_not_activated',
      param: 'livemode',
      status: GrpcStatus.FAILED_PRECONDITION,
    };
    expect(await failure(merchants.client.renewSecretKey({ merchantId, livemode: true }))).toEqual(refusal);
    await merchants.client.requestActivation({ merchantId, ...DETAILS });
    expect(await failure(merchants.client.renewSecretKey({ merchantId, livemode: true }))).toEqual(refusal);

    const live = await schema.query('SELECT 1 FROM secret_keys WHERE merchant_id = $1 AND livemode', [
      merchantId,
    ]);
    expect(live).toEqual([]);
    const { merchant } = await merchants.client.getMerchant({ merchantId });
    expect(merchant!.liveEnabled).toBe(false);
  });

  it('refuses live keys while live mode is disabled for the merchant', async () => {
    const { merchantId } = await createMerchant();
    await activate(merchantId);
    const { secretKey: liveKey } = await merchants.client.renewSecretKey({ merchantId, livemode: true });
    await schema.query('UPDATE merchants SET live_enabled = false WHERE id = $1', [merchantId]);
    expect((await failure(merchants.client.authenticateKey({ secretKey: liveKey }))).code).toBe(
      'api_key_invalid',
    );
  });

  it('keeps the replaced key working for the overlap asked, up to 7 days, and lists when it stops', async () => {
    const { merchantId, testKey } = await createMerchant();
    const before = Date.now();
    const first = await merchants.client.renewSecretKey({
      merchantId,
      livemode: false,
      expirePreviousAfterSeconds: 3_600,
    });
    const expiresAt = first.previousExpiresAt!.getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expiresAt).toBeLessThan(Date.now() + 3_600_000 + 1_000);
    for (const secretKey of [testKey, first.secretKey]) {
      await expect(merchants.client.authenticateKey({ secretKey })).resolves.toEqual({
        merchantId,
        livemode: false,
      });
    }
    const { keys } = await merchants.client.listSecretKeys({ merchantId });
    expect(keys.map((key) => [key.lastFour, key.expiresAt?.getTime()])).toEqual([
      [first.secretKey.slice(-4), undefined],
      [testKey.slice(-4), expiresAt],
    ]);

    // A renewal that stops the previous key at once stops any older overlap as well.
    const second = await merchants.client.renewSecretKey({ merchantId, livemode: false });
    expect(second.previousExpiresAt).toBeUndefined();
    for (const secretKey of [testKey, first.secretKey]) {
      expect(await failure(merchants.client.authenticateKey({ secretKey }))).toMatchObject({
        code: 'api_key_invalid',
      });
    }
    expect((await merchants.client.listSecretKeys({ merchantId })).keys).toHaveLength(1);

    const tooLong = await failure(
      merchants.client.renewSecretKey({ merchantId, livemode: false, expirePreviousAfterSeconds: 604_801 }),
    );
    expect(tooLong).toMatchObject({ code: 'parameter_invalid' });
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
    await activate(merchantId);
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
      await schema.query('SELECT * FROM activations'),
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

describe('ListSecretKeys', () => {
  it('lists the active key of each mode by its last four characters, never the key or its hash', async () => {
    const { merchantId, testKey } = await createMerchant();
    expect(await merchants.client.listSecretKeys({ merchantId })).toEqual({
      keys: [{ livemode: false, lastFour: testKey.slice(-4), createdAt: expect.any(Date) }],
    });

    await activate(merchantId);
    const { secretKey: liveKey } = await merchants.client.renewSecretKey({ merchantId, livemode: true });
    const { secretKey: newTestKey } = await merchants.client.renewSecretKey({ merchantId, livemode: false });
    const { keys } = await merchants.client.listSecretKeys({ merchantId });
    expect(keys).toEqual([
      { livemode: false, lastFour: newTestKey.slice(-4), createdAt: expect.any(Date) },
      { livemode: true, lastFour: liveKey.slice(-4), createdAt: expect.any(Date) },
    ]);
    const [stored] = await schema.query<{ created_at: Date }>(
      'SELECT created_at FROM secret_keys WHERE merchant_id = $1 AND livemode AND revoked_at IS NULL',
      [merchantId],
    );
    expect(keys[1]!.createdAt).toEqual(stored!.created_at);
    expect(JSON.stringify(keys)).not.toContain(liveKey.slice(8, -4));
  });

  it('answers resource_missing for an unknown merchant and parameter_invalid for a malformed id', async () => {
    expect(
      await failure(merchants.client.listSecretKeys({ merchantId: 'mer_000000000000000000000000' })),
    ).toEqual({ code: 'resource_missing', param: 'merchant_id', status: GrpcStatus.NOT_FOUND });
    expect(await failure(merchants.client.listSecretKeys({ merchantId: 'key_123' }))).toEqual({
      code: 'parameter_invalid',
      param: 'merchant_id',
      status: GrpcStatus.INVALID_ARGUMENT,
    });
  });
});

describe('RequestActivation and ApproveActivation', () => {
  it('stores the request for review, replaces it while pending, then approval opens live mode', async () => {
    const { merchantId } = await createMerchant();
    const first = await merchants.client.requestActivation({ merchantId, ...DETAILS });
    expect(first.merchant).toMatchObject({
      liveEnabled: false,
      activation: {
        status: ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW,
        ...DETAILS,
        contactPhone: '+2250700000100',
        approvedAt: undefined,
      },
    });
    expect(first.merchant!.activation!.requestedAt).toBeInstanceOf(Date);

    const corrected = await merchants.client.requestActivation({
      merchantId,
      ...DETAILS,
      legalName: 'Boutique Adjoua SA',
    });
    expect(corrected.merchant!.activation).toMatchObject({
      status: ActivationStatus.ACTIVATION_STATUS_PENDING_REVIEW,
      legalName: 'Boutique Adjoua SA',
    });
    await expect(merchants.client.getMerchant({ merchantId })).resolves.toEqual(corrected);

    const approved = await merchants.client.approveActivation({ merchantId });
    expect(approved.merchant).toMatchObject({
      liveEnabled: true,
      activation: {
        status: ActivationStatus.ACTIVATION_STATUS_APPROVED,
        legalName: 'Boutique Adjoua SA',
        requestedAt: corrected.merchant!.activation!.requestedAt,
      },
    });
    expect(approved.merchant!.activation!.approvedAt).toBeInstanceOf(Date);
    await expect(merchants.client.getMerchant({ merchantId })).resolves.toEqual(approved);
  });

  it('approves idempotently, keeping the first approval time', async () => {
    const { merchantId } = await createMerchant();
    await merchants.client.requestActivation({ merchantId, ...DETAILS });
    const first = await merchants.client.approveActivation({ merchantId });
    const again = await merchants.client.approveActivation({ merchantId });
    expect(again).toEqual(first);
  });

  it('refuses a request once approved, leaving the approved details as they are', async () => {
    const { merchantId } = await createMerchant();
    await activate(merchantId);
    expect(
      await failure(merchants.client.requestActivation({ merchantId, ...DETAILS, legalName: 'Autre SARL' })),
    ).toEqual({
      code: 'account_already_activated',
      param: 'merchant_id',
      status: GrpcStatus.FAILED_PRECONDITION,
    });
    const { merchant } = await merchants.client.getMerchant({ merchantId });
    expect(merchant!.activation).toMatchObject({
      status: ActivationStatus.ACTIVATION_STATUS_APPROVED,
      legalName: DETAILS.legalName,
    });
  });

  it('refuses to approve a merchant that has not asked', async () => {
    const { merchantId } = await createMerchant();
    expect(await failure(merchants.client.approveActivation({ merchantId }))).toEqual({
      code: 'account_not_activated',
      param: 'merchant_id',
      status: GrpcStatus.FAILED_PRECONDITION,
    });
    const { merchant } = await merchants.client.getMerchant({ merchantId });
    expect(merchant).toMatchObject({
      liveEnabled: false,
      activation: { status: ActivationStatus.ACTIVATION_STATUS_NOT_REQUESTED },
    });
  });

  it.each([
    ['legal_name', { legalName: '  ' }],
    ['legal_name', { legalName: 'x'.repeat(201) }],
    ['registration_number', { registrationNumber: '12' }],
    ['contact_name', { contactName: 'Adjoua\u0007' }],
    ['contact_email', { contactEmail: 'adjoua.example' }],
    ['contact_phone', { contactPhone: '07 00 00 01 00' }],
  ])('refuses a wrong %s as parameter_invalid naming it, storing nothing', async (param, wrong) => {
    const { merchantId } = await createMerchant();
    const refused = await failure(merchants.client.requestActivation({ merchantId, ...DETAILS, ...wrong }));
    expect(refused).toEqual({ code: 'parameter_invalid', param, status: GrpcStatus.INVALID_ARGUMENT });
    expect(await schema.query('SELECT 1 FROM activations WHERE merchant_id = $1', [merchantId])).toEqual([]);
  });

  it('says which field is wrong in the message', async () => {
    const { merchantId } = await createMerchant();
    await expect(
      merchants.client.requestActivation({ merchantId, ...DETAILS, contactEmail: 'nope' }),
    ).rejects.toThrow('Invalid contact_email: must be an email address such as name@example.com');
  });

  it('answers resource_missing for an unknown merchant and parameter_invalid for a malformed id', async () => {
    const unknown = 'mer_000000000000000000000000';
    const missing = { code: 'resource_missing', param: 'merchant_id', status: GrpcStatus.NOT_FOUND };
    expect(await failure(merchants.client.requestActivation({ merchantId: unknown, ...DETAILS }))).toEqual(
      missing,
    );
    expect(await failure(merchants.client.approveActivation({ merchantId: unknown }))).toEqual(missing);
    expect(await failure(merchants.client.approveActivation({ merchantId: 'mer_x' }))).toEqual({
      code: 'parameter_invalid',
      param: 'merchant_id',
      status: GrpcStatus.INVALID_ARGUMENT,
    });
  });
});
