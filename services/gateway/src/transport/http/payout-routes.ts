import type { Express, RequestHandler } from 'express';

import type { GatewayUseCases } from './gateway-app';
import { parseInput } from '../../domain/validation';
import { authenticatedKeyOf } from './authentication';
import { pathIdOf } from './path-id';
import { requiredIdempotencyKeyOf } from './idempotency-key';
import { methodNotAllowed } from './method-not-allowed';
import type { RequestSchemas } from './request-schemas';
import { jsonBodyOf } from './request-body';

/** Spec §4.7 to §4.9. */
export function addPayoutRoutes(
  app: Express,
  {
    useCases,
    schemas,
    guard,
  }: { useCases: GatewayUseCases; schemas: RequestSchemas; guard: RequestHandler[] },
): void {
  app
    .route('/v1/payouts')
    .post(...guard, async (request, response) => {
      // Required (decided): a retry without a key could pay the merchant's money out twice.
      const idempotencyKey = requiredIdempotencyKeyOf(request, schemas, 'create a payout');
      const input = parseInput(schemas.payoutCreation, jsonBodyOf(request));
      const { scope } = authenticatedKeyOf(response);
      response.json(await useCases.createPayout.execute(scope, input, idempotencyKey));
    })
    .get(...guard, async (request, response) => {
      const query = parseInput(schemas.listPayoutsQuery, request.query);
      response.json(await useCases.listPayouts.execute(authenticatedKeyOf(response).scope, query));
    })
    .all(methodNotAllowed(['GET', 'POST']));

  app
    .route('/v1/payouts/:id')
    .get(...guard, async (request, response) => {
      const payoutId = pathIdOf(request, schemas.payoutId, 'payout');
      response.json(await useCases.retrievePayout.execute(authenticatedKeyOf(response).scope, payoutId));
    })
    .all(methodNotAllowed(['GET']));
}
