import type { Express } from 'express';

import { parseInput } from '../../domain/validation';
import { addApiRoute, type ApiRouteOptions } from './api-route';
import { pathIdOf } from './path-id';
import { idempotencyKeyOf } from './idempotency-key';
import { jsonBodyOf } from './request-body';

/** Spec §4.1 to §4.4. Every success is 200, creation included (decided, as Stripe does). */
export function addPaymentRoutes(app: Express, { useCases, schemas, guard }: ApiRouteOptions): void {
  addApiRoute(app, guard, '/v1/payments', {
    post: (request, scope) => {
      const idempotencyKey = idempotencyKeyOf(request, schemas);
      // With a key, the time-dependent rules wait for payments' replay lookup (spec §4.1).
      const schema = idempotencyKey === undefined ? schemas.paymentCreation : schemas.paymentCreationShape;
      const input = parseInput(schema, jsonBodyOf(request));
      return useCases.createPayment.execute(scope, input, idempotencyKey);
    },
    get: (request, scope) =>
      useCases.listPayments.execute(scope, parseInput(schemas.listPaymentsQuery, request.query)),
  });

  addApiRoute(app, guard, '/v1/payments/:id', {
    get: (request, scope) =>
      useCases.retrievePayment.execute(scope, pathIdOf(request, schemas.paymentId, 'payment')),
  });

  addApiRoute(app, guard, '/v1/payments/:id/cancel', {
    post: (request, scope) => {
      const paymentId = pathIdOf(request, schemas.paymentId, 'payment');
      const idempotencyKey = idempotencyKeyOf(request, schemas);
      parseInput(schemas.emptyBody, jsonBodyOf(request));
      return useCases.cancelPayment.execute(scope, paymentId, idempotencyKey);
    },
  });
}
