import type { Express, RequestHandler } from 'express';

import type { GatewayUseCases } from './gateway-app';
import { parseInput } from '../../domain/validation';
import { authenticatedKeyOf } from './authentication';
import { pathIdOf } from './path-id';
import { idempotencyKeyOf } from './idempotency-key';
import { methodNotAllowed } from './method-not-allowed';
import type { RequestSchemas } from './request-schemas';
import { jsonBodyOf } from './request-body';

/** Spec §4.1 to §4.4. Every success is 200, creation included (decided, as Stripe does). */
export function addPaymentRoutes(
  app: Express,
  {
    useCases,
    schemas,
    guard,
  }: { useCases: GatewayUseCases; schemas: RequestSchemas; guard: RequestHandler[] },
): void {
  app
    .route('/v1/payments')
    .post(...guard, async (request, response) => {
      const idempotencyKey = idempotencyKeyOf(request, schemas);
      // With a key, the time-dependent rules wait for payments' replay lookup (spec §4.1).
      const schema = idempotencyKey === undefined ? schemas.paymentCreation : schemas.paymentCreationShape;
      const input = parseInput(schema, jsonBodyOf(request));
      const { scope } = authenticatedKeyOf(response);
      response.json(await useCases.createPayment.execute(scope, input, idempotencyKey));
    })
    .get(...guard, async (request, response) => {
      const query = parseInput(schemas.listPaymentsQuery, request.query);
      response.json(await useCases.listPayments.execute(authenticatedKeyOf(response).scope, query));
    })
    .all(methodNotAllowed(['GET', 'POST']));

  app
    .route('/v1/payments/:id')
    .get(...guard, async (request, response) => {
      const paymentId = pathIdOf(request, schemas.paymentId, 'payment');
      response.json(await useCases.retrievePayment.execute(authenticatedKeyOf(response).scope, paymentId));
    })
    .all(methodNotAllowed(['GET']));

  app
    .route('/v1/payments/:id/cancel')
    .post(...guard, async (request, response) => {
      const paymentId = pathIdOf(request, schemas.paymentId, 'payment');
      const idempotencyKey = idempotencyKeyOf(request, schemas);
      parseInput(schemas.emptyBody, jsonBodyOf(request));
      response.json(
        await useCases.cancelPayment.execute(authenticatedKeyOf(response).scope, paymentId, idempotencyKey),
      );
    })
    .all(methodNotAllowed(['POST']));
}
