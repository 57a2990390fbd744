import { AppError, ManualClock } from '@sika/platform/pure';

import { badCreationCases, VALID_BODY } from '../../test/support/creation-cases';
import { fingerprintOf } from '@sika/rules';
import { normalizePaymentCreation, paymentCreationSchema } from './payment-creation';
import { parseInput } from './validation';

const now = new Date('2026-03-01T12:00:00.000Z');
const schema = paymentCreationSchema(new ManualClock(now));
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

function errorOf(body: unknown): AppError {
  try {
    parseInput(schema, body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the body to be refused');
}

describe('payment creation input', () => {
  it.each(badCreationCases(now).map((example) => [example.rule, example] as const))(
    'refuses: %s',
    (_rule, example) => {
      const error = errorOf(example.body);
      expect({ code: error.code, param: error.param }).toEqual({ code: example.code, param: example.param });
      expect(error.message).not.toHaveLength(0);
    },
  );

  it('applies the defaults', () => {
    expect(parseInput(schema, VALID_BODY)).toEqual({
      ...VALID_BODY,
      currency: 'XOF',
      mode: 'immediate',
      metadata: {},
    });
  });

  it.each([
    ['the smallest amount', { amount: 1 }],
    ['the largest exact amount', { amount: Number.MAX_SAFE_INTEGER }],
    ['expires_at exactly 1 minute ahead', { expires_at: at(60_000) }],
    ['expires_at exactly 24 hours ahead', { expires_at: at(86_400_000) }],
    ['expires_at with an offset', { expires_at: '2026-03-01T14:00:00+01:00' }],
    ['on_delivery 30 days ahead', { mode: 'on_delivery', expires_at: at(30 * 86_400_000) }],
    ['100-character reference', { reference: 'r'.repeat(100) }],
    ['140 characters that are not all UTF-16 units', { description: '🙂'.repeat(140) }],
    ['a phone alias with spaces', { customer_alias: '+225 0000000001' }],
    ['a phone alias with dots and hyphens', { customer_alias: '+225.07-00.00.00.01' }],
    ['a phone alias with 8 digits', { customer_alias: '+22507000000' }],
    ['an identifier alias of 36 characters', { customer_alias: `shop-${'a'.repeat(31)}` }],
    [
      'nulls for every optional field',
      { expires_at: null, reference: null, description: null, customer_alias: null, cancel_url: null },
    ],
    ['an http cancel_url', { cancel_url: 'http://127.0.0.1:3000/cancel' }],
    [
      '20 metadata keys of 40 characters with 500-character values',
      {
        metadata: Object.fromEntries(
          Array.from({ length: 20 }, (_, i) => [`${i}`.padStart(40, 'k'), 'v'.repeat(500)]),
        ),
      },
    ],
  ])('accepts %s', (_name, fields) => {
    expect(() => parseInput(schema, { ...VALID_BODY, ...fields })).not.toThrow();
  });
});

describe('request fingerprint', () => {
  const fingerprint = (body: unknown) => fingerprintOf(normalizePaymentCreation(parseInput(schema, body)));

  it('ignores key order, null versus absent, written-out defaults and the time zone of expires_at', () => {
    const reference = fingerprint({
      amount: 100,
      return_url: 'https://a.example/r',
      expires_at: '2026-03-01T12:10:00Z',
      metadata: { a: '1', b: '2' },
    });
    expect(
      fingerprint({
        metadata: { b: '2', a: '1' },
        expires_at: '2026-03-01T13:10:00.000+01:00',
        currency: 'XOF',
        mode: 'immediate',
        reference: null,
        return_url: 'https://a.example/r',
        amount: 100,
      }),
    ).toBe(reference);
  });

  it('changes with any value', () => {
    const base = fingerprint(VALID_BODY);
    expect(fingerprint({ ...VALID_BODY, amount: 5_001 })).not.toBe(base);
    expect(fingerprint({ ...VALID_BODY, metadata: { a: '' } })).not.toBe(base);
    expect(fingerprint({ ...VALID_BODY, reference: '' })).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });
});
