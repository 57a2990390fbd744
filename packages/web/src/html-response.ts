import type { Response } from 'express';

export interface HtmlResponseOptions {
  /**
   * Origins a form submission on this page may end up at besides our own: browsers check `form-action`
   * along the whole redirect chain (the hosted page's form ends at the merchant's return_url once paid).
   */
  formTargets?: readonly string[];
}

/**
 * Strict policy: nothing inline (no inline script, style or event handler), scripts, styles and the event
 * stream from our own origin only, no framing, no <base> rewriting.
 */
export function contentSecurityPolicy({ formTargets = [] }: HtmlResponseOptions = {}): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self'",
    `form-action ${["'self'", ...formTargets].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Headers of every HTML page: the policy above, and no caching (a page shows the current state, or a secret). */
export function setHtmlHeaders(response: Response, options: HtmlResponseOptions = {}): void {
  response.set({
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': contentSecurityPolicy(options),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    // Keeps the Origin header on our own form posts (the CSRF check needs it) and never sends the page's
    // URL (the hosted page's is the payment's capability) to another site.
    'Referrer-Policy': 'same-origin',
  });
}

export function sendHtml(
  response: Response,
  status: number,
  body: string,
  options?: HtmlResponseOptions,
): void {
  setHtmlHeaders(response, options);
  response.status(status).send(body);
}
