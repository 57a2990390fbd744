import { AppError } from '@sika/platform';
import type { Request, RequestHandler, Response } from 'express';

/** A known path with another method: 405 with `Allow`, rather than a 404 that suggests a wrong URL. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  return (request: Request, response: Response) => {
    response.setHeader('Allow', allowed.join(', '));
    throw new AppError(
      'method_not_allowed',
      `${request.method} is not allowed here; use ${allowed.join(' or ')}.`,
    );
  };
}
