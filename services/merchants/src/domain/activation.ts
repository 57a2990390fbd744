import type { ActivationDetails, ActivationStatus } from '@sika/rules';
import { z } from 'zod';

import { singleLineText } from './text';

export type { ActivationDetails, ActivationStatus };

export interface Activation {
  status: Exclude<ActivationStatus, 'not_requested'>;
  details: ActivationDetails;
  requestedAt: Date;
  /** Set once approved, never before. */
  approvedAt: Date | null;
}

export const LEGAL_NAME_MAX_LENGTH = 200;
export const CONTACT_NAME_MAX_LENGTH = 100;
/** The longest address SMTP can carry (RFC 5321 path limit). */
export const CONTACT_EMAIL_MAX_LENGTH = 254;

/**
 * A trade register number as registers write them: letters and digits with `-`, `/`, `.` or spaces between
 * (an Ivorian RCCM reads like `CI-ABJ-03-2024-B12-01234`), 3 to 50 characters.
 */
const REGISTRATION_NUMBER = /^[0-9A-Za-z](?:[0-9A-Za-z ./-]{1,48})[0-9A-Za-z]$/;

/** Spaces, dots, dashes and parentheses people put in phone numbers; E.164 itself has none. */
const PHONE_SEPARATORS = /[\s.()-]/g;
/** E.164: `+`, a country code not starting with 0, at most 15 digits in all; 8 at least to be a number. */
const E164 = /^\+[1-9][0-9]{7,14}$/;

/** The rules of each submitted field; zod paths are the field names, so errors can name them. */
export const activationDetailsSchema = z.object({
  legalName: singleLineText(LEGAL_NAME_MAX_LENGTH),
  registrationNumber: z
    .string()
    .trim()
    .refine(
      (value) => REGISTRATION_NUMBER.test(value),
      'must be 3 to 50 letters and digits, with -, /, . or spaces between them',
    ),
  contactName: singleLineText(CONTACT_NAME_MAX_LENGTH),
  contactEmail: z
    .string()
    .trim()
    .max(CONTACT_EMAIL_MAX_LENGTH, `must be at most ${CONTACT_EMAIL_MAX_LENGTH} characters`)
    .pipe(z.email('must be an email address such as name@example.com')),
  contactPhone: z
    .string()
    .transform((value) => value.replace(PHONE_SEPARATORS, ''))
    .refine(
      (value) => E164.test(value),
      'must be an international number: +, country code and number, e.g. +225 07 00 00 01 00',
    ),
}) satisfies z.ZodType<ActivationDetails>;

/** The status shown for a merchant, whether or not it has asked. */
export function activationStatusOf(activation: Activation | undefined): ActivationStatus {
  return activation?.status ?? 'not_requested';
}
