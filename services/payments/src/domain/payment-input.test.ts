import { AppError } from '@sika/platform/pure';
import { checkIdempotencyKey } from '@sika/rules';
import { checkNewPaymentFields } from './payment-input';
import type { NewPaymentFields } from './payment-input';

const VALID: NewPaymentFields = {
  amount: 1n,
  currency: 'XOF',
  reference: 'r'.repeat(100),
  description: 'd'.repeat(140),
  returnUrl: 'https://shop.example/return',
  cancelUrl: 'http://shop.example/cancel',
  metadata: Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, 'v'.repeat(500)])),
};

function paramOf(run: () => void): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError && error.code === 'parameter_invalid') return error.param;
    throw error;
  }
  return undefined;
}

describe('checkNewPaymentFields', () => {
  it('accepts input at every limit', () => {
    expect(paramOf(() => checkNewPaymentFields(VALID))).toBeUndefined();
  });

  it('counts characters, not UTF-16 units', () => {
    expect(paramOf(() => checkNewPaymentFields({ ...VALID, reference: '🛒'.repeat(100) }))).toBeUndefined();
  });

  it.each<[string, Partial<NewPaymentFields>]>([
    ['amount', { amount: 0n }],
    ['amount', { amount: -5n }],
    ['currency', { currency: 'EUR' }],
    ['reference', { reference: 'r'.repeat(101) }],
    ['description', { description: 'd'.repeat(141) }],
    ['return_url', { returnUrl: 'not a url' }],
    ['return_url', { returnUrl: 'javascript:alert(1)' }],
    ['cancel_url', { cancelUrl: '/relative' }],
    [
      'metadata',
      { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`k${index}`, 'v'])) },
    ],
    ['metadata[note]', { metadata: { note: 'v'.repeat(501) } }],
    ['reference', { reference: 'a\u0000b' }],
    ['description', { description: 'ring\u0007' }],
    ['metadata[note]', { metadata: { note: 'a\u0000' } }],
    ['metadata[no\u001fte]', { metadata: { 'no\u001fte': 'v' } }],
    [`metadata[${'k'.repeat(41)}]`, { metadata: { ['k'.repeat(41)]: 'v' } }],
  ])('rejects a bad %s', (param, change) => {
    expect(paramOf(() => checkNewPaymentFields({ ...VALID, ...change }))).toBe(param);
  });
});

describe('checkIdempotencyKey', () => {
  it('takes 1 to 255 characters', () => {
    expect(paramOf(() => checkIdempotencyKey('k'))).toBeUndefined();
    expect(paramOf(() => checkIdempotencyKey('k'.repeat(255)))).toBeUndefined();
    expect(paramOf(() => checkIdempotencyKey(''))).toBe('idempotency_key');
    expect(paramOf(() => checkIdempotencyKey('k'.repeat(256)))).toBe('idempotency_key');
    expect(paramOf(() => checkIdempotencyKey('order\t42'))).toBe('idempotency_key');
  });
});
