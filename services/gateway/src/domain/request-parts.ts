import { z } from 'zod';

import { TEXT_LIMITS } from '@sika/rules';

import { EVENT_ID_PATTERN, PAYMENT_ID_PATTERN, PAYOUT_ID_PATTERN } from './fields';
import { boundedText } from './text';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Spec §4.1 and §8: 1 to 255 characters, kept 24 hours, scoped to the merchant and the mode. */
export const idempotencyKeySchema = boundedText(TEXT_LIMITS.idempotencyKey, { min: 1 }).describe(
  'Makes the request safe to retry: the same key with the same body returns the same result; with another ' +
    'body, 409 idempotency_key_reused; while a request with the key is still running, 409 ' +
    'idempotency_key_in_use. 1 to 255 characters, kept 24 hours, scoped to the merchant and the mode of the key.',
);

/**
 * The `{id}` of payment paths. An id that cannot exist is answered 404 resource_missing, exactly like an id
 * that does not exist (decided: the spec does not say; a 400 would tell malformed from unknown for no benefit).
 */
export const paymentIdSchema = z
  .string()
  .regex(PAYMENT_ID_PATTERN)
  .describe('A payment id, `pay_` then letters and digits.');

/** Cancel (no body in the spec) and the test helpers: an empty body or `{}`, nothing else. */
export const emptyBodySchema = z.strictObject({});

/** The `{id}` of payout paths (spec §4.9); one that cannot exist is answered like one that does not. */
export const payoutIdSchema = z
  .string()
  .regex(PAYOUT_ID_PATTERN)
  .describe('A payout id, `po_` then letters and digits.');

/** The `{id}` of event paths; one that cannot exist is answered like one that does not. */
export const eventIdSchema = z
  .string()
  .regex(EVENT_ID_PATTERN)
  .describe('An event id, `evt_` then letters and digits.');

/**
 * `POST /v1/payouts` (spec §4.7): the body is optional; `amount` absent or null pays out the whole available
 * balance. The largest amount is the largest exact JSON integer, as for payments.
 */
export const payoutCreationSchema = z
  .strictObject({
    amount: z
      .int()
      .min(1)
      .nullable()
      .optional()
      .describe(
        'Whole francs (XOF) to pay out, at least 1. Absent or null: the whole available balance. More than ' +
          'available, or an empty balance: 400 balance_insufficient, and nothing is reserved.',
      ),
  })
  .meta({ id: 'PayoutCreationInput' });

export type PayoutCreationInput = z.output<typeof payoutCreationSchema>;
