/**
 * The two formats of `customer_alias` (spec §2.2):
 * - an international phone number: `+`, a 3-digit country code, then 8 to 10 digits, where spaces, dots
 *   and hyphens are ignored (so `+225 07.00-00.00.01` is `+2250700000001`): 11 to 13 digits after the `+`;
 * - an identifier (payment address): 1 to 36 ASCII letters, digits or hyphens.
 * One regular expression, so the validator and the OpenAPI `pattern` cannot disagree. The separators and the
 * digits are disjoint character classes, so matching is linear (no catastrophic backtracking).
 */
const PHONE_NUMBER = '^[ .-]*\\+(?:[ .-]*[0-9]){11,13}[ .-]*$';
const IDENTIFIER = '^[A-Za-z0-9-]{1,36}$';

export const CUSTOMER_ALIAS_PATTERN = new RegExp(`${PHONE_NUMBER}|${IDENTIFIER}`);

export const CUSTOMER_ALIAS_MAX_LENGTH = 40;
