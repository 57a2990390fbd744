import { AppError } from '@sika/platform';
import type { Request } from 'express';

import type { Copy } from '../../views/copy';
import type { FieldProblem } from '../../views/layout';

/**
 * A refusal a form shows beside its field (a 4xx naming a parameter), or undefined for anything else, which
 * the error pages handle. Its words are the page's language where the copy has them (by code and parameter,
 * then by code); otherwise the service's own message, which is English.
 */
export function fieldProblemOf(
  error: unknown,
  copy: Copy,
): { problem: FieldProblem; status: number } | undefined {
  if (!(error instanceof AppError) || error.param === undefined) return undefined;
  const status = error.catalogEntry.httpStatus;
  if (status < 400 || status >= 500 || status === 404) return undefined;
  const message = copy.refusals[`${error.code}:${error.param}`] ?? copy.refusals[error.code] ?? error.message;
  return { problem: { param: error.param, message }, status };
}

/** A text field of a url-encoded form, '' when absent or repeated (a form never repeats these fields). */
export function formText(request: Request, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

export const confirmed = (request: Request): boolean => formText(request, 'confirm') === 'yes';
