import type { Express } from 'express';

import { parseInput } from '../../domain/validation';
import { addApiRoute, type ApiRouteOptions } from './api-route';
import { pathIdOf } from './path-id';
import { requiredIdempotencyKeyOf } from './idempotency-key';
import { jsonBodyOf } from './request-body';

/** Spec §4.7 to §4.9. */
export function addPayoutRoutes(app: Express, { useCases, schemas, guard }: ApiRouteOptions): void {
  addApiRoute(app, guard, '/v1/payouts', {
    post: (request, scope) => {
      // Required (decided): a retry without a key could pay the merchant's money out twice.
      const idempotencyKey = requiredIdempotencyKeyOf(request, schemas, 'create a payout');
      const input = parseInput(schemas.payoutCreation, jsonBodyOf(request));
      return useCases.createPayout.execute(scope, input, idempotencyKey);
    },
    get: (request, scope) =>
      useCases.listPayouts.execute(scope, parseInput(schemas.listPayoutsQuery, request.query)),
  });

  addApiRoute(app, guard, '/v1/payouts/:id', {
    get: (request, scope) =>
      useCases.retrievePayout.execute(scope, pathIdOf(request, schemas.payoutId, 'payout')),
  });
}
