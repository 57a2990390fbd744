import { AppError } from '@sika/platform';
import { CURRENCY } from './payment';

/** Spec §8. */
export const LIMITS = {
  referenceLength: 100,
  descriptionLength: 140,
  metadataKeys: 20,
  metadataValueLength: 500,
  idempotencyKeyLength: 255,
} as const;

/** Length in characters (code points), as the spec counts, not UTF-16 units. */
export function characterCount(text: string): number {
  return [...text].length;
}

function invalid(param: string, message: string): AppError {
  return new AppError('parameter_invalid', message, { param });
}

export interface NewPaymentFields {
  amount: bigint;
  currency: string;
  reference: string | null;
  description: string | null;
  returnUrl: string;
  cancelUrl: string | null;
  metadata: Readonly<Record<string, string>>;
}

/**
 * Only http(s): the hosted page redirects the customer there, and a `javascript:` or `data:` URI would run
 * in the page's origin.
 */
function checkRedirectUrl(param: string, value: string): void {
  if (!URL.canParse(value)) throw invalid(param, `${param} must be an absolute URL.`);
  const { protocol } = new URL(value);
  if (protocol !== 'https:' && protocol !== 'http:') throw invalid(param, `${param} must be an http(s) URL.`);
}

function checkMaxLength(param: string, value: string | null, max: number): void {
  if (value !== null && characterCount(value) > max) {
    throw invalid(param, `${param} must be at most ${max} characters.`);
  }
}

/**
 * The gateway validated the public input; these checks guard the invariants this service's data relies on
 * whoever the caller is (defence in depth), with the same codes and params as the gateway's.
 */
export function checkNewPaymentFields(fields: NewPaymentFields): void {
  if (fields.amount < 1n) throw invalid('amount', 'amount must be a whole number of XOF, at least 1.');
  if (fields.currency !== CURRENCY) throw invalid('currency', `currency must be ${CURRENCY}.`);
  checkMaxLength('reference', fields.reference, LIMITS.referenceLength);
  checkMaxLength('description', fields.description, LIMITS.descriptionLength);
  checkRedirectUrl('return_url', fields.returnUrl);
  if (fields.cancelUrl !== null) checkRedirectUrl('cancel_url', fields.cancelUrl);
  const entries = Object.entries(fields.metadata);
  if (entries.length > LIMITS.metadataKeys) {
    throw invalid('metadata', `metadata takes at most ${LIMITS.metadataKeys} keys.`);
  }
  for (const [key, value] of entries) {
    if (characterCount(value) > LIMITS.metadataValueLength) {
      throw invalid(
        `metadata[${key}]`,
        `metadata values must be at most ${LIMITS.metadataValueLength} characters.`,
      );
    }
  }
}

export function checkIdempotencyKey(key: string): void {
  const length = characterCount(key);
  if (length < 1 || length > LIMITS.idempotencyKeyLength) {
    throw invalid(
      'idempotency_key',
      `The idempotency key must be 1 to ${LIMITS.idempotencyKeyLength} characters.`,
    );
  }
}
