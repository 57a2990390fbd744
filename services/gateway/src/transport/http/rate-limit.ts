import { AppError } from '@sika/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { RateLimiter } from '../../app/ports';
import { authenticatedKeyOf } from './authentication';

export const RATE_LIMIT_HEADERS = {
  limit: 'RateLimit-Limit',
  remaining: 'RateLimit-Remaining',
  reset: 'RateLimit-Reset',
  retryAfter: 'Retry-After',
} as const;

/**
 * Counts the request against its key's window and says so in `RateLimit-*` headers (IETF httpapi
 * draft names, reset in seconds); beyond the limit, 429 rate_limited with `Retry-After`. Without an answer
 * from the limiter the request goes through without the headers.
 */
export function rateLimitMiddleware(limiter: RateLimiter): RequestHandler {
  return async (_request: Request, response: Response, next: NextFunction) => {
    const { keyDigest, scope } = authenticatedKeyOf(response);
    const decision = await limiter.hit(keyDigest, scope.livemode);
    if (decision !== undefined) {
      response.setHeader(RATE_LIMIT_HEADERS.limit, String(decision.limit));
      response.setHeader(RATE_LIMIT_HEADERS.remaining, String(decision.remaining));
      response.setHeader(RATE_LIMIT_HEADERS.reset, String(decision.resetSeconds));
      if (!decision.allowed) {
        response.setHeader(RATE_LIMIT_HEADERS.retryAfter, String(decision.resetSeconds));
        throw new AppError(
          'rate_limited',
          `Too many requests with this API key: at most ${decision.limit} per window. Retry after ${decision.resetSeconds} s.`,
        );
      }
    }
    next();
  };
}
