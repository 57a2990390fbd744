import type { Clock } from '@sika/platform/pure';
import { z } from 'zod';

import {
  CUSTOMER_ALIAS_PATTERN,
  expiryProblem,
  PAYMENT_MODES,
  TEXT_LIMITS,
  type PaymentMode,
} from '@sika/rules';
import { dateTime, webUrl } from './fields';
import { boundedText } from './text';
import { SIKA_CODE } from './validation';

export const METADATA_MAX_KEYS = TEXT_LIMITS.metadataKeys;
export const METADATA_KEY_MAX_LENGTH = TEXT_LIMITS.metadataKeyLength;
export const METADATA_VALUE_MAX_LENGTH = TEXT_LIMITS.metadataValueLength;

const metadata = z
  .record(boundedText(METADATA_KEY_MAX_LENGTH, { min: 1 }), boundedText(METADATA_VALUE_MAX_LENGTH))
  .refine((entries) => Object.keys(entries).length <= METADATA_MAX_KEYS, {
    message: `must have at most ${METADATA_MAX_KEYS} keys`,
  })
  .meta({
    maxProperties: METADATA_MAX_KEYS,
    description:
      'String key/value pairs returned in payment reads and events: at most 20 keys of 1 to 40 characters, ' +
      'each value at most 500 characters.',
  });

const customerAlias = z
  .string()
  .max(TEXT_LIMITS.customerAlias)
  .regex(CUSTOMER_ALIAS_PATTERN, {
    error:
      'must be a phone number (+, a 3-digit country code, then 8 to 10 digits; spaces, dots and hyphens ignored) ' +
      'or an identifier of 1 to 36 letters, digits or hyphens',
  });

/** The shape of the creation input (spec §2.2), without the rules that depend on the current time. */
const creationShape = z.strictObject({
  amount: z.int().min(1).describe('Whole francs (XOF), at least 1 and at most 9007199254740991 (2^53 - 1).'),
  currency: z.literal('XOF').default('XOF').describe('The only currency: XOF.'),
  mode: z.enum(PAYMENT_MODES).default('immediate'),
  expires_at: dateTime()
    .nullable()
    .optional()
    .describe(
      'Deadline for payment. Immediate payments: optional (default 5 minutes), between 1 minute and 24 hours ' +
        'from now. On-delivery payments: required, between 24 hours and 30 days from now (PI-SPI lets a ' +
        'customer schedule a payment only with 24 hours or more to answer).',
    ),
  reference: boundedText(TEXT_LIMITS.reference)
    .nullable()
    .optional()
    .describe("The merchant's order reference, shown to the customer."),
  description: boundedText(TEXT_LIMITS.description)
    .nullable()
    .optional()
    .describe('Reason shown to the customer and passed to their bank.'),
  customer_alias: customerAlias
    .nullable()
    .optional()
    .describe(
      "The customer's alias; when given, the request leaves at once for the customer's bank and the payment " +
        'page opens on the waiting screen.',
    ),
  return_url: webUrl().describe('Merchant page the customer returns to after paying.'),
  cancel_url: webUrl()
    .nullable()
    .optional()
    .describe('Merchant page the customer returns to when abandoning.'),
  metadata: metadata.default({}),
});

export type PaymentCreationInput = z.output<typeof creationShape>;

/**
 * The validator of a creation with an Idempotency-Key: the shape only. Its `expires_at` bounds are checked by
 * payments after the key is looked up, so that a replay answers the payment even once its `expires_at` has
 * left the bounds (spec §4.1: same key, same body, same payment).
 */
export const paymentCreationShapeSchema = creationShape;

/**
 * The validator of `POST /v1/payments` without an Idempotency-Key: the shape above plus the `expires_at`
 * bounds, measured with `clock`. The OpenAPI document is generated from this same schema (the bounds appear
 * in the description).
 */
export function paymentCreationSchema(clock: Clock) {
  return creationShape.superRefine((input, context) => {
    const expiresAt = typeof input.expires_at === 'string' ? new Date(input.expires_at) : undefined;
    const problem = expiryProblem(input.mode, expiresAt, clock.now());
    if (problem === undefined) return;
    context.addIssue({
      code: 'custom',
      path: ['expires_at'],
      message: problem.message,
      params: { [SIKA_CODE]: problem.code },
    });
  });
}

/** The creation input as payments receives it and as the idempotency fingerprint sees it. */
export interface NormalizedPaymentCreation {
  amount: number;
  currency: 'XOF';
  mode: PaymentMode;
  expires_at?: string | undefined;
  reference?: string | undefined;
  description?: string | undefined;
  customer_alias?: string | undefined;
  return_url: string;
  cancel_url?: string | undefined;
  metadata: Record<string, string>;
}

/**
 * One form per meaning: null and absent are the same (no value, left out of the fingerprint's JSON), defaults
 * are applied, and `expires_at` is written in UTC. Two bodies that differ only in these ways create, or replay, the same payment.
 */
export function normalizePaymentCreation(input: PaymentCreationInput): NormalizedPaymentCreation {
  return {
    amount: input.amount,
    currency: input.currency,
    mode: input.mode,
    expires_at: typeof input.expires_at === 'string' ? new Date(input.expires_at).toISOString() : undefined,
    reference: input.reference ?? undefined,
    description: input.description ?? undefined,
    customer_alias: input.customer_alias ?? undefined,
    return_url: input.return_url,
    cancel_url: input.cancel_url ?? undefined,
    metadata: input.metadata,
  };
}
