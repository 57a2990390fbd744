/**
 * The merchant's fee rule (merchants.FeeRule), snapshotted on each payment at creation:
 * fee = min(amount, fixed_amount + round_half_up(amount × rate_bps / 10 000)), in whole XOF.
 */
export interface FeeRule {
  /** Basis points of the amount: 150 = 1.5 %. */
  rateBps: number;
  fixedAmount: bigint;
}

const BASIS_POINTS = 10_000n;
export const MAX_RATE_BPS = 10_000;

/** A rule that could make a fee negative or above 100 % is a configuration bug, never a merchant's input. */
export function assertValidFeeRule(rule: FeeRule): void {
  if (!Number.isInteger(rule.rateBps) || rule.rateBps < 0 || rule.rateBps > MAX_RATE_BPS) {
    throw new Error(`invalid fee rule: rate_bps ${rule.rateBps} is not an integer in 0..${MAX_RATE_BPS}`);
  }
  if (rule.fixedAmount < 0n)
    throw new Error(`invalid fee rule: fixed_amount ${rule.fixedAmount} is negative`);
}

/** Integer arithmetic only: amounts are bigint end to end, so no float ever rounds a franc away. */
export function computeFee(amount: bigint, rule: FeeRule): bigint {
  const proportional = (amount * BigInt(rule.rateBps) + BASIS_POINTS / 2n) / BASIS_POINTS;
  const fee = rule.fixedAmount + proportional;
  return fee < amount ? fee : amount;
}
