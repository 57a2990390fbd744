import { AppError, clientSubjectOf } from '@sika/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { AuthenticateKey, AuthenticatedKey } from '../../app/authenticate-key';
import { RATE_LIMIT_HEADERS } from './rate-limit';

const LOCALS_KEY = 'authenticatedKey';

/**
 * Resolves the bearer key before anything else of the request is looked at (401 comes before 400). The
 * client's address is the socket's, or the one `trust proxy` (TRUST_PROXY_HOPS) reads from X-Forwarded-For,
 * counted as an IPv6 address's /64 (one subscriber's network).
 */
export function authenticationMiddleware(authenticate: AuthenticateKey): RequestHandler {
  return async (request: Request, response: Response, next: NextFunction) => {
    const authentication = await authenticate.execute(
      request.get('authorization'),
      clientSubjectOf(request.ip ?? 'unknown'),
    );
    if (authentication.outcome === 'limited') {
      response.setHeader(RATE_LIMIT_HEADERS.retryAfter, String(authentication.retryAfterSeconds));
      throw new AppError(
        'rate_limited',
        `Too many failed authentications from this address. Retry after ${authentication.retryAfterSeconds} s.`,
      );
    }
    response.locals[LOCALS_KEY] = authentication.key;
    next();
  };
}

export function authenticatedKeyOf(response: Response): AuthenticatedKey {
  const key = response.locals[LOCALS_KEY] as AuthenticatedKey | undefined;
  if (key === undefined) throw new Error('route served without authenticationMiddleware');
  return key;
}
