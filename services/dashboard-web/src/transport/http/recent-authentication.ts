import { sendHtml } from '@sika/web';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { ConfirmPassword } from '../../app/confirm-password';
import type { Section } from '../../views/layout';
import { CSRF_FIELD } from '../../views/layout';
import { renderPasswordPrompt } from '../../views/password-prompt-page';
import { fieldProblemOf, formEcho, formText } from './forms';
import { pageContext } from './request-context';
import { signedOf } from './signed';

const PASSWORD_FIELD = 'password';

/**
 * Before an action that could redirect money (payout account, keys, webhook secret): a session whose password
 * was not typed in the last minutes is shown a password prompt instead, which posts the action again with the
 * password. A right password lets the action go on in the same request; a wrong one is the prompt's own error
 * and counts toward the sign-in limits.
 */
export function requireRecentAuthentication(
  confirmPassword: ConfirmPassword,
  section: Section,
): RequestHandler {
  return async (request: Request, response: Response, next: NextFunction) => {
    const signed = signedOf(response);
    if (signed.recentlyAuthenticated) return next();
    const { copy } = pageContext(request, response);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fields = Object.entries(body).flatMap(([name, value]) =>
      name === CSRF_FIELD || name === PASSWORD_FIELD || typeof value !== 'string'
        ? []
        : [[name, value] as const],
    );
    const prompt = (status: number, problem?: { param: string; message: string }) =>
      sendHtml(
        response,
        status,
        renderPasswordPrompt(signed.context(section), {
          action: request.originalUrl,
          fields,
          problem,
        }),
      );
    if (!(PASSWORD_FIELD in body)) return prompt(401);
    if (formEcho(request, PASSWORD_FIELD) === '') {
      return prompt(400, { param: PASSWORD_FIELD, message: copy.recentAuthentication.missing });
    }
    try {
      const result = await confirmPassword.execute({
        sessionToken: signed.sessionToken,
        user: signed.user,
        password: formText(request, PASSWORD_FIELD),
        address: request.ip ?? 'unknown',
      });
      if (result.outcome === 'confirmed') return next();
      if (result.outcome === 'limited') {
        response.set('Retry-After', String(result.retryAfterSeconds));
        const minutes = Math.ceil(result.retryAfterSeconds / 60);
        return prompt(429, { param: PASSWORD_FIELD, message: copy.account.limited(minutes) });
      }
      return prompt(401, { param: PASSWORD_FIELD, message: copy.recentAuthentication.refused });
    } catch (error) {
      const refusal = fieldProblemOf(error, copy);
      if (refusal === undefined) throw error;
      return prompt(refusal.status, refusal.problem);
    }
  };
}
