/**
 * The two formats of a customer alias (spec §2.2), checked before asking payments so the customer gets
 * the precise message at once; payments checks again and normalises.
 * - an international phone number: `+`, a 3-digit country code, then 8 to 10 digits; spaces, dots and
 *   hyphens are ignored (so 11 to 13 digits after the `+`);
 * - an identifier (payment address): 1 to 36 ASCII letters, digits or hyphens.
 * Separators and digits are disjoint character classes, so matching is linear.
 */
const PHONE_NUMBER = /^\+(?:[ .-]*[0-9]){11,13}$/;
const IDENTIFIER = /^[A-Za-z0-9-]{1,36}$/;

/** Spec §8. */
export const CUSTOMER_ALIAS_MAX_LENGTH = 40;

export type AliasFormatProblem = 'alias_missing' | 'alias_invalid';

export type AliasCheck = { ok: true; alias: string } | { ok: false; problem: AliasFormatProblem };

/** Surrounding spaces are dropped: pasted numbers often carry them and they mean nothing. */
export function checkCustomerAlias(raw: string): AliasCheck {
  const alias = raw.trim();
  if (alias === '') return { ok: false, problem: 'alias_missing' };
  const wellFormed =
    alias.length <= CUSTOMER_ALIAS_MAX_LENGTH && (PHONE_NUMBER.test(alias) || IDENTIFIER.test(alias));
  return wellFormed ? { ok: true, alias } : { ok: false, problem: 'alias_invalid' };
}
