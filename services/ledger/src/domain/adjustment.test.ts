import { isSameAdjustment, planAdjustment, validateAdjustment, type Adjustment } from './adjustment';

const request = {
  amount: -500n,
  reason: '  Fee charged twice on pay_123  ',
  idempotencyKey: 'ticket-4521',
  requestedBy: ' awa ',
};

describe('validateAdjustment', () => {
  it('trims the reason and the operator, and keeps the amount and key as given', () => {
    expect(validateAdjustment(request)).toEqual({
      amount: -500n,
      reason: 'Fee charged twice on pay_123',
      idempotencyKey: 'ticket-4521',
      requestedBy: 'awa',
    });
  });

  it.each([
    ['an amount of 0', { amount: 0n }, 'amount'],
    ['an empty reason', { reason: '   ' }, 'reason'],
    ['a reason over 500 characters', { reason: 'x'.repeat(501) }, 'reason'],
    ['a reason with a control character', { reason: 'line\u0000break' }, 'reason'],
    ['an empty key', { idempotencyKey: '' }, 'idempotency_key'],
    ['a key over 255 characters', { idempotencyKey: 'k'.repeat(256) }, 'idempotency_key'],
    ['no operator', { requestedBy: '' }, 'requested_by'],
    ['an operator over 100 characters', { requestedBy: 'o'.repeat(101) }, 'requested_by'],
  ])('refuses %s, naming %s', (_case, overrides, param) => {
    expect(() => validateAdjustment({ ...request, ...overrides })).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param }),
    );
  });

  it('counts a reason in characters, not UTF-16 units', () => {
    expect(validateAdjustment({ ...request, reason: '🙂'.repeat(500) }).reason).toBe('🙂'.repeat(500));
  });
});

describe('planAdjustment', () => {
  it("moves the amount between the merchant's available balance and Sika's adjustments account", () => {
    expect(planAdjustment(0n, 700n)).toEqual({
      postings: [
        { account: { owner: 'merchant', kind: 'available' }, amount: 700n },
        { account: { owner: 'system', kind: 'adjustments' }, amount: -700n },
      ],
      movements: [{ type: 'adjustment', amount: 700n }],
    });
    expect(planAdjustment(500n, -500n).movements).toEqual([{ type: 'adjustment', amount: -500n }]);
  });

  it('refuses to take more than is available, saying how much could be', () => {
    expect(() => planAdjustment(300n, -301n)).toThrow(
      expect.objectContaining({
        code: 'balance_insufficient',
        param: 'amount',
        message:
          'The adjustment (-301) would make the available balance (300) negative: at most 300 can be taken from it.',
      }),
    );
  });
});

describe('isSameAdjustment', () => {
  const recorded: Adjustment = {
    ...validateAdjustment(request),
    id: 'adj_1',
    merchantId: 'mer_1',
    livemode: false,
    createdAt: new Date(),
  };
  const scope = { merchantId: 'mer_1', livemode: false };

  it('is the same request whoever repeats it', () => {
    expect(isSameAdjustment(recorded, scope, { ...recorded, requestedBy: 'kofi' })).toBe(true);
  });

  it.each([
    ['merchant', { merchantId: 'mer_2', livemode: false }, {}],
    ['mode', { merchantId: 'mer_1', livemode: true }, {}],
    ['amount', scope, { amount: -501n }],
    ['reason', scope, { reason: 'Another reason' }],
  ])('is another adjustment with another %s', (_case, otherScope, overrides) => {
    expect(isSameAdjustment(recorded, otherScope, { ...recorded, ...overrides })).toBe(false);
  });
});
