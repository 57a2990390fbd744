import type { Request, Response } from 'express';

import { LANGUAGE_PARAM } from '../../views/checkout-pages';
import { COPIES, DEFAULT_COPY, LANGUAGES, type Copy, type Language } from '../../views/copy';

/** Remembers the customer's choice for the pages that follow (the waiting screen reloads itself). */
const LANGUAGE_COOKIE = 'sika_checkout_lang';
const A_YEAR_SECONDS = 365 * 24 * 60 * 60;

const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

function cookieOf(request: Request, name: string): string | undefined {
  for (const pair of (request.get('cookie') ?? '').split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The words of the page for this request: the language chosen with `?lang=` (remembered in a cookie), else
 * the one chosen before, else the browser's preference among the page's languages (Accept-Language), else
 * French.
 */
export function copyFor(request: Request, response: Response): Copy {
  const chosen: unknown = request.query[LANGUAGE_PARAM];
  if (isLanguage(chosen)) {
    response.cookie(LANGUAGE_COOKIE, chosen, {
      path: '/',
      sameSite: 'lax',
      httpOnly: true,
      maxAge: A_YEAR_SECONDS * 1000,
    });
    return COPIES[chosen];
  }
  const remembered = cookieOf(request, LANGUAGE_COOKIE);
  if (isLanguage(remembered)) return COPIES[remembered];
  const preferred: unknown = request.acceptsLanguages(...LANGUAGES);
  return isLanguage(preferred) ? COPIES[preferred] : DEFAULT_COPY;
}
