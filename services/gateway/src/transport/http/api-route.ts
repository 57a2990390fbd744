import type { Scope } from '@sika/platform/pure';
import type { Express, Request, RequestHandler } from 'express';

import { authenticatedKeyOf } from './authentication';
import type { GatewayUseCases } from './gateway-app';
import { methodNotAllowed } from './method-not-allowed';
import type { RequestSchemas } from './request-schemas';

/** What each file of /v1 routes is given. */
export interface ApiRouteOptions {
  useCases: GatewayUseCases;
  schemas: RequestSchemas;
  /** Authentication, then the rate limit: before every handler. */
  guard: RequestHandler[];
}

/** One method of a route: the request and the authenticated key's scope in, the JSON answer out. */
export type ApiHandler = (request: Request, scope: Scope) => Promise<unknown>;

/**
 * Serves `path` with a handler per method, each behind `guard` and answering 200 with what it returns, and a
 * 405 naming the methods served for any other.
 */
export function addApiRoute(
  app: Express,
  guard: RequestHandler[],
  path: string,
  handlers: { get?: ApiHandler; post?: ApiHandler },
): void {
  const route = app.route(path);
  const allowed: string[] = [];
  for (const method of ['get', 'post'] as const) {
    const handler = handlers[method];
    if (handler === undefined) continue;
    route[method](...guard, async (request, response) => {
      response.json(await handler(request, authenticatedKeyOf(response).scope));
    });
    allowed.push(method.toUpperCase());
  }
  route.all(methodNotAllowed(allowed));
}
