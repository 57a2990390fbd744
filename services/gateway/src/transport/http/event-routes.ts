import type { Express } from 'express';

import { parseInput } from '../../domain/validation';
import { addApiRoute, type ApiRouteOptions } from './api-route';
import { pathIdOf } from './path-id';

/** The events API (decided, as Stripe's): what webhooks delivered, to recover the ones a merchant missed. */
export function addEventRoutes(app: Express, { useCases, schemas, guard }: ApiRouteOptions): void {
  addApiRoute(app, guard, '/v1/events', {
    get: (request, scope) =>
      useCases.listEvents.execute(scope, parseInput(schemas.listEventsQuery, request.query)),
  });

  addApiRoute(app, guard, '/v1/events/:id', {
    get: (request, scope) =>
      useCases.retrieveEvent.execute(scope, pathIdOf(request, schemas.eventId, 'event')),
  });
}
