import { createHttpApp, finishHttpApp, type Clock, type Logger, type Metrics } from '@sika/platform';
import type { Express } from 'express';

import type { AuthenticateKey } from '../../app/authenticate-key';
import type { CancelPayment } from '../../app/cancel-payment';
import type { CreatePayment } from '../../app/create-payment';
import type { CreatePayout } from '../../app/create-payout';
import type { ExpirePaymentNow } from '../../app/expire-payment-now';
import type { ListBalanceTransactions } from '../../app/list-balance-transactions';
import type { ListEvents } from '../../app/list-events';
import type { ListPayments } from '../../app/list-payments';
import type { ListPayouts } from '../../app/list-payouts';
import type { PayPaymentNow } from '../../app/pay-payment-now';
import type { RateLimiter } from '../../app/ports';
import type { RetrieveBalance } from '../../app/retrieve-balance';
import type { RetrieveEvent } from '../../app/retrieve-event';
import type { RetrievePayment } from '../../app/retrieve-payment';
import type { RetrievePayout } from '../../app/retrieve-payout';
import type { RateLimitPolicy } from '@sika/platform';
import { authenticationMiddleware } from './authentication';
import { addBalanceRoutes } from './balance-routes';
import { addEventRoutes } from './event-routes';
import { methodNotAllowed } from './method-not-allowed';
import { buildOpenApiDocument } from './openapi/document';
import { addPaymentRoutes } from './payment-routes';
import { addPayoutRoutes } from './payout-routes';
import { rateLimitMiddleware } from './rate-limit';
import { addTestHelperRoutes } from './test-helper-routes';
import { createRequestSchemas } from './request-schemas';

export interface GatewayUseCases {
  authenticateKey: AuthenticateKey;
  createPayment: CreatePayment;
  listPayments: ListPayments;
  retrievePayment: RetrievePayment;
  cancelPayment: CancelPayment;
  retrieveBalance: RetrieveBalance;
  listBalanceTransactions: ListBalanceTransactions;
  createPayout: CreatePayout;
  listPayouts: ListPayouts;
  retrievePayout: RetrievePayout;
  payPaymentNow: PayPaymentNow;
  expirePaymentNow: ExpirePaymentNow;
  listEvents: ListEvents;
  retrieveEvent: RetrieveEvent;
}

export interface GatewayAppOptions {
  logger: Logger;
  metrics: Metrics;
  clock: Clock;
  useCases: GatewayUseCases;
  rateLimiter: RateLimiter;
  rateLimits: { test: RateLimitPolicy; live: RateLimitPolicy };
  /** Failed authentications allowed per client address (published in the OpenAPI document). */
  authFailureLimit: RateLimitPolicy;
  /** Proxies in front: how many X-Forwarded-For hops name the client's address. */
  trustProxyHops: number;
  /** Public base URL announced in the OpenAPI document's `servers`. */
  publicBaseUrl?: string;
}

/** The public API: /v1 routes, the OpenAPI document, and platform's health, metrics and error envelope. */
export function createGatewayApp(options: GatewayAppOptions): Express {
  const { useCases, rateLimiter } = options;
  const schemas = createRequestSchemas(options.clock);
  const openApiDocument = JSON.stringify(
    buildOpenApiDocument({
      schemas,
      rateLimits: options.rateLimits,
      authFailureLimit: options.authFailureLimit,
      serverUrl: options.publicBaseUrl,
    }),
  );

  const app = createHttpApp({ logger: options.logger, metrics: options.metrics });
  app.set('trust proxy', options.trustProxyHops);
  // Full paths on the app rather than a router mounted at /v1: the access log and the metrics label a
  // request with its route once the response has finished, when a mounted router no longer sets baseUrl.
  app
    .route('/v1/openapi.json')
    .get((_request, response) => {
      response.type('application/json').send(openApiDocument);
    })
    .all(methodNotAllowed(['GET']));

  // Authentication, then the rate limit, then the route: a 401 costs no rate-limit budget and carries no
  // RateLimit headers; everything after authentication does.
  const guard = [authenticationMiddleware(useCases.authenticateKey), rateLimitMiddleware(rateLimiter)];
  addPaymentRoutes(app, { useCases, schemas, guard });
  addBalanceRoutes(app, { useCases, schemas, guard });
  addPayoutRoutes(app, { useCases, schemas, guard });
  addEventRoutes(app, { useCases, schemas, guard });
  addTestHelperRoutes(app, { useCases, schemas, guard });
  return finishHttpApp(app);
}
