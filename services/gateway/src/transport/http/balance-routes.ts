import type { Express } from 'express';

import { parseInput } from '../../domain/validation';
import { addApiRoute, type ApiRouteOptions } from './api-route';

/** Spec §4.5 and §4.6. */
export function addBalanceRoutes(app: Express, { useCases, schemas, guard }: ApiRouteOptions): void {
  addApiRoute(app, guard, '/v1/balance', {
    get: (_request, scope) => useCases.retrieveBalance.execute(scope),
  });

  addApiRoute(app, guard, '/v1/balance_transactions', {
    get: (request, scope) =>
      useCases.listBalanceTransactions.execute(
        scope,
        parseInput(schemas.listBalanceTransactionsQuery, request.query),
      ),
  });
}
