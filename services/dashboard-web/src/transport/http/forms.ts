import { AppError } from '@sika/platform';
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '@sika/rules';
import type { Request, Response } from 'express';

import type { Copy } from '../../views/copy';
import type { FieldProblem } from '../../views/layout';
import { pageContext } from './request-context';

/** A field refused for its characters, whichever form: the form shows one message for it, in its language. */
class UnstorableField extends AppError {
  constructor(param: string) {
    super('parameter_invalid', `This field ${UNSTORABLE_TEXT_MESSAGE}.`, { param });
  }
}

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
  const message =
    error instanceof UnstorableField
      ? copy.unstorableField
      : (copy.refusals[`${error.code}:${error.param}`] ?? copy.refusals[error.code] ?? error.message);
  return { problem: { param: error.param, message }, status };
}

/** A refusal shown on the form's page, or the error pages for anything else. */
export async function orRefusal(
  request: Request,
  response: Response,
  act: () => Promise<void>,
  showRefusal: (refusal: { problem: FieldProblem; status: number }) => Promise<void> | void,
): Promise<void> {
  try {
    await act();
  } catch (error) {
    const refusal = fieldProblemOf(error, pageContext(request, response).copy);
    if (refusal === undefined) throw error;
    await showRefusal(refusal);
  }
}

/**
 * A text field of a url-encoded form as a use case receives it, '' when absent or repeated (a form never
 * repeats these fields). Control characters and unpaired surrogates are refused here, naming the field, as the
 * API refuses them: no column can store U+0000, and none of them belongs in anything a person types.
 */
export function formText(request: Request, name: string): string {
  const value = formEcho(request, name);
  if (!isStorableText(value)) throw new UnstorableField(name);
  return value;
}

/** A field as it was typed, only to fill a refused form in again (never given to a use case). */
export function formEcho(request: Request, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** A confirmation box: ticked or not, never text a use case receives. */
export const confirmed = (request: Request): boolean => formEcho(request, 'confirm') === 'yes';
