import { AppError } from '@sika/platform';
import type { Request } from 'express';

function hasBody(request: Request): boolean {
  const length = request.get('content-length');
  return request.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/**
 * The parsed JSON body, or `{}` when none was sent (so a missing body reports the missing fields). A body
 * sent with another Content-Type was not parsed by express.json(): refused rather than silently ignored.
 */
export function jsonBodyOf(request: Request): unknown {
  if (request.body !== undefined) return request.body;
  if (hasBody(request)) {
    throw new AppError(
      'unsupported_encoding',
      'The request body must be JSON, sent with Content-Type: application/json.',
    );
  }
  return {};
}
