import type { Request, Response } from 'express';

const A_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** How a site offers its languages: the query parameter of the switch and the cookie that remembers it. */
export interface LanguageChoice<L extends string> {
  /** In order of preference when the browser states none. */
  languages: readonly L[];
  param: string;
  cookie: string;
  /** `Secure` on the remembering cookie (every site but a local run serves https). */
  secure?: boolean;
}

/** One cookie of the request, undecoded; express has no cookie parser of its own. */
export function cookieOf(request: Request, name: string): string | undefined {
  for (const pair of (request.get('cookie') ?? '').split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The language of this request: the one chosen with `?<param>=` (remembered in a cookie), else the one
 * chosen before, else the browser's preference among the site's languages (Accept-Language), else the
 * site's first language.
 */
export function chooseLanguage<L extends string>(
  request: Request,
  response: Response,
  { languages, param, cookie, secure = false }: LanguageChoice<L>,
): L {
  const isLanguage = (value: unknown): value is L =>
    typeof value === 'string' && (languages as readonly string[]).includes(value);
  const chosen: unknown = request.query[param];
  if (isLanguage(chosen)) {
    response.cookie(cookie, chosen, {
      path: '/',
      sameSite: 'lax',
      httpOnly: true,
      secure,
      maxAge: A_YEAR_MS,
    });
    return chosen;
  }
  const remembered = cookieOf(request, cookie);
  if (isLanguage(remembered)) return remembered;
  const preferred: unknown = request.acceptsLanguages(...languages);
  return isLanguage(preferred) ? preferred : (languages[0] as L);
}

/** What express's body parsers throw on unreadable input (http-errors): a 4xx status and a `type`. */
export function clientErrorStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const { status, type } = error as Error & { status?: unknown; type?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && typeof type === 'string'
    ? status
    : undefined;
}
