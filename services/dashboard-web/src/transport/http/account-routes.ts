import { AppError } from '@sika/platform';
import { sendHtml } from '@sika/web';
import { Router, type Request, type Response } from 'express';

import type { CurrentSession } from '../../app/current-session';
import type { ResetPassword } from '../../app/reset-password';
import type { SignIn } from '../../app/sign-in';
import type { SignOut } from '../../app/sign-out';
import type { SignUp } from '../../app/sign-up';
import {
  renderReset,
  renderResetInvalid,
  renderSignIn,
  renderSignUp,
  renderSignUpReceived,
} from '../../views/account-pages';
import { fieldProblemOf, formEcho, formText, orRefusal } from './forms';
import {
  clearSessionCookie,
  pageContext,
  sessionTokenOf,
  setSessionCookie,
  type CookieSettings,
} from './request-context';

export interface AccountUseCases {
  signUp: SignUp;
  signIn: SignIn;
  signOut: SignOut;
  currentSession: CurrentSession;
  resetPassword: ResetPassword;
}

/** A reset link that is unknown, used or expired (ResetPassword's only `resource_missing`). */
const isUnknownLink = (error: unknown): boolean =>
  error instanceof AppError && error.code === 'resource_missing';

/** Sign-up, sign-in, sign-out and reset links: the pages anyone may open. */
export function accountRoutes(
  useCases: AccountUseCases,
  cookies: CookieSettings,
  sessionExpiry: () => Date,
): Router {
  const router = Router();
  const signedIn = async (request: Request) =>
    (await useCases.currentSession.execute(sessionTokenOf(request, cookies))) !== undefined;

  router.get('/', async (request, response) => {
    response.redirect(303, (await signedIn(request)) ? '/test' : '/signin');
  });

  router.get('/signin', async (request, response) => {
    if (await signedIn(request)) return response.redirect(303, '/test');
    sendHtml(response, 200, renderSignIn(pageContext(request, response)));
  });

  router.post('/signin', async (request, response) => {
    const context = pageContext(request, response);
    const email = formEcho(request, 'email');
    await orRefusal(
      request,
      response,
      async () => {
        const result = await useCases.signIn.execute({
          email: formText(request, 'email'),
          password: formText(request, 'password'),
          address: request.ip ?? 'unknown',
        });
        if (result.outcome === 'signed_in') {
          setSessionCookie(response, cookies, result.sessionToken, sessionExpiry());
          return response.redirect(303, '/test');
        }
        if (result.outcome === 'limited') {
          response.set('Retry-After', String(result.retryAfterSeconds));
          return sendHtml(
            response,
            429,
            renderSignIn(context, {
              values: { email },
              notice: context.copy.account.limited(Math.ceil(result.retryAfterSeconds / 60)),
            }),
          );
        }
        sendHtml(
          response,
          401,
          renderSignIn(context, { values: { email }, notice: context.copy.account.refused }),
        );
      },
      ({ problem, status }) =>
        sendHtml(response, status, renderSignIn(context, { values: { email }, problem })),
    );
  });

  router.get('/signup', (request, response) => {
    sendHtml(response, 200, renderSignUp(pageContext(request, response)));
  });

  router.post('/signup', async (request: Request, response: Response) => {
    const context = pageContext(request, response);
    const values = { business_name: formEcho(request, 'business_name'), email: formEcho(request, 'email') };
    await orRefusal(
      request,
      response,
      async () => {
        const result = await useCases.signUp.execute({
          businessName: formText(request, 'business_name'),
          email: formText(request, 'email'),
          password: formText(request, 'password'),
          address: request.ip ?? 'unknown',
        });
        if (result.outcome === 'limited') {
          response.set('Retry-After', String(result.retryAfterSeconds));
          const notice = context.copy.account.limited(Math.ceil(result.retryAfterSeconds / 60));
          return sendHtml(response, 429, renderSignUp(context, { values, notice }));
        }
        // The same answer whether the address was new or taken: no session, no key, the same page.
        sendHtml(response, 200, renderSignUpReceived(context));
      },
      ({ problem, status }) => sendHtml(response, status, renderSignUp(context, { values, problem })),
    );
  });

  router.post('/signout', async (request, response) => {
    await useCases.signOut.execute(sessionTokenOf(request, cookies));
    clearSessionCookie(response, cookies);
    response.redirect(303, '/signin');
  });

  router.get('/reset/:token', async (request, response) => {
    const context = pageContext(request, response);
    try {
      const { email } = await useCases.resetPassword.check(request.params.token);
      sendHtml(response, 200, renderReset(context, request.params.token, email));
    } catch (error) {
      if (!isUnknownLink(error)) throw error;
      sendHtml(response, 404, renderResetInvalid(context));
    }
  });

  router.post('/reset/:token', async (request, response) => {
    const context = pageContext(request, response);
    const { token } = request.params;
    let email = '';
    try {
      ({ email } = await useCases.resetPassword.check(token));
      const { sessionToken } = await useCases.resetPassword.execute(token, formText(request, 'password'));
      setSessionCookie(response, cookies, sessionToken, sessionExpiry());
      response.redirect(303, '/test');
    } catch (error) {
      if (isUnknownLink(error)) return sendHtml(response, 404, renderResetInvalid(context));
      const refusal = fieldProblemOf(error, pageContext(request, response).copy);
      if (refusal === undefined) throw error;
      sendHtml(response, refusal.status, renderReset(context, token, email, refusal.problem));
    }
  });

  return router;
}
