import { effectOfDecision, fingerprintOf, type PaymentRequestInput } from './payment-request';

const input: PaymentRequestInput = {
  mode: 'test',
  txId: 'att_1',
  // As SendPaymentRequest hands it on: the scheme's form of the alias (@sika/rules), however it was spelled.
  payerAlias: '+2250000000001',
  amount: 1500n,
  reason: 'Commande 42',
  reference: 'order-42',
  expiresAt: new Date('2026-03-01T10:05:00.000Z'),
  onDelivery: false,
};

describe('fingerprintOf', () => {
  it('ignores the txId', () => {
    expect(fingerprintOf({ ...input, txId: 'other' })).toBe(fingerprintOf(input));
  });

  it.each([
    ['mode', { mode: 'live' as const }],
    ['alias', { payerAlias: '+225 0000000002' }],
    ['amount', { amount: 1501n }],
    ['reason', { reason: undefined }],
    ['reference', { reference: 'order-43' }],
  ])('changes with the %s', (_field, change) => {
    expect(fingerprintOf({ ...input, ...change })).not.toBe(fingerprintOf(input));
  });

  it('does not contain the alias', () => {
    expect(fingerprintOf(input)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('effectOfDecision', () => {
  it.each([
    [null, 'PAID', { record: true, publish: true }],
    [null, 'REJECTED', { record: true, publish: true }],
    [null, 'EXPIRED', { record: true, publish: true }],
    ['REJECTED', 'PAID', { record: true, publish: true }],
    ['EXPIRED', 'PAID', { record: true, publish: true }],
    ['PAID', 'PAID', { record: false, publish: true }],
    ['PAID', 'REJECTED', { record: false, publish: false }],
    ['REJECTED', 'EXPIRED', { record: false, publish: false }],
    ['EXPIRED', 'REJECTED', { record: false, publish: false }],
    [null, 'ACCEPTED_DEFERRED', { record: true, publish: true }],
    ['ACCEPTED_DEFERRED', 'ACCEPTED_DEFERRED', { record: false, publish: false }],
    ['ACCEPTED_DEFERRED', 'PAID', { record: true, publish: true }],
    ['ACCEPTED_DEFERRED', 'EXPIRED', { record: true, publish: true }],
    ['ACCEPTED_DEFERRED', 'FAILED', { record: true, publish: true }],
    ['PAID', 'ACCEPTED_DEFERRED', { record: false, publish: false }],
    ['REJECTED', 'ACCEPTED_DEFERRED', { record: false, publish: false }],
  ] as const)('%s then %s → %o', (current, incoming, effect) => {
    expect(effectOfDecision(current, incoming)).toEqual(effect);
  });
});
