import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { PROBLEM_CONTENT_TYPE, type Problem7807 } from '@sika/pispi';
import type { Logger } from '@sika/platform';

import { notFound, ProblemError } from '../../domain/problem';

function toProblem(error: ProblemError): Problem7807 {
  return {
    type: 'about:blank',
    title: STATUS_CODES[error.status] ?? 'Error',
    status: error.status,
    detail: error.detail,
    ...(error.invalidParams.length > 0 ? { 'invalid-params': [...error.invalidParams] } : {}),
  };
}

/** What express.json() throws on an unreadable body (body-parser errors carry an HTTP status and a type). */
function isBodyParserError(error: unknown): error is Error & { status: number; type: string } {
  const candidate = error as { status?: unknown; type?: unknown };
  return error instanceof Error && typeof candidate.status === 'number' && typeof candidate.type === 'string';
}

function toProblemError(error: unknown): ProblemError {
  if (error instanceof ProblemError) return error;
  if (isBodyParserError(error) && error.status < 500) {
    const detail =
      error.type === 'entity.too.large'
        ? 'Le corps de la requête est trop volumineux'
        : 'Format du message invalide';
    return new ProblemError(error.status, detail, [{ name: 'body', reason: error.message }]);
  }
  return new ProblemError(500, 'Erreur inattendue du serveur');
}

/** Every path the simulator does not serve answers 404 as a problem, like the rest of its API. */
export const problemNotFound: RequestHandler = (_request, _response, next) => next(notFound());

/** Renders every error as `application/problem+json` (RFC 7807), the API Business's only error format. */
export function problemErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _request, response, next) => {
    if (response.headersSent) {
      next(error);
      return;
    }
    const problem = toProblemError(error);
    if (problem.status >= 500) logger.error({ err: error }, 'request failed');
    response
      .status(problem.status)
      .type(PROBLEM_CONTENT_TYPE)
      .send(JSON.stringify(toProblem(problem)));
  };
}
