import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { AuthenticateKey, AuthenticatedKey } from '../../app/authenticate-key';

const LOCALS_KEY = 'authenticatedKey';

/** Resolves the bearer key before anything else of the request is looked at (401 comes before 400). */
export function authenticationMiddleware(authenticate: AuthenticateKey): RequestHandler {
  return async (request: Request, response: Response, next: NextFunction) => {
    response.locals[LOCALS_KEY] = await authenticate.execute(request.get('authorization'));
    next();
  };
}

export function authenticatedKeyOf(response: Response): AuthenticatedKey {
  const key = response.locals[LOCALS_KEY] as AuthenticatedKey | undefined;
  if (key === undefined) throw new Error('route served without authenticationMiddleware');
  return key;
}
