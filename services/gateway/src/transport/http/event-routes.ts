import type { Express, RequestHandler } from 'express';

import type { GatewayUseCases } from './gateway-app';
import { parseInput } from '../../domain/validation';
import { authenticatedKeyOf } from './authentication';
import { methodNotAllowed } from './method-not-allowed';
import { pathIdOf } from './path-id';
import type { RequestSchemas } from './request-schemas';

/** The events API (decided, as Stripe's): what webhooks delivered, to recover the ones a merchant missed. */
export function addEventRoutes(
  app: Express,
  {
    useCases,
    schemas,
    guard,
  }: { useCases: GatewayUseCases; schemas: RequestSchemas; guard: RequestHandler[] },
): void {
  app
    .route('/v1/events')
    .get(...guard, async (request, response) => {
      const query = parseInput(schemas.listEventsQuery, request.query);
      response.json(await useCases.listEvents.execute(authenticatedKeyOf(response).scope, query));
    })
    .all(methodNotAllowed(['GET']));

  app
    .route('/v1/events/:id')
    .get(...guard, async (request, response) => {
      const eventId = pathIdOf(request, schemas.eventId, 'event');
      response.json(await useCases.retrieveEvent.execute(authenticatedKeyOf(response).scope, eventId));
    })
    .all(methodNotAllowed(['GET']));
}
