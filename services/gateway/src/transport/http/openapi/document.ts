import {
  BalanceSchema,
  BalanceTransactionSchema,
  EventSchema,
  listSchema,
  PaymentSchema,
  PayoutSchema,
} from '@sika/public-api';
import type { z } from 'zod';

import type { RateLimitPolicy } from '@sika/platform';
import { IDEMPOTENCY_KEY_HEADER } from '../../../domain/request-parts';
import type { RequestSchemas } from '../request-schemas';
import { decisions } from './decisions';
import { ErrorSchema } from './error-schema';
import { componentRef, inputSchema, outputComponents, type JsonSchema } from './json-schema';
import { webhooksSection } from './webhooks';

const PaymentListSchema = listSchema(PaymentSchema, 'PaymentList');
const BalanceTransactionListSchema = listSchema(BalanceTransactionSchema, 'BalanceTransactionList');
const PayoutListSchema = listSchema(PayoutSchema, 'PayoutList');
const EventListSchema = listSchema(EventSchema, 'EventList');

export const API_VERSION = '1.0.0-draft';

export interface OpenApiOptions {
  schemas: RequestSchemas;
  rateLimits: { test: RateLimitPolicy; live: RateLimitPolicy };
  /** Failed authentications allowed per client address and window. */
  authFailureLimit: RateLimitPolicy;
  /** The public base URL (without /v1); without it, paths are relative to where the document was fetched. */
  serverUrl?: string;
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

const AUTHENTICATED_HEADERS = {
  'Request-Id': headerRef('RequestId'),
  'RateLimit-Limit': headerRef('RateLimitLimit'),
  'RateLimit-Remaining': headerRef('RateLimitRemaining'),
  'RateLimit-Reset': headerRef('RateLimitReset'),
};

function success(description: string, schemaId: string) {
  return {
    description: `${description} Status 200 for every success, creation included (decided).`,
    headers: AUTHENTICATED_HEADERS,
    content: json(componentRef(schemaId)),
  };
}

/** Responses every authenticated operation can give, besides its own. */
const COMMON_ERRORS = {
  '400': responseRef('InvalidRequest'),
  '401': responseRef('Unauthenticated'),
  '429': responseRef('RateLimited'),
  '500': responseRef('InternalError'),
  '503': responseRef('Unavailable'),
  default: responseRef('OtherError'),
};

function errorResponse(description: string, headers: Record<string, unknown> = AUTHENTICATED_HEADERS) {
  return { description, headers, content: json(componentRef('Error')) };
}

/** A strict zod object of query parameters → OpenAPI parameters, one per field. */
function queryParameters(schema: z.ZodObject): JsonSchema[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const { description, ...fieldSchema } = inputSchema(field as z.ZodType);
    return { name, in: 'query', required: false, description, schema: fieldSchema };
  });
}

function parameterFrom(name: string, location: 'header' | 'path', schema: z.ZodType, required: boolean) {
  const { description, ...fieldSchema } = inputSchema(schema);
  return { name, in: location, required, description, schema: fieldSchema };
}

