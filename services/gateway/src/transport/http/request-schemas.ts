import type { Clock } from '@sika/platform';

import { listBalanceTransactionsQuerySchema, listPaymentsQuerySchema } from '../../domain/list-queries';
import { paymentCreationSchema } from '../../domain/payment-creation';
import { cancelPaymentBodySchema, idempotencyKeySchema, paymentIdSchema } from '../../domain/request-parts';

/**
 * Every schema that validates a request, gathered once per app: the routes parse with them and the OpenAPI
 * document is generated from these same objects.
 */
export function createRequestSchemas(clock: Clock) {
  return {
    paymentCreation: paymentCreationSchema(clock),
    cancelPaymentBody: cancelPaymentBodySchema,
    listPaymentsQuery: listPaymentsQuerySchema,
    listBalanceTransactionsQuery: listBalanceTransactionsQuerySchema,
    idempotencyKey: idempotencyKeySchema,
    paymentId: paymentIdSchema,
  };
}

export type RequestSchemas = ReturnType<typeof createRequestSchemas>;
