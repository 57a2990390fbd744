import { AppError } from '@sika/platform';
import type { Request } from 'express';

import type { FieldProblem } from '../../views/layout';

/**
 * A refusal a form shows beside its field (a 4xx naming a parameter), or undefined for anything else, which
 * the error pages handle.
 */
export function fieldProblemOf(error: unknown): { problem: FieldProblem; status: number } | undefined {
  if (!(error instanceof AppError) || error.param === undefined) return undefined;
  const status = error.catalogEntry.httpStatus;
  if (status < 400 || status >= 500 || status === 404) return undefined;
  return { problem: { param: error.param, message: error.message }, status };
}

/** A text field of a url-encoded form, '' when absent or repeated (a form never repeats these fields). */
export function formText(request: Request, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

export const confirmed = (request: Request): boolean => formText(request, 'confirm') === 'yes';
