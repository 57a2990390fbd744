import type { Clock } from '@sika/platform';

import {
  listBalanceTransactionsQuerySchema,
  listEventsQuerySchema,
  listPaymentsQuerySchema,
  listPayoutsQuerySchema,
} from '../../domain/list-queries';
import { paymentCreationSchema, paymentCreationShapeSchema } from '../../domain/payment-creation';
import {
  emptyBodySchema,
  eventIdSchema,
  idempotencyKeySchema,
  paymentIdSchema,
  payoutCreationSchema,
  payoutIdSchema,
} from '../../domain/request-parts';

/**
 * Every schema that validates a request, gathered once per app: the routes parse with them and the OpenAPI
 * document is generated from these same objects.
 */
export function createRequestSchemas(clock: Clock) {
  return {
    paymentCreation: paymentCreationSchema(clock),
    paymentCreationShape: paymentCreationShapeSchema,
    emptyBody: emptyBodySchema,
    listPaymentsQuery: listPaymentsQuerySchema,
    listBalanceTransactionsQuery: listBalanceTransactionsQuerySchema,
    idempotencyKey: idempotencyKeySchema,
    paymentId: paymentIdSchema,
    payoutCreation: payoutCreationSchema,
    listPayoutsQuery: listPayoutsQuerySchema,
    payoutId: payoutIdSchema,
    listEventsQuery: listEventsQuerySchema,
    eventId: eventIdSchema,
  };
}

export type RequestSchemas = ReturnType<typeof createRequestSchemas>;
