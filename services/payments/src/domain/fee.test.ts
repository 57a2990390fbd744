import { assertValidFeeRule, computeFee } from './fee';

describe('computeFee', () => {
  it.each([
    // amount, rate_bps, fixed, fee
    [10_000n, 150, 0n, 150n],
    [10_000n, 150, 25n, 175n],
    [1_000n, 125, 0n, 13n], // 12.5 rounds half up to 13
    [1_001n, 125, 0n, 13n], // 12.5125 → 13
    [999n, 125, 0n, 12n], // 12.4875 → 12
    [100n, 0, 0n, 0n],
    [10n, 150, 25n, 10n], // never more than the amount
    [1n, 10_000, 0n, 1n],
    [9_007_199_254_740_993n, 1, 0n, 900_719_925_474n], // beyond 2^53: no float rounding
  ])('amount %s at %s bps + %s → %s', (amount, rateBps, fixedAmount, fee) => {
    expect(computeFee(amount, { rateBps, fixedAmount })).toBe(fee);
  });
});

describe('assertValidFeeRule', () => {
  it('accepts 0..10000 bps and a non-negative fixed part', () => {
    expect(() => assertValidFeeRule({ rateBps: 0, fixedAmount: 0n })).not.toThrow();
    expect(() => assertValidFeeRule({ rateBps: 10_000, fixedAmount: 500n })).not.toThrow();
  });

  it.each([
    [{ rateBps: -1, fixedAmount: 0n }],
    [{ rateBps: 10_001, fixedAmount: 0n }],
    [{ rateBps: 1.5, fixedAmount: 0n }],
    [{ rateBps: 100, fixedAmount: -1n }],
  ])('rejects %p', (rule) => {
    expect(() => assertValidFeeRule(rule)).toThrow(/invalid fee rule/);
  });
});
