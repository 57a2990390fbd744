import type { NextFunction, Request, Response } from 'express';

import { isValidRequestId, runWithContext } from '../context';
import { newId } from '../ids';

export const REQUEST_ID_HEADER = 'Request-Id';

/** Also accepted on the way in, because proxies and meshes commonly set this name. */
const INCOMING_REQUEST_ID_HEADERS = ['request-id', 'x-request-id'] as const;

/** The request id of this exchange, set by requestIdMiddleware before anything else can fail. */
export function requestIdOf(response: Response): string {
  const requestId: unknown = response.locals['requestId'];
  return typeof requestId === 'string' ? requestId : 'req_unknown';
}

function incomingRequestId(request: Request): string | undefined {
  for (const header of INCOMING_REQUEST_ID_HEADERS) {
    const value = request.get(header);
    if (isValidRequestId(value)) return value;
  }
  return undefined;
}

/** Reuses a valid incoming id (else makes a `req_` one), echoes it, and opens the request context. */
export function requestIdMiddleware(request: Request, response: Response, next: NextFunction): void {
  const requestId = incomingRequestId(request) ?? newId('req');
  response.locals['requestId'] = requestId;
  response.setHeader(REQUEST_ID_HEADER, requestId);
  runWithContext({ requestId }, next);
}
