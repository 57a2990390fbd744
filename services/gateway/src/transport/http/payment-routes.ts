import { AppError } from '@sika/platform';
import type { Express, Request, RequestHandler } from 'express';

import type { GatewayUseCases } from './gateway-app';
import { parseInput } from '../../domain/validation';
import { authenticatedKeyOf } from './authentication';
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
  // A malformed id is answered exactly like an unknown one, and payments is not asked.
  const paymentIdOf = (request: Request): string => {
    const id = String(request.params['id']);
    if (!schemas.paymentId.safeParse(id).success) {
      throw new AppError('resource_missing', `No such payment: '${id}'.`, { param: 'id' });
    }
    return id;
  };

  app
    .route('/v1/payments')
    .post(...guard, async (request, response) => {
      const idempotencyKey = idempotencyKeyOf(request, schemas);
      const input = parseInput(schemas.paymentCreation, jsonBodyOf(request));
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
      const paymentId = paymentIdOf(request);
      response.json(await useCases.retrievePayment.execute(authenticatedKeyOf(response).scope, paymentId));
    })
    .all(methodNotAllowed(['GET']));

  app
    .route('/v1/payments/:id/cancel')
    .post(...guard, async (request, response) => {
      const paymentId = paymentIdOf(request);
      const idempotencyKey = idempotencyKeyOf(request, schemas);
      parseInput(schemas.cancelPaymentBody, jsonBodyOf(request));
      response.json(
        await useCases.cancelPayment.execute(authenticatedKeyOf(response).scope, paymentId, idempotencyKey),
      );
    })
    .all(methodNotAllowed(['POST']));
}
