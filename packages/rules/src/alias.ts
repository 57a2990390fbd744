import { maskAlias } from '@sika/platform/pure';
import { characterCount, TEXT_LIMITS } from './text';

/**
 * A customer alias (API reference, "Payment creation input"), in one of two formats:
 * - an international phone number: `+`, a 3-digit country code, then 8 to 10 digits; spaces, dots and
 *   hyphens are ignored wherever they stand, so ` +225 07.00-00.00.01 ` is `+225 0700000001`;
 * - an identifier (a payment address): 1 to 36 letters, digits or hyphens.
 * Spaces around either are ignored: customers paste numbers with them. "Spaces" include the no-break
 * spaces (U+00A0, U+202F) that French number formatting puts between digit groups.
 * At most 40 characters as entered.
 *
 * One rule for the API (and the pattern its OpenAPI document publishes), payments, the hosted page and
 * psp-connector: a value one of them accepts, all of them accept, and they agree on its canonical form.
 */

const SPACE = ' \\u00A0\\u202F';
const SEPARATOR = `[${SPACE}.-]`;
const PHONE_SOURCE = `^${SEPARATOR}*\\+(?:${SEPARATOR}*[0-9]){11,13}${SEPARATOR}*$`;
const IDENTIFIER_SOURCE = `^[${SPACE}]*[A-Za-z0-9-]{1,36}[${SPACE}]*$`;

/**
 * Both formats as one pattern, for the OpenAPI document and the API's validator. Separators and digits are
 * disjoint classes, so matching stays linear (no catastrophic backtracking).
 */
export const CUSTOMER_ALIAS_PATTERN = new RegExp(`${PHONE_SOURCE}|${IDENTIFIER_SOURCE}`);

const PHONE = new RegExp(PHONE_SOURCE);
const IDENTIFIER = new RegExp(IDENTIFIER_SOURCE);
const SEPARATORS = new RegExp(SEPARATOR, 'g');
const SURROUNDING_SPACES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, 'g');
const COUNTRY_CODE_DIGITS = 3;

export interface CustomerAlias {
  kind: 'phone' | 'identifier';
  /** What Sika stores and shows (masked): `+225 0700000001`, or the identifier as entered. */
  value: string;
  /** What the scheme receives: the phone number without separators (`+2250700000001`), or the identifier. */
  schemeValue: string;
  /** Safe to show and log: `+225 07******01`. */
  masked: string;
}

export type AliasProblem = 'missing' | 'too_long' | 'malformed';

export type AliasParse = { ok: true; alias: CustomerAlias } | { ok: false; problem: AliasProblem };

export const ALIAS_PROBLEM_MESSAGES: Record<AliasProblem, string> = {
  missing: 'The customer alias is required.',
  too_long: `The customer alias must be at most ${TEXT_LIMITS.customerAlias} characters.`,
  malformed:
    'The customer alias must be an international phone number (+, a 3-digit country code, then 8 to 10 digits) or an identifier of 1 to 36 letters, digits or hyphens.',
};

export function parseCustomerAlias(raw: string): AliasParse {
  if (raw.replace(SURROUNDING_SPACES, '') === '') return { ok: false, problem: 'missing' };
  if (characterCount(raw) > TEXT_LIMITS.customerAlias) return { ok: false, problem: 'too_long' };
  if (PHONE.test(raw)) {
    const digits = raw.replace(SEPARATORS, '').slice(1);
    const value = `+${digits.slice(0, COUNTRY_CODE_DIGITS)} ${digits.slice(COUNTRY_CODE_DIGITS)}`;
    return { ok: true, alias: { kind: 'phone', value, schemeValue: `+${digits}`, masked: maskAlias(value) } };
  }
  if (IDENTIFIER.test(raw)) {
    const value = raw.replace(SURROUNDING_SPACES, '');
    return { ok: true, alias: { kind: 'identifier', value, schemeValue: value, masked: maskAlias(value) } };
  }
  return { ok: false, problem: 'malformed' };
}
