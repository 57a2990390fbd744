import express from 'express';
import type { ErrorRequestHandler, Express, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

import { AppError, toHttpError } from '../errors';
import { HEALTH_PATHS } from '../health';
import type { Metrics } from '../metrics';
import { fromFrameworkError } from './framework-errors';
import { addAccessLog } from './access-log';
import { requestIdMiddleware, requestIdOf } from './request-id';

export interface HttpAppOptions {
  logger: Logger;
  metrics: Metrics;
  /** Largest accepted JSON body, in body-parser notation (`100kb`, `1mb`). */
  bodyLimit?: string;
}

const DEFAULT_BODY_LIMIT = '100kb';

/** A 503 is overload or a dependency away for a moment: the client may try again this soon. */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** What finishHttpApp needs again, remembered per app rather than asked twice. */
const appSettings = new WeakMap<Express, { bodyLimit: string; logger: Logger }>();

/**
 * An express app with what every Sika HTTP process shares: request ids, access log and metrics, JSON body
 * parsing with a size limit, and /healthz for load balancers. /readyz and /metrics are not here: they name
 * dependencies and count requests by route (business data), so they answer on the operations port only
 * (ProbeServer). Add routes, then call finishHttpApp.
 */
export function createHttpApp({ logger, metrics, bodyLimit = DEFAULT_BODY_LIMIT }: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  appSettings.set(app, { bodyLimit, logger });

  app.use(requestIdMiddleware);
  addAccessLog(app, logger, metrics);

  app.get(HEALTH_PATHS.liveness, (_request, response) => {
    response.json({ status: 'ok' });
  });

  // No decompression: a compressed body would let a few bytes on the wire expand to the limit (and more
  // work) for every request; clients send plain JSON, and a Content-Encoding gets 415.
  app.use(express.json({ limit: bodyLimit, inflate: false }));
  return app;
}

function routeNotFound(request: Request, _response: Response, next: NextFunction): void {
  next(new AppError('route_not_found', `Unrecognized request URL (${request.method} ${request.path}).`));
}

/** The one place where an error becomes an HTTP answer. */
function errorMiddleware(bodyLimit: string, logger: Logger): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    if (response.headersSent) {
      next(error);
      return;
    }
    const { status, body } = toHttpError(fromFrameworkError(error, bodyLimit), requestIdOf(response));
    response.locals['errorCode'] = body.error.code;
    // 5xx answers hide the cause from the client, so it must be in the log (with the request id).
    if (status >= 500) logger.error({ err: error, request_id: body.error.request_id }, 'request failed');
    if (status === 503) response.setHeader('Retry-After', String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS));
    response.status(status).json(body);
  };
}

/** Closes the app: unknown routes answer 404 route_not_found, every error goes through the envelope. */
export function finishHttpApp(app: Express): Express {
  const settings = appSettings.get(app);
  if (settings === undefined) throw new Error('finishHttpApp expects an app made by createHttpApp');
  app.use(routeNotFound);
  app.use(errorMiddleware(settings.bodyLimit, settings.logger));
  return app;
}
