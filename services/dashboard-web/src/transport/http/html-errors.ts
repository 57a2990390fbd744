import { AppError, requestIdOf, type Logger } from '@sika/platform';
import { clientErrorStatus, sendHtml } from '@sika/web';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';

import { COPIES } from '../../views/copy';
import { renderErrorPage, type ErrorKind } from '../../views/error-pages';
import type { PageContext } from '../../views/layout';
import { CsrfRefused, localsOf, pageContext } from './request-context';

function pageFor(error: unknown): { status: number; kind: ErrorKind; code: string } {
  if (error instanceof CsrfRefused) return { status: 403, kind: 'forbidden', code: 'csrf_refused' };
  if (error instanceof AppError) {
    if (error.code === 'resource_missing' || error.code === 'route_not_found') {
      return { status: 404, kind: 'notFound', code: error.code };
    }
    if (error.code === 'service_unavailable') return { status: 503, kind: 'unavailable', code: error.code };
    if (error.catalogEntry.httpStatus === 429) return { status: 429, kind: 'tooMany', code: error.code };
    if (error.catalogEntry.httpStatus >= 400 && error.catalogEntry.httpStatus < 500) {
      return { status: error.catalogEntry.httpStatus, kind: 'badRequest', code: error.code };
    }
  }
  const clientStatus = clientErrorStatus(error);
  if (clientStatus !== undefined) return { status: clientStatus, kind: 'badRequest', code: 'bad_request' };
  return { status: 500, kind: 'internal', code: 'internal_error' };
}

/** The Retry-After of a 429 page whose limit did not say when it ends. */
export const LIMITED_RETRY_AFTER_SECONDS = 60;

/** Every path that is not a page: an HTML 404, since a person with a browser asked for it. */
export const htmlNotFound: RequestHandler = (request, response) => {
  response.locals['errorCode'] = 'route_not_found';
  sendHtml(response, 404, renderErrorPage(pageContext(request, response), 'notFound', requestIdOf(response)));
};

/**
 * The error page's context. An error raised before the request's context was set (a form body past its
 * limit, a malformed one: the body parser runs first, since the CSRF check reads the body) finds none: the
 * page is then in French, the default, and carries no form.
 */
function errorPageContext(request: Request, response: Response): PageContext {
  const locals = localsOf(response);
  if ((locals.copy as unknown) === undefined) Object.assign(locals, { copy: COPIES.fr, csrfToken: '' });
  return pageContext(request, response);
}

/** The one place where an error that no form shows becomes a page; unexpected ones are logged. */
export function htmlErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, request, response, _next) => {
    const { status, kind, code } = pageFor(error);
    response.locals['errorCode'] = code;
    if (status >= 500) logger.error({ err: error, request_id: requestIdOf(response) }, 'request failed');
    if (status === 503) response.set('Retry-After', '5');
    // A service's limit (payee look-ups, test events …) crosses gRPC without its window: a minute is the
    // shortest of them, so a browser or script that waits this long never retries too early for nothing.
    if (status === 429) response.set('Retry-After', String(LIMITED_RETRY_AFTER_SECONDS));
    sendHtml(
      response,
      status,
      renderErrorPage(errorPageContext(request, response), kind, requestIdOf(response)),
    );
  };
}
