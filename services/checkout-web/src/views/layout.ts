import { htmlDocument, markup, type SafeHtml } from '@sika/web';

import type { Copy } from './copy';

/** Where the static assets are served (see transport/http/checkout-app.ts). */
export const ASSET_PATHS = {
  stylesheet: '/assets/checkout.css',
  liveStatusScript: '/assets/checkout.js',
} as const;

/** Without JavaScript the waiting screen reloads itself this often. */
export const NOSCRIPT_REFRESH_SECONDS = 3;

export interface LayoutOptions {
  title: string;
  main: SafeHtml;
  /** `data-*` attributes of <main>, read by the live-status script. */
  data?: Readonly<Record<string, string>>;
  /** Test-mode payments say so on every screen, so nobody mistakes a test for a real debit. */
  testMode?: boolean;
  /** The waiting screen: live status script, and a reload fallback for browsers without JavaScript. */
  live?: boolean;
  /** The words of the page's language. */
  copy: Copy;
  /** The same page in the other language; no switch without it. */
  switchHref?: string;
}

/** The whole document: HTML5 in the page's language, mobile viewport, one stylesheet, no inline code. */
export function layout({
  title,
  main,
  data = {},
  testMode = false,
  live = false,
  copy,
  switchHref,
}: LayoutOptions): string {
  const dataAttributes = Object.entries(data).map(([name, value]) => markup` data-${name}="${value}"`);
  const liveHead = markup`<script src="${ASSET_PATHS.liveStatusScript}" defer></script>
<noscript><meta http-equiv="refresh" content="${NOSCRIPT_REFRESH_SECONDS}"></noscript>
`;
  return htmlDocument({
    copy,
    title,
    stylesheet: ASSET_PATHS.stylesheet,
    head: live && liveHead,
    body: markup`${switchHref !== undefined && markup`<nav class="language"><a href="${switchHref}" lang="${copy.switchLanguage.to}" hreflang="${copy.switchLanguage.to}">${copy.switchLanguage.label}</a></nav>\n`}${testMode && markup`<p class="test-mode">${copy.testMode}</p>\n`}<main class="card"${dataAttributes}>
${main}
</main>
`,
  });
}
