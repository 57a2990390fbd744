import { AppError } from '@sika/platform';
import type { Express, Request, RequestHandler } from 'express';

import type { GatewayUseCases } from './gateway-app';
import { parseInput } from '../../domain/validation';
import { authenticatedKeyOf } from './authentication';
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
  // A malformed id is answered exactly like an unknown one, and payouts is not asked.
  const payoutIdOf = (request: Request): string => {
    const id = String(request.params['id']);
    if (!schemas.payoutId.safeParse(id).success) {
      throw new AppError('resource_missing', `No such payout: '${id}'.`, { param: 'id' });
    }
    return id;
  };

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
      const payoutId = payoutIdOf(request);
      response.json(await useCases.retrievePayout.execute(authenticatedKeyOf(response).scope, payoutId));
    })
    .all(methodNotAllowed(['GET']));
}
