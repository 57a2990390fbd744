import { createHttpApp, finishHttpApp, type Clock, type Logger, type Metrics } from '@sika/platform';
import type { Express } from 'express';

import type { RateLimiter } from '../../app/ports';
import type { UseCases } from '../../app/use-cases';
import type { RateLimitPolicy } from '../../domain/rate-limit-window';
import { authenticationMiddleware } from './authentication';
import { addBalanceRoutes } from './balance-routes';
import { methodNotAllowed } from './method-not-allowed';
import { buildOpenApiDocument } from './openapi/document';
import { addPaymentRoutes } from './payment-routes';
import { rateLimitMiddleware } from './rate-limit';
import { createRequestSchemas } from './request-schemas';

export interface GatewayAppOptions {
  logger: Logger;
  metrics: Metrics;
  clock: Clock;
  useCases: UseCases;
  rateLimiter: RateLimiter;
  rateLimits: { test: RateLimitPolicy; live: RateLimitPolicy };
  /** Public base URL announced in the OpenAPI document's `servers`. */
  publicBaseUrl?: string;
}

/** The public API: /v1 routes, the OpenAPI document, and platform's health, metrics and error envelope. */
export function createGatewayApp(options: GatewayAppOptions): Express {
  const { useCases, rateLimiter } = options;
  const schemas = createRequestSchemas(options.clock);
  const openApiDocument = JSON.stringify(
    buildOpenApiDocument({ schemas, rateLimits: options.rateLimits, serverUrl: options.publicBaseUrl }),
  );

  const app = createHttpApp({ logger: options.logger, metrics: options.metrics });
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
  return finishHttpApp(app);
}
