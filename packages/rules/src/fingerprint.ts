import { createHash } from 'node:crypto';

/**
 * JSON with keys sorted at every level and absent values left out, so two bodies that mean the same thing
 * (other key order, other whitespace) have one text.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item: unknown) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Hex SHA-256 of the canonical JSON: what payments compares to tell a replay from a reused key. */
export function fingerprintOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** The fingerprint of a payout creation, whoever asks for it (the API or the dashboard): `null` is everything. */
export const payoutRequestFingerprint = (amount: number | undefined): string =>
  fingerprintOf({ amount: amount ?? null });
