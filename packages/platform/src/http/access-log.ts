import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

import { HEALTH_PATHS } from '../health';
import type { Metrics } from '../metrics';
import { requestIdOf } from './request-id';

/** Probes and scrapes arrive every few seconds: measured, but not logged. */
const QUIET_PATHS = new Set<string>(Object.values(HEALTH_PATHS));

const ROUTE = Symbol('route');
const ROUTE_LABEL = Symbol('routeLabel');
type LabelledRequest = Request & { [ROUTE]?: unknown; [ROUTE_LABEL]?: string };

/**
 * The route pattern (`/v1/payments/:id`), never the raw path: raw paths carry ids and would create one
 * metric series per payment. Taken at the moment the router assigns `request.route`, because a router
 * mounted under a prefix restores `request.baseUrl` when it hands an error on, before the response is
 * written. The accessor is the app's request prototype's, defined once: an accessor of its own on every
 * request would give each request object a shape of its own, and slow every property read of it.
 */
function labelRoutes(app: Express): void {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    enumerable: true,
    get(this: LabelledRequest) {
      return this[ROUTE];
    },
    set(this: LabelledRequest, value: unknown) {
      this[ROUTE] = value;
      const path: unknown = (value as { path?: unknown } | undefined)?.path;
      if (typeof path === 'string') this[ROUTE_LABEL] = `${this.baseUrl}${path}`;
    },
  });
}

/**
 * One log line (debug unless an error) and one histogram observation per request, once the response is finished,
 * labelled with the route's pattern.
 */
export function addAccessLog(app: Express, logger: Logger, metrics: Metrics): void {
  labelRoutes(app);
  app.use(accessLogMiddleware(logger, metrics));
}

function accessLogMiddleware(logger: Logger, metrics: Metrics): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const startedAt = process.hrtime.bigint();
    response.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      const route = (request as LabelledRequest)[ROUTE_LABEL] ?? 'unmatched';
      metrics.httpRequestDuration.observe(
        { method: request.method, route, status_code: String(response.statusCode) },
        seconds,
      );
      if (QUIET_PATHS.has(request.path)) return;
      // A request answered without error is routine: its line is for debugging (the histogram above counts
      // it); error answers stay visible at the production level. No line object is built for a level off.
      const level = response.statusCode < 400 ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const errorCode: unknown = response.locals['errorCode'];
      logger[level](
        {
          request_id: requestIdOf(response),
          method: request.method,
          route,
          status: response.statusCode,
          duration_ms: Math.round(seconds * 1000),
          ...(typeof errorCode === 'string' ? { error_code: errorCode } : {}),
        },
        'http request',
      );
    });
    next();
  };
}
