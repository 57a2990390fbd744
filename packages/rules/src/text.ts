import { AppError } from '@sika/platform/pure';

/**
 * Lengths as the contract counts them: Unicode code points, as JSON Schema's maxLength does, not UTF-16
 * units (`.length` would count an emoji twice and refuse a description the OpenAPI document accepts).
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count += 1;
  return count;
}

/** The limits of the public contract on merchants' text (API reference, "Limits"). */
export const TEXT_LIMITS = {
  reference: 100,
  description: 140,
  customerAlias: 40,
  metadataKeys: 20,
  /** Not fixed by the contract; Sika's decision, as Stripe's. */
  metadataKeyLength: 40,
  metadataValueLength: 500,
  idempotencyKey: 255,
} as const;

/**
 * Characters that text fields refuse: the C0 controls (U+0000 to U+001F; PostgreSQL cannot store U+0000 at
 * all, and the others have no place in a reference, a description or metadata a bank shows), and UTF-16
 * halves without their pair, which no UTF-8 column can store. Written as a pattern so that the OpenAPI
 * document publishes the same rule the validators apply.
 */
export const UNSTORABLE_CHARACTER_SOURCE =
  '[\\u0000-\\u001F]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]';

const UNSTORABLE_CHARACTER = new RegExp(UNSTORABLE_CHARACTER_SOURCE);

/** The pattern of a storable text field, for JSON Schema (`pattern`) and zod (`regex`). */
export const STORABLE_TEXT_PATTERN = new RegExp(`^(?:(?!${UNSTORABLE_CHARACTER_SOURCE})[\\s\\S])*$`);

export function isStorableText(text: string): boolean {
  return !UNSTORABLE_CHARACTER.test(text);
}

export const UNSTORABLE_TEXT_MESSAGE =
  'must not contain control characters (U+0000 to U+001F) or unpaired surrogates';

/** An Idempotency-Key (1 to 255 storable characters), checked by every service that stores one. */
export function checkIdempotencyKey(key: string): void {
  const length = characterCount(key);
  if (length < 1 || length > TEXT_LIMITS.idempotencyKey) {
    throw new AppError(
      'parameter_invalid',
      `The idempotency key must be 1 to ${TEXT_LIMITS.idempotencyKey} characters.`,
      { param: 'idempotency_key' },
    );
  }
  if (!isStorableText(key)) {
    throw new AppError('parameter_invalid', `The idempotency key ${UNSTORABLE_TEXT_MESSAGE}.`, {
      param: 'idempotency_key',
    });
  }
}
