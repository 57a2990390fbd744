import type { components, operations, paths } from './generated/openapi';
import type { Operation } from './http-client';

type Schemas = components['schemas'];

export type Payment = Schemas['Payment'];
export type PaymentAttempt = Schemas['PaymentAttempt'];
export type PaymentCreationInput = Schemas['PaymentCreationInput'];
export type Payout = Schemas['Payout'];
export type PayoutCreationInput = Schemas['PayoutCreationInput'];
export type Balance = Schemas['Balance'];
export type BalanceTransaction = Schemas['BalanceTransaction'];
export type Event = Schemas['Event'];

/** The query parameters of a list operation, as the API's document describes them. */
export type QueryOf<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>;
export type PaymentListParams = QueryOf<'listPayments'>;
export type BalanceTransactionListParams = QueryOf<'listBalanceTransactions'>;
export type PayoutListParams = QueryOf<'listPayouts'>;
export type EventListParams = QueryOf<'listEvents'>;

/** The JSON a successful call of the operation answers. */
export type ResultOf<O extends keyof operations> = operations[O]['responses'] extends {
  200: { content: { 'application/json': infer R } };
}
  ? R
  : never;

/**
 * Every operation of the API's OpenAPI document, as this library calls it. Keyed by operationId and typed
 * against the document, so a new operation fails the build until the library covers it. Creations send an
 * Idempotency-Key; so does cancel, whose retry must not turn into 409 payment_already_final.
 */
export const OPERATIONS = {
  createPayment: { method: 'POST', path: '/v1/payments', idempotency: 'generated' },
  listPayments: { method: 'GET', path: '/v1/payments', idempotency: 'none' },
  retrievePayment: { method: 'GET', path: '/v1/payments/{id}', idempotency: 'none' },
  cancelPayment: { method: 'POST', path: '/v1/payments/{id}/cancel', idempotency: 'generated' },
  retrieveBalance: { method: 'GET', path: '/v1/balance', idempotency: 'none' },
  listBalanceTransactions: { method: 'GET', path: '/v1/balance_transactions', idempotency: 'none' },
  createPayout: { method: 'POST', path: '/v1/payouts', idempotency: 'generated' },
  listPayouts: { method: 'GET', path: '/v1/payouts', idempotency: 'none' },
  retrievePayout: { method: 'GET', path: '/v1/payouts/{id}', idempotency: 'none' },
  payTestPayment: { method: 'POST', path: '/v1/test_helpers/payments/{id}/pay', idempotency: 'none' },
  expireTestPayment: { method: 'POST', path: '/v1/test_helpers/payments/{id}/expire', idempotency: 'none' },
  listEvents: { method: 'GET', path: '/v1/events', idempotency: 'none' },
  retrieveEvent: { method: 'GET', path: '/v1/events/{id}', idempotency: 'none' },
  getOpenApiDocument: { method: 'GET', path: '/v1/openapi.json', idempotency: 'none' },
} as const satisfies Record<keyof operations, Operation & { path: keyof paths }>;
