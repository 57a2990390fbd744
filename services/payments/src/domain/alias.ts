import { AppError, maskAlias } from '@sika/platform';

/** Spec §8. */
export const ALIAS_MAX_LENGTH = 40;

/** `+`, a 3-digit country code, 8 to 10 digits; spaces, dots and hyphens are ignored (spec §2.2). */
const PHONE = /^\+(\d{3})(\d{8,10})$/;
const PHONE_SEPARATORS = /[\s.-]/g;
/** A payment address: 1 to 36 letters, digits or hyphens. */
const IDENTIFIER = /^[A-Za-z0-9-]{1,36}$/;

export interface PayerAlias {
  /** Canonical form sent to the scheme: `+225 0700000001` for a phone number, the identifier as entered. */
  value: string;
  /** What may be shown and logged: `+225 07******01`. */
  masked: string;
}

/**
 * Validates and normalises a customer alias. Phone numbers take the form the spec writes them in (country
 * code, one space, national number), so one customer typing `+225 07.00.00.00.01` or `+2250700000001` is
 * the same payer.
 */
export function parsePayerAlias(raw: string, param = 'customer_alias'): PayerAlias {
  if ([...raw].length > ALIAS_MAX_LENGTH) {
    throw new AppError('parameter_invalid', `The alias must be at most ${ALIAS_MAX_LENGTH} characters.`, {
      param,
    });
  }
  const phone = raw.startsWith('+') ? PHONE.exec(raw.replace(PHONE_SEPARATORS, '')) : null;
  if (phone) {
    const value = `+${phone[1]} ${phone[2]}`;
    return { value, masked: maskAlias(value) };
  }
  if (IDENTIFIER.test(raw)) return { value: raw, masked: maskAlias(raw) };
  throw new AppError(
    'parameter_invalid',
    'The alias must be an international phone number (+, a 3-digit country code, 8 to 10 digits) or an identifier of 1 to 36 letters, digits or hyphens.',
    { param },
  );
}
