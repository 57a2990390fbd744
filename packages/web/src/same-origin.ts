import type { Request } from 'express';

/**
 * CSRF defence for forms: the POST must come from a page of this very site. Browsers send `Origin` on every
 * form POST (and our Referrer-Policy keeps it for same-origin requests); `Referer` is the fallback for the
 * rare client without it. A request with neither, or with `Origin: null` (sandboxed frames, privacy modes),
 * is refused: the forms are only ever submitted by a browser. The Host comparison holds behind a proxy that
 * forwards Host (ingress-nginx does by default).
 */
export function isSameOriginRequest(request: Request): boolean {
  const host = request.get('host');
  const source = request.get('origin') ?? request.get('referer');
  if (host === undefined || source === undefined || source === 'null') return false;
  try {
    const sourceUrl = new URL(source);
    // Read Host through the source's scheme, so default ports compare equal (`shop:443` and `shop`).
    return sourceUrl.host === new URL(`${sourceUrl.protocol}//${host}`).host;
  } catch {
    return false;
  }
}
