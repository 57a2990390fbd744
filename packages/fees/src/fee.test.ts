import { assertValidFeeRule, computeFee, DEFAULT_FEE_RULE, isValidFeeRule } from './fee';
import type { FeeRule } from './fee';

const onePercent: FeeRule = DEFAULT_FEE_RULE;

describe('computeFee', () => {
  it.each([
    // [amount, fee] at the default 1 %: halves round up, everything below a half rounds down.
    [1n, 0n],
    [49n, 0n],
    [50n, 1n],
    [149n, 1n],
    [150n, 2n],
    [10_000n, 100n],
    [123_456n, 1_235n],
  ])('charges 1 %% of %s XOF as %s XOF', (amount, fee) => {
    expect(computeFee(amount, onePercent)).toEqual({ feeAmount: fee, netAmount: amount - fee });
  });

  it('rounds an exact half up at any rate', () => {
    // 25 × 20 bps = 0.05, 250 × 20 bps = 0.5 → 1, 7 500 × 1 bps = 0.75 → 1, 5 000 × 1 bps = 0.5 → 1.
    expect(computeFee(25n, { rateBps: 20, fixedAmount: 0n }).feeAmount).toBe(0n);
    expect(computeFee(250n, { rateBps: 20, fixedAmount: 0n }).feeAmount).toBe(1n);
    expect(computeFee(7_500n, { rateBps: 1, fixedAmount: 0n }).feeAmount).toBe(1n);
    expect(computeFee(5_000n, { rateBps: 1, fixedAmount: 0n }).feeAmount).toBe(1n);
    expect(computeFee(4_999n, { rateBps: 1, fixedAmount: 0n }).feeAmount).toBe(0n);
  });

  it('adds the fixed part to the proportional part', () => {
    expect(computeFee(10_000n, { rateBps: 150, fixedAmount: 25n })).toEqual({
      feeAmount: 175n,
      netAmount: 9_825n,
    });
  });

  it('never charges more than the amount', () => {
    expect(computeFee(1n, { rateBps: 100, fixedAmount: 100n })).toEqual({ feeAmount: 1n, netAmount: 0n });
    expect(computeFee(5n, { rateBps: 10_000, fixedAmount: 10n })).toEqual({ feeAmount: 5n, netAmount: 0n });
    expect(computeFee(99n, { rateBps: 10_000, fixedAmount: 0n })).toEqual({ feeAmount: 99n, netAmount: 0n });
  });

  it('charges nothing under a zero rule', () => {
    expect(computeFee(1_000_000n, { rateBps: 0, fixedAmount: 0n })).toEqual({
      feeAmount: 0n,
      netAmount: 1_000_000n,
    });
  });

  it('stays exact on amounts beyond what a double or an int64 can hold', () => {
    const maxInt64 = 9_223_372_036_854_775_807n;
    // 1 % of 9 223 372 036 854 775 807 is 92 233 720 368 547 758.07.
    expect(computeFee(maxInt64, onePercent).feeAmount).toBe(92_233_720_368_547_758n);
    const huge = 10n ** 30n + 50n;
    expect(computeFee(huge, onePercent).feeAmount).toBe(10n ** 28n + 1n);
  });

  it('keeps 0 ≤ fee ≤ amount and fee + net = amount over a sweep of amounts and rules', () => {
    const rules: FeeRule[] = [
      { rateBps: 0, fixedAmount: 0n },
      { rateBps: 1, fixedAmount: 0n },
      { rateBps: 100, fixedAmount: 0n },
      { rateBps: 250, fixedAmount: 50n },
      { rateBps: 9_999, fixedAmount: 1n },
      { rateBps: 10_000, fixedAmount: 1_000n },
    ];
    for (const rule of rules) {
      for (let amount = 1n; amount <= 2_000n; amount += 1n) {
        const { feeAmount, netAmount } = computeFee(amount, rule);
        expect(feeAmount >= 0n && feeAmount <= amount).toBe(true);
        expect(feeAmount + netAmount).toBe(amount);
      }
    }
  });

  it('refuses amounts below 1 XOF', () => {
    expect(() => computeFee(0n, onePercent)).toThrow(RangeError);
    expect(() => computeFee(-100n, onePercent)).toThrow(RangeError);
  });

  it('refuses rules outside 0 … 10 000 bps or with a negative fixed part', () => {
    expect(() => computeFee(100n, { rateBps: 10_001, fixedAmount: 0n })).toThrow(RangeError);
    expect(() => computeFee(100n, { rateBps: -1, fixedAmount: 0n })).toThrow(RangeError);
    expect(() => computeFee(100n, { rateBps: 1.5, fixedAmount: 0n })).toThrow(RangeError);
    expect(() => computeFee(100n, { rateBps: 100, fixedAmount: -1n })).toThrow(RangeError);
  });
});

describe('isValidFeeRule', () => {
  it('accepts the default rule and the bounds', () => {
    expect(isValidFeeRule(DEFAULT_FEE_RULE)).toBe(true);
    expect(isValidFeeRule({ rateBps: 0, fixedAmount: 0n })).toBe(true);
    expect(isValidFeeRule({ rateBps: 10_000, fixedAmount: 10n ** 20n })).toBe(true);
  });
});

describe('computeFee at other rules', () => {
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
    expect(computeFee(amount, { rateBps, fixedAmount }).feeAmount).toBe(fee);
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
