import {
  isRedactedKey,
  maskAlias,
  maskIdentifier,
  REDACTION_CENSOR,
  redactKeys,
  scrubSecrets,
  summarizeError,
} from './redaction';

describe('maskAlias', () => {
  it.each([
    ['+225 0700000001', '+225 07******01'],
    ['+225 0000000005', '+225 00******05'],
    ['+225-0700000001', '+225-07******01'],
    ['+2250700000001', '+22507******01'],
    ['0700000001', '07******01'],
    [' +221 771234567 ', '+221 77*****67'],
  ])('masks %j as %j', (alias, masked) => {
    expect(maskAlias(alias)).toBe(masked);
  });
});

describe('maskIdentifier', () => {
  it('keeps two characters at each end of long values, fewer for short ones', () => {
    expect(maskIdentifier('CI0080100000000123456789')).toBe('CI********************89');
    expect(maskIdentifier('1234567')).toBe('*****67');
    expect(maskIdentifier('1234')).toBe('****');
    expect(maskIdentifier('')).toBe('');
  });
});

describe('isRedactedKey', () => {
  it.each([
    'authorization',
    'Authorization',
    'X-Signature',
    'Service-Signature',
    'signature',
    'client_secret',
    'clientSecret',
    'secret',
    'password',
    'webhook_secret',
    'secretKey',
    'API_KEY_PEPPER',
    'access_token',
    'checkoutToken',
    'DATABASE_URL',
    'alias',
    'aliasClient',
    'customer_alias',
    'payer_alias',
    'payerAlias',
    'payeurAlias',
    'payeAlias',
    'payeur',
    'payé',
    'client',
    'payeurNom',
    'payeNom',
    'payeurCompte',
    'nom',
    'prenom',
    'raisonSociale',
    'iban',
    'othr',
    'numero',
    'holder_name',
    'holderName',
  ])('redacts %j', (key) => {
    expect(isRedactedKey(key)).toBe(true);
  });

  it.each([
    'payment_id',
    'tx_id',
    'payer_alias_masked',
    'payerAliasMasked',
    'status',
    'name',
    'idempotency_key',
    'err',
    'montant',
    'statutRaison',
  ])('keeps %j', (key) => {
    expect(isRedactedKey(key)).toBe(false);
  });
});

describe('redactKeys', () => {
  it('censors redacted keys at any depth, in objects and arrays, and leaves the input as it was', () => {
    const logged = {
      payment_id: 'pay_1',
      a: { b: { c: { d: { e: { payeur: { alias: '+2250700000001', nom: 'Kone' } } } } } },
      events: [{ payeurAlias: '+2250700000001', statut: 'PAYE' }],
      headers: { 'X-Signature': 'sig', 'content-type': 'application/json' },
    };

    expect(redactKeys(logged)).toEqual({
      payment_id: 'pay_1',
      a: { b: { c: { d: { e: { payeur: REDACTION_CENSOR } } } } },
      events: [{ payeurAlias: REDACTION_CENSOR, statut: 'PAYE' }],
      headers: { 'X-Signature': REDACTION_CENSOR, 'content-type': 'application/json' },
    });
    expect(logged.events[0]?.payeurAlias).toBe('+2250700000001');
  });

  it('summarizes errors wherever they are and keeps dates as they are', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const redacted = redactKeys({ at, failures: [new RangeError('out of range')] }) as {
      at: Date;
      failures: { name: string; message: string }[];
    };

    expect(redacted.at).toBe(at);
    expect(redacted.failures[0]).toMatchObject({ name: 'RangeError', message: 'out of range' });
  });

  it('cuts a cycle instead of following it for ever', () => {
    const node: Record<string, unknown> = { id: 'n1' };
    node['self'] = node;

    expect(JSON.stringify(redactKeys(node))).toContain('[Truncated]');
  });
});

describe('scrubSecrets', () => {
  it.each([
    ['key sk_live_4eC39HqLyjWDarjtT1zdp7dc refused', 'key sk_live_[REDACTED] refused'],
    ['"sk_test_abc123"', '"sk_test_[REDACTED]"'],
    ['secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2La+Sw=', 'secret whsec_[REDACTED]'],
    ['Authorization: Bearer eyJhbGciOi.J9.x', 'Authorization: Bearer [REDACTED]'],
    ['basic Y2xpZW50OnNlY3JldA==', 'basic [REDACTED]'],
    ['postgresql://sika_payments:p4ss@db:5432/sika', 'postgresql://sika_payments:[REDACTED]@db:5432/sika'],
    ['unknown alias +225 0700000001.', 'unknown alias +225 07******01.'],
    ['alias +2250700000001', 'alias +22507******01'],
    ['(+225 07 00 00 00 01)', '(+225 07**********01)'],
  ])('scrubs %j', (text, scrubbed) => {
    expect(scrubSecrets(text)).toBe(scrubbed);
  });

  it('returns text without secrets untouched', () => {
    const line = '{"level":"info","payment_id":"pay_1","amount":10000,"msg":"payment created"}';

    expect(scrubSecrets(line)).toBe(line);
  });
});

describe('summarizeError', () => {
  it('keeps name, message, code, stack frames and the cause, nothing else', () => {
    const cause = Object.assign(new Error('connection refused'), {
      code: 'ECONNREFUSED',
      address: '10.0.0.1',
    });
    const error = Object.assign(new Error('query failed', { cause }), {
      code: 'P1001',
      meta: { args: { payerAlias: '+2250700000001' } },
    });

    const summary = summarizeError(error);

    expect(summary).toEqual({
      name: 'Error',
      message: 'query failed',
      code: 'P1001',
      stack: expect.stringMatching(/^Error: query failed\n\s+at /) as unknown,
      cause: {
        name: 'Error',
        message: 'connection refused',
        code: 'ECONNREFUSED',
        stack: expect.any(String) as unknown,
      },
    });
    expect(JSON.stringify(summary)).not.toContain('0700000001');
  });

  it("cuts a Prisma error's message, which renders the call's arguments, to its reason", () => {
    const error = new Error(
      '\nInvalid `prisma.paymentAttempt.create()` invocation:\n\n{\n  data: {\n    payerAlias: "+225 0700000001",\n' +
        '+   sequence: Int\n  }\n}\n\nArgument `sequence` is missing.',
    );
    error.name = 'PrismaClientValidationError';

    const summary = summarizeError(error);

    expect(summary.message).toBe('Argument `sequence` is missing.');
    expect(JSON.stringify(summary)).not.toContain('0700000001');
  });

  it('names a cause that is not an error only by its type', () => {
    expect(summarizeError(new Error('failed', { cause: { password: 'hunter2' } })).cause).toBe('object');
  });
});
