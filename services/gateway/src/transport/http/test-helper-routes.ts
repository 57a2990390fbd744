import { AppError } from '@sika/platform';
import type { Express, RequestHandler } from 'express';

import { parseInput } from '../../domain/validation';
import { addApiRoute, type ApiRouteOptions } from './api-route';
import { authenticatedKeyOf } from './authentication';
import { pathIdOf } from './path-id';
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
export function addTestHelperRoutes(app: Express, { useCases, schemas, guard }: ApiRouteOptions): void {
  const helpers = [
    ['pay', useCases.payPaymentNow],
    ['expire', useCases.expirePaymentNow],
  ] as const;
  for (const [action, useCase] of helpers) {
    addApiRoute(app, [...guard, testModeOnly], `/v1/test_helpers/payments/:id/${action}`, {
      post: (request, scope) => {
        const paymentId = pathIdOf(request, schemas.paymentId, 'payment');
        parseInput(schemas.emptyBody, jsonBodyOf(request));
        return useCase.execute(scope, paymentId);
      },
    });
  }
}
