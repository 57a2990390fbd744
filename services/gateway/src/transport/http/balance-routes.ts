import type { Express, RequestHandler } from 'express';

import type { GatewayUseCases } from './gateway-app';
import { parseInput } from '../../domain/validation';
import { authenticatedKeyOf } from './authentication';
import { methodNotAllowed } from './method-not-allowed';
import type { RequestSchemas } from './request-schemas';

/** Spec §4.5 and §4.6. */
export function addBalanceRoutes(
  app: Express,
  {
    useCases,
    schemas,
    guard,
  }: { useCases: GatewayUseCases; schemas: RequestSchemas; guard: RequestHandler[] },
): void {
  app
    .route('/v1/balance')
    .get(...guard, async (_request, response) => {
      response.json(await useCases.retrieveBalance.execute(authenticatedKeyOf(response).scope));
    })
    .all(methodNotAllowed(['GET']));

  app
    .route('/v1/balance_transactions')
    .get(...guard, async (request, response) => {
      const query = parseInput(schemas.listBalanceTransactionsQuery, request.query);
      response.json(
        await useCases.listBalanceTransactions.execute(authenticatedKeyOf(response).scope, query),
      );
    })
    .all(methodNotAllowed(['GET']));
}
