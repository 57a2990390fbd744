import { AppError } from '@sika/platform/pure';
import { characterCount, isStorableText, TEXT_LIMITS, UNSTORABLE_TEXT_MESSAGE } from '@sika/rules';
import { CURRENCY } from './payment';

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

/** A text field of at most `max` characters that Postgres can store; null passes. */
export function checkText(param: string, value: string | null, max: number): void {
  if (value === null) return;
  if (characterCount(value) > max) throw invalid(param, `${param} must be at most ${max} characters.`);
  if (!isStorableText(value)) throw invalid(param, `${param} ${UNSTORABLE_TEXT_MESSAGE}.`);
}

/**
 * The gateway validated the public input; these checks guard the invariants this service's data relies on
 * whoever the caller is (defence in depth), with the same codes and params as the gateway's.
 */
export function checkNewPaymentFields(fields: NewPaymentFields): void {
  if (fields.amount < 1n) throw invalid('amount', 'amount must be a whole number of XOF, at least 1.');
  if (fields.currency !== CURRENCY) throw invalid('currency', `currency must be ${CURRENCY}.`);
  checkText('reference', fields.reference, TEXT_LIMITS.reference);
  checkText('description', fields.description, TEXT_LIMITS.description);
  checkRedirectUrl('return_url', fields.returnUrl);
  if (fields.cancelUrl !== null) checkRedirectUrl('cancel_url', fields.cancelUrl);
  const entries = Object.entries(fields.metadata);
  if (entries.length > TEXT_LIMITS.metadataKeys) {
    throw invalid('metadata', `metadata takes at most ${TEXT_LIMITS.metadataKeys} keys.`);
  }
  for (const [key, value] of entries) {
    checkText(`metadata[${key}]`, key, TEXT_LIMITS.metadataKeyLength);
    if (characterCount(value) > TEXT_LIMITS.metadataValueLength) {
      throw invalid(
        `metadata[${key}]`,
        `metadata values must be at most ${TEXT_LIMITS.metadataValueLength} characters.`,
      );
    }
    if (!isStorableText(value))
      throw invalid(`metadata[${key}]`, `metadata values ${UNSTORABLE_TEXT_MESSAGE}.`);
  }
}
