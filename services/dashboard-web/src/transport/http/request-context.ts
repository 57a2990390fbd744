import { chooseLanguage, cookieOf, isSameOriginRequest } from '@sika/web';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

import type { UserRecord } from '../../app/ports';
import { isSecretTokenShape, newSecretToken, sameToken } from '../../domain/secret-token';
import { COPIES, LANGUAGES, type Copy } from '../../views/copy';
import { CSRF_FIELD, type PageContext } from '../../views/layout';

export const LANGUAGE_PARAM = 'lang';

/** A form post without this site's CSRF token or Origin: answered 403, nothing done. */
export class CsrfRefused extends Error {
  override readonly name = 'CsrfRefused';

  constructor() {
    super('the form is out of date or came from another site');
  }
}

/** Cookie names: `__Host-` where cookies are Secure, so no subdomain or plain-http page can set them. */
export function cookieNames(secure: boolean) {
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}sika_session`, csrf: `${prefix}sika_csrf`, language: 'sika_dashboard_lang' };
}

export interface CookieSettings {
  secure: boolean;
  names: ReturnType<typeof cookieNames>;
}

const baseCookie = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure });

export function setSessionCookie(
  response: Response,
  cookies: CookieSettings,
  token: string,
  expiresAt: Date,
) {
  response.cookie(cookies.names.session, token, { ...baseCookie(cookies.secure), expires: expiresAt });
}

export function clearSessionCookie(response: Response, cookies: CookieSettings) {
  response.clearCookie(cookies.names.session, baseCookie(cookies.secure));
}

export const sessionTokenOf = (request: Request, cookies: CookieSettings): string | undefined =>
  cookieOf(request, cookies.names.session);

/** What the routes find in `response.locals`. */
export interface Locals {
  copy: Copy;
  csrfToken: string;
  user?: UserRecord;
}

export const localsOf = (response: Response): Locals => response.locals as unknown as Locals;

/** The language switch keeps the path and every other query parameter. */
function languageSwitchHref(request: Request, copy: Copy): string {
  const url = new URL(request.originalUrl, 'http://dashboard');
  url.searchParams.set(LANGUAGE_PARAM, copy.switchLanguage.to);
  return `${url.pathname}${url.search}`;
}

export function pageContext(request: Request, response: Response): PageContext {
  const { copy, csrfToken } = localsOf(response);
  return { copy, csrfToken, languageSwitchHref: languageSwitchHref(request, copy) };
}

/**
 * Every request: its language, and a CSRF token (double-submit: an HttpOnly cookie, echoed by a hidden field
 * of every form). A POST must carry the same token and come from a page of this site (Origin); either check
 * failing is a 403 before any route runs. SameSite=Lax on every cookie is a third layer.
 */
export function requestContext(cookies: CookieSettings): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const locals = localsOf(response);
    locals.copy =
      COPIES[
        chooseLanguage(request, response, {
          languages: LANGUAGES,
          param: LANGUAGE_PARAM,
          cookie: cookies.names.language,
          secure: cookies.secure,
        })
      ];
    let token = cookieOf(request, cookies.names.csrf);
    if (token === undefined || !isSecretTokenShape(token)) {
      token = newSecretToken();
      response.cookie(cookies.names.csrf, token, baseCookie(cookies.secure));
    }
    locals.csrfToken = token;
    if (request.method === 'POST') {
      const body = request.body as Record<string, unknown> | undefined;
      if (!isSameOriginRequest(request) || !sameToken(token, body?.[CSRF_FIELD])) {
        next(new CsrfRefused());
        return;
      }
    }
    next();
  };
}
