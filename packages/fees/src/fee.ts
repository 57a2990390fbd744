/**
 * Sika's fee rule, decided here because the spec leaves it "not shown": per merchant, a proportional part in
 * basis points plus a fixed part, in integer XOF,
 *
 *   fee = min(amount, fixed_amount + round_half_up(amount × rate_bps / 10 000))
 *
 * computed on bigints so no amount is too large to be exact. The fee is never negative and never more than
 * the amount, so the net amount credited to the merchant is never negative either. New merchants get 1 %
 * (100 bps) and no fixed part.
 */
export interface FeeRule {
  /** 0 … 10 000 (0 % … 100 %). */
  rateBps: number;
  /** ≥ 0, in XOF. */
  fixedAmount: bigint;
}

export const DEFAULT_FEE_RULE: Readonly<FeeRule> = { rateBps: 100, fixedAmount: 0n };

export const MAX_RATE_BPS = 10_000;
const BPS_DENOMINATOR = 10_000n;

export interface FeeSplit {
  feeAmount: bigint;
  netAmount: bigint;
}

export function isValidFeeRule(rule: FeeRule): boolean {
  return (
    Number.isInteger(rule.rateBps) &&
    rule.rateBps >= 0 &&
    rule.rateBps <= MAX_RATE_BPS &&
    rule.fixedAmount >= 0n
  );
}

/** A rule that could make a fee negative or above 100 % is a configuration bug, never a merchant's input. */
export function assertValidFeeRule(rule: FeeRule): void {
  if (!isValidFeeRule(rule)) {
    throw new RangeError(`invalid fee rule: rate ${rule.rateBps} bps, fixed ${rule.fixedAmount} XOF`);
  }
}

/** Halves round up: amounts are positive, so adding half the denominator before a truncating division does it. */
function proportionalPart(amount: bigint, rateBps: number): bigint {
  return (amount * BigInt(rateBps) + BPS_DENOMINATOR / 2n) / BPS_DENOMINATOR;
}

/** The fee and net amount of a payment of `amount` XOF (an integer ≥ 1) under `rule`. */
export function computeFee(amount: bigint, rule: FeeRule): FeeSplit {
  if (amount < 1n) throw new RangeError(`amount must be at least 1 XOF, got ${amount}`);
  assertValidFeeRule(rule);
  const uncapped = rule.fixedAmount + proportionalPart(amount, rule.rateBps);
  const feeAmount = uncapped < amount ? uncapped : amount;
  return { feeAmount, netAmount: amount - feeAmount };
}
