import { PAGE_LIMIT } from '@sika/platform/pure';
import {
  balanceTransactionType,
  EVENT_TYPES,
  paymentStatus,
  payoutStatus,
  TEST_EVENT_TYPE,
} from '@sika/public-api';
import { z } from 'zod';

import {
  BALANCE_TRANSACTION_ID_PATTERN,
  dateTime,
  EVENT_ID_PATTERN,
  EVENT_OBJECT_ID_PATTERN,
  PAYMENT_ID_PATTERN,
  PAYOUT_ID_PATTERN,
} from './fields';
import { boundedText } from './text';

/**
 * Query values arrive as text: `limit` is digits only, read as a decimal number, then held to 1..100. Number()
 * alone would also take `1e2`, ` 5` or `0x10`, which no client means as a page size.
 */
const LIMIT_ERROR = { error: `must be a whole number from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}` };
const limit = z
  .preprocess(
    (value) => (typeof value === 'string' && !/^[0-9]+$/.test(value) ? Number.NaN : value),
    z.coerce
      .number(LIMIT_ERROR)
      .int(LIMIT_ERROR)
      .min(PAGE_LIMIT.min, LIMIT_ERROR)
      .max(PAGE_LIMIT.max, LIMIT_ERROR)
      .default(PAGE_LIMIT.default),
  )
  .describe('Page size, 1 to 100.');

const createdFrom = dateTime()
  .optional()
  .describe('Only records created at or after this instant (inclusive).');
const createdTo = dateTime().optional().describe('Only records created before this instant (exclusive).');

/** `GET /v1/payments` (spec §4.2). Unknown query parameters are refused like unknown body fields. */
export const listPaymentsQuerySchema = z.strictObject({
  status: z.enum(paymentStatus.names).optional().describe('Only payments in this status.'),
  reference: boundedText(100).optional().describe('Only payments with exactly this reference.'),
  created_from: createdFrom,
  created_to: createdTo,
  limit,
  starting_after: z
    .string()
    .regex(PAYMENT_ID_PATTERN)
    .optional()
    .describe('The id of the last payment of the previous page.'),
});

/** `GET /v1/balance_transactions` (spec §4.6). */
export const listBalanceTransactionsQuerySchema = z.strictObject({
  type: z.enum(balanceTransactionType.names).optional().describe('Only movements of this type.'),
  created_from: createdFrom,
  created_to: createdTo,
  limit,
  starting_after: z
    .string()
    .regex(BALANCE_TRANSACTION_ID_PATTERN)
    .optional()
    .describe('The id of the last movement of the previous page.'),
});

/** `GET /v1/payouts` (spec §4.8). */
export const listPayoutsQuerySchema = z.strictObject({
  status: z.enum(payoutStatus.names).optional().describe('Only payouts in this status.'),
  created_from: createdFrom,
  created_to: createdTo,
  limit,
  starting_after: z
    .string()
    .regex(PAYOUT_ID_PATTERN)
    .optional()
    .describe('The id of the last payout of the previous page.'),
});

/** `GET /v1/events` (decided: the spec has no events list; Stripe's, with the same filters as the others). */
export const listEventsQuerySchema = z.strictObject({
  type: z
    .enum([...EVENT_TYPES, TEST_EVENT_TYPE])
    .optional()
    .describe('Only events of this type (spec §6, or webhook.test).'),
  object_id: z
    .string()
    .regex(EVENT_OBJECT_ID_PATTERN)
    .optional()
    .describe('Only the events about this payment (pay_…) or payout (po_…): its whole history.'),
  created_from: createdFrom,
  created_to: createdTo,
  limit,
  starting_after: z
    .string()
    .regex(EVENT_ID_PATTERN)
    .optional()
    .describe('The id of the last event of the previous page.'),
});

export type ListPayoutsQuery = z.output<typeof listPayoutsQuerySchema>;
export type ListEventsQuery = z.output<typeof listEventsQuerySchema>;
export type ListPaymentsQuery = z.output<typeof listPaymentsQuerySchema>;
export type ListBalanceTransactionsQuery = z.output<typeof listBalanceTransactionsQuerySchema>;