/** The OpenAPI 3.1 document of the public API, generated from the schemas the routes validate with. */
export function buildOpenApiDocument({
  schemas,
  rateLimits,
  authFailureLimit,
  serverUrl,
}: OpenApiOptions): JsonSchema {
  const decided = decisions(rateLimits, authFailureLimit);
  const idempotencyKey = parameterFrom(IDEMPOTENCY_KEY_HEADER, 'header', schemas.idempotencyKey, false);
  const paymentId = {
    ...parameterFrom('id', 'path', schemas.paymentId, true),
    description:
      'A payment id. One that does not match the pattern is answered 404 resource_missing (decided).',
  };
  const payoutId = {
    ...parameterFrom('id', 'path', schemas.payoutId, true),
    description:
      'A payout id. One that does not match the pattern is answered 404 resource_missing (decided).',
  };
  const eventId = {
    ...parameterFrom('id', 'path', schemas.eventId, true),
    description:
      'An event id. One that does not match the pattern is answered 404 resource_missing (decided).',
  };
  const unknownQuery = 'Unknown query parameters are refused with 400 parameter_unknown.';
  const listInvalid = errorResponse(
    'Invalid input with its param, or resource_missing (param starting_after): no such record for this ' +
      'merchant and mode to start after (400, as Stripe answers; decided).',
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Sika API',
      version: API_VERSION,
      description:
        'Collect payments over PI-SPI. Decisions where the specification says "not shown":\n\n' +
        decided.map((item) => `- **${item.topic}** (${item.spec}): ${item.decision}`).join('\n'),
    },
    ...(serverUrl === undefined ? {} : { servers: [{ url: serverUrl }] }),
    security: [{ secretKey: [] }],
    'x-sika-decisions': decided,
    'x-sika-rate-limits': {
      test: { limit: rateLimits.test.limit, window_seconds: rateLimits.test.windowMs / 1000 },
      live: { limit: rateLimits.live.limit, window_seconds: rateLimits.live.windowMs / 1000 },
      failed_authentications_per_address: {
        limit: authFailureLimit.limit,
        window_seconds: authFailureLimit.windowMs / 1000,
      },
    },
    webhooks: webhooksSection(),
    paths: {
      '/v1/payments': {
        post: {
          operationId: 'createPayment',
          summary: 'Create a payment',
          description: 'Spec §4.1. The response carries checkout_url, where to send the customer.',
          parameters: [idempotencyKey],
          requestBody: { required: true, content: json(componentRef('PaymentCreationInput')) },
          responses: {
            '200': success('The payment, in status created.', 'Payment'),
            '409': errorResponse(
              'idempotency_key_reused (same key, another body) or idempotency_key_in_use (same key, still running).',
            ),
            '422': errorResponse('alias_unknown: the customer_alias is unknown to the scheme.'),
            ...COMMON_ERRORS,
          },
        },
        get: {
          operationId: 'listPayments',
          summary: 'List payments',
          description: `Spec §4.2. Most recent first; keep paging with starting_after while has_more. ${unknownQuery}`,
          parameters: queryParameters(schemas.listPaymentsQuery),
          responses: {
            '200': success('A page of payments.', 'PaymentList'),
            ...COMMON_ERRORS,
            '400': listInvalid,
          },
        },
      },
      '/v1/payments/{id}': {
        get: {
          operationId: 'retrievePayment',
          summary: 'Retrieve a payment',
          description: 'Spec §4.3. May be polled to follow the status.',
          parameters: [paymentId],
          responses: {
            '200': success('The payment with its attempts.', 'Payment'),
            '404': responseRef('NotFound'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/v1/payments/{id}/cancel': {
        post: {
          operationId: 'cancelPayment',
          summary: 'Cancel a payment',
          description: 'Spec §4.4. No body, or an empty JSON object.',
          parameters: [paymentId, idempotencyKey],
          requestBody: { required: false, content: json(inputSchema(schemas.emptyBody)) },
          responses: {
            '200': success('The payment, in status canceled.', 'Payment'),
            '404': responseRef('NotFound'),
            '409': errorResponse('payment_already_final, or an idempotency conflict.'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/v1/balance': {
        get: {
          operationId: 'retrieveBalance',
          summary: 'Retrieve the balance',
          description: "Spec §4.5. The balance of the key's mode.",
          responses: { '200': success('The balance.', 'Balance'), ...COMMON_ERRORS },
        },
      },
      '/v1/balance_transactions': {
        get: {
          operationId: 'listBalanceTransactions',
          summary: 'List account movements',
          description: `Spec §4.6. Most recent first. ${unknownQuery}`,
          parameters: queryParameters(schemas.listBalanceTransactionsQuery),
          responses: {
            '200': success('A page of movements.', 'BalanceTransactionList'),
            ...COMMON_ERRORS,
            '400': listInvalid,
          },
        },
      },
      '/v1/payouts': {
        post: {
          operationId: 'createPayout',
          summary: 'Create a payout',
          description:
            'Spec §4.7. Pays the amount (or, without one, the whole available balance) to the payout account; ' +
            'the amount moves from available to pending_payout at once. The Idempotency-Key header is required ' +
            '(decided). payout.paid or payout.failed follows as a webhook.',
          parameters: [{ ...idempotencyKey, required: true }],
          requestBody: { required: false, content: json(componentRef('PayoutCreationInput')) },
          responses: {
            '200': success('The payout, in status pending.', 'Payout'),
            '403': errorResponse(
              'payout_account_missing: live mode without a verified payout account (checked before the balance); ' +
                'payout_account_cooling_down: the live account was confirmed less than 24 h ago.',
            ),
            '409': errorResponse(
              'idempotency_key_reused (same key, another body) or idempotency_key_in_use (same key, still running).',
            ),
            ...COMMON_ERRORS,
            '400': errorResponse(
              'balance_insufficient (more than available, or an empty balance: nothing is reserved), ' +
                'parameter_missing (no Idempotency-Key), or another invalid input with its param.',
            ),
          },
        },
        get: {
          operationId: 'listPayouts',
          summary: 'List payouts',
          description: `Spec §4.8. Most recent first; keep paging with starting_after while has_more. ${unknownQuery}`,
          parameters: queryParameters(schemas.listPayoutsQuery),
          responses: {
            '200': success('A page of payouts.', 'PayoutList'),
            ...COMMON_ERRORS,
            '400': listInvalid,
          },
        },
      },
      '/v1/payouts/{id}': {
        get: {
          operationId: 'retrievePayout',
          summary: 'Retrieve a payout',
          description: 'Spec §4.9.',
          parameters: [payoutId],
          responses: {
            '200': success('The payout.', 'Payout'),
            '404': responseRef('NotFound'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/v1/events': {
        get: {
          operationId: 'listEvents',
          summary: 'List events',
          description:
            'The events sent to your webhook endpoint (decided, as Stripe: the spec has no events list), most ' +
            'recent first, each exactly as delivered; the dashboard shows the same ones. Use it to recover ' +
            'webhooks you missed: page with starting_after while has_more, and process each event idempotently ' +
            'on its id. Events are kept at least 30 days. object_id gives the whole history of one payment or ' +
            `payout. ${unknownQuery}`,
          parameters: queryParameters(schemas.listEventsQuery),
          responses: {
            '200': success('A page of events.', 'EventList'),
            ...COMMON_ERRORS,
            '400': listInvalid,
          },
        },
      },
      '/v1/events/{id}': {
        get: {
          operationId: 'retrieveEvent',
          summary: 'Retrieve an event',
          description:
            'The event with the same JSON as every webhook delivery of it (the body that was signed, parsed).',
          parameters: [eventId],
          responses: {
            '200': success('The event.', 'Event'),
            '404': responseRef('NotFound'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/v1/test_helpers/payments/{id}/pay': {
        post: {
          operationId: 'payTestPayment',
          summary: 'Test helper: the customer pays now',
          description:
            "Test mode only (a live key is 403 test_mode_only). The customer of the payment's latest request " +
            'waiting at their bank (aliases +225 0000000004 and +225 0000000007, who pay when asked) pays it ' +
            "now, through test mode's bank, as the dashboard's \"Simulate the customer's payment\" does. The " +
            'payment then changes by the ordinary path: succeeded and payment.succeeded follow a moment after ' +
            'this answer, which is the payment as it is once the bank accepted. On a payment already final the ' +
            'money is returned to the customer (a duplicate, or a payment after its cancellation). No body.',
          parameters: [paymentId],
          requestBody: { required: false, content: json(inputSchema(schemas.emptyBody)) },
          responses: {
            '200': success('The payment, once its customer paid at the bank.', 'Payment'),
            '403': errorResponse('test_mode_only: a live key, or a deployment without test mode.'),
            '404': responseRef('NotFound'),
            '409': errorResponse(
              "no_request_waiting: no request of this payment is waiting at the customer's bank for a " +
                'customer who pays when asked.',
            ),
            ...COMMON_ERRORS,
          },
        },
      },
      '/v1/test_helpers/payments/{id}/expire': {
        post: {
          operationId: 'expireTestPayment',
          summary: 'Test helper: the payment expires now',
          description:
            'Test mode only (a live key is 403 test_mode_only). A payment that is not final expires now, as ' +
            'at its deadline: status expired, expires_at moved to now, payment.expired. A request still ' +
            "waiting at the customer's bank stays there; paid later, its money goes back to the customer. No body.",
          parameters: [paymentId],
          requestBody: { required: false, content: json(inputSchema(schemas.emptyBody)) },
          responses: {
            '200': success('The payment, in status expired.', 'Payment'),
            '403': errorResponse('test_mode_only: a live key.'),
            '404': responseRef('NotFound'),
            '409': errorResponse('payment_already_final: the payment is already final.'),
            ...COMMON_ERRORS,
          },
        },
      },
      '/v1/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document',
          security: [],
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of this API, without authentication.',
              headers: { 'Request-Id': headerRef('RequestId') },
              content: json({ type: 'object' }),
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        secretKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The secret key: Authorization: Bearer sk_test_… (test mode) or sk_live_… (live mode). The prefix ' +
            'decides the mode of the request.',
        },
      },
      schemas: {
        PaymentCreationInput: inputSchema(schemas.paymentCreation),
        PayoutCreationInput: inputSchema(schemas.payoutCreation),
        ...outputComponents([
          PaymentSchema,
          PaymentListSchema,
          PayoutSchema,
          PayoutListSchema,
          BalanceSchema,
          BalanceTransactionListSchema,
          EventSchema,
          EventListSchema,
          ErrorSchema,
        ]),
      },
      headers: {
        RequestId: {
          description: 'The id of this request, also in error bodies. A valid incoming Request-Id is reused.',
          required: true,
          schema: { type: 'string' },
        },
        RateLimitLimit: {
          description: 'Requests allowed per window for this key (absent if the limiter is unavailable).',
          schema: { type: 'integer', minimum: 1 },
        },
        RateLimitRemaining: {
          description: 'Requests left in the current window.',
          schema: { type: 'integer', minimum: 0 },
        },
        RateLimitReset: {
          description: 'Seconds until the current window ends.',
          schema: { type: 'integer', minimum: 1 },
        },
        RetryAfter: {
          description: 'Seconds to wait before retrying.',
          required: true,
          schema: { type: 'integer', minimum: 1 },
        },
      },
      responses: {
        InvalidRequest: errorResponse(
          'Invalid input: parameter_missing, parameter_invalid, parameter_unknown or invalid_json, with param.',
        ),
        Unauthenticated: errorResponse('api_key_missing or api_key_invalid.', {
          'Request-Id': headerRef('RequestId'),
        }),
        NotFound: errorResponse(
          'resource_missing: no such payment, payout or event for this merchant and mode (or an id that cannot ' +
            'exist).',
        ),
        RateLimited: errorResponse(
          'rate_limited: too many requests with this key (with the RateLimit headers), or too many failed ' +
            'authentications from this address (Retry-After only, the key is not even read).',
          {
            ...AUTHENTICATED_HEADERS,
            'Retry-After': headerRef('RetryAfter'),
          },
        ),
        InternalError: errorResponse('internal_error: retry later, quote the request_id to support.'),
        Unavailable: errorResponse(
          'service_unavailable: a service behind the API, or its database, is saturated or briefly away. ' +
            'Retry after Retry-After seconds, with the same Idempotency-Key: a request that timed out may ' +
            'have taken effect, and the key answers with its result instead of doing it twice.',
          { ...AUTHENTICATED_HEADERS, 'Retry-After': headerRef('RetryAfter') },
        ),
        OtherError: errorResponse(
          'Any other error, in the same envelope (see the Error schema for every code).',
        ),
      },
    },
  };
}
