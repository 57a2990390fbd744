import { Router } from 'express';
import { SIGNATURE_HEADER } from '@sika/pispi';
import { AppError } from '@sika/platform';

import type { HandlePispiCallback } from '../../app/handle-pispi-callback';
import { isMode } from '../../domain/mode';
import type { RequestWithRawBody } from './raw-body';

export const CALLBACKS_PATH_PREFIX = '/pispi/callbacks/';

/** `POST /pispi/callbacks/{mode}`: the URL registered with each mode's participant. Answers 200 when applied. */
export function callbackRoutes(
  useCases: { handlePispiCallback: HandlePispiCallback },
  limitBytes: number,
): Router {
  const router = Router();
  router.post(`${CALLBACKS_PATH_PREFIX}:mode`, async (request, response) => {
    const { mode } = request.params;
    if (!isMode(mode)) {
      throw new AppError('route_not_found', `Unrecognized request URL (POST ${request.path}).`);
    }
    // Set by captureRawBody, which wraps the whole app.
    const raw = request as typeof request & RequestWithRawBody;
    if (raw.rawBodyTooLarge) {
      throw new AppError('body_too_large', `The request body exceeds the limit of ${limitBytes} bytes.`);
    }
    if (!raw.rawBody || raw.rawBody.length === 0) {
      throw new AppError('parameter_missing', 'The callback has no body.', { param: 'body' });
    }
    const result = await useCases.handlePispiCallback.execute({
      mode,
      rawBody: raw.rawBody,
      signature: request.get(SIGNATURE_HEADER),
    });
    response.status(200).json({ received: true, ...result });
  });
  return router;
}
