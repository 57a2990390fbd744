/**
 * Amounts travel as int64 (bigint) inside Sika and as JSON numbers outside. The gateway refuses amounts above
 * Number.MAX_SAFE_INTEGER, so every amount that exists converts exactly; a larger one is a bug, not a rounding.
 */
export function toJsonAmount(amount: bigint): number {
  if (amount > BigInt(Number.MAX_SAFE_INTEGER) || amount < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`amount ${amount} is outside the exact range of a JSON number`);
  }
  return Number(amount);
}

export function toJsonDate(date: Date | undefined): string {
  if (date === undefined) throw new Error('a required timestamp is missing');
  return date.toISOString();
}
