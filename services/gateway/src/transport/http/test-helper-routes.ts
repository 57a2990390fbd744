import { AppError } from '@sika/platform';
import type { Express, RequestHandler } from 'express';

import type { GatewayUseCases } from './gateway-app';
import { parseInput } from '../../domain/validation';
import { authenticatedKeyOf } from './authentication';
import { pathIdOf } from './path-id';
import { methodNotAllowed } from './method-not-allowed';
import type { RequestSchemas } from './request-schemas';
import { jsonBodyOf } from './request-body';

/** A live key is refused before anything is looked up: test helpers never touch live records. */
const testModeOnly: RequestHandler = (_request, response, next) => {
  if (authenticatedKeyOf(response).scope.livemode) {
    throw new AppError('test_mode_only', 'Test helpers work with a test secret key (sk_test_…) only.');
  }
  next();
};

/**
 * Test helpers (Stripe's naming): what the customer or time would do to a test payment, done now, so that a
 * merchant's automated tests need neither the dashboard nor real waiting. No body, or `{}`.
 */
export function addTestHelperRoutes(
  app: Express,
  {
    useCases,
    schemas,
    guard,
  }: { useCases: GatewayUseCases; schemas: RequestSchemas; guard: RequestHandler[] },
): void {
  const helpers = [
    ['pay', useCases.payPaymentNow],
    ['expire', useCases.expirePaymentNow],
  ] as const;
  for (const [action, useCase] of helpers) {
    app
      .route(`/v1/test_helpers/payments/:id/${action}`)
      .post(...guard, testModeOnly, async (request, response) => {
        const paymentId = pathIdOf(request, schemas.paymentId, 'payment');
        parseInput(schemas.emptyBody, jsonBodyOf(request));
        response.json(await useCase.execute(authenticatedKeyOf(response).scope, paymentId));
      })
      .all(methodNotAllowed(['POST']));
  }
}
