import { AppError, requestIdOf } from '@sika/platform';
import type { Logger } from '@sika/platform';
import { clientErrorStatus, sendHtml } from '@sika/web';
import type { ErrorRequestHandler, RequestHandler } from 'express';

import type { ErrorPageKind } from '../../views/copy';
import { renderErrorPage } from '../../views/error-pages';
import { copyFor } from './language';

function pageFor(error: unknown): { status: number; kind: ErrorPageKind; code: string } {
  if (error instanceof AppError) {
    if (error.code === 'resource_missing' || error.code === 'route_not_found') {
      return { status: 404, kind: 'not_found', code: error.code };
    }
    if (error.code === 'service_unavailable') return { status: 503, kind: 'unavailable', code: error.code };
  }
  const clientStatus = clientErrorStatus(error);
  if (clientStatus !== undefined) return { status: clientStatus, kind: 'bad_request', code: 'bad_request' };
  return { status: 500, kind: 'internal', code: 'internal_error' };
}

/** Every path that is not a page of ours: an HTML 404, since a person with a browser asked for it. */
export const htmlNotFound: RequestHandler = (request, response) => {
  response.locals['errorCode'] = 'route_not_found';
  sendHtml(response, 404, renderErrorPage('not_found', requestIdOf(response), copyFor(request, response)));
};

/** The one place where an error becomes a page; unexpected ones are logged with the request id. */
export function htmlErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    const { status, kind, code } = pageFor(error);
    response.locals['errorCode'] = code;
    if (status >= 500) logger.error({ err: error, request_id: requestIdOf(response) }, 'request failed');
    // An event stream already under way cannot turn into a page: end it, the browser reconnects.
    if (response.headersSent) {
      response.end();
      return;
    }
    sendHtml(response, status, renderErrorPage(kind, requestIdOf(response), copyFor(request, response)));
  };
}
