import { COPY } from './copy';
import { markup } from './html';
import type { SafeHtml } from './html';

/** Where the static assets are served (see transport/http/assets.ts). */
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
}

/** The whole document: HTML5, French, mobile viewport, one stylesheet, no inline script or style. */
export function layout({ title, main, data = {}, testMode = false, live = false }: LayoutOptions): string {
  const dataAttributes = Object.entries(data).map(([name, value]) => markup` data-${name}="${value}"`);
  const liveHead = markup`<script src="${ASSET_PATHS.liveStatusScript}" defer></script>
<noscript><meta http-equiv="refresh" content="${NOSCRIPT_REFRESH_SECONDS}"></noscript>
`;
  return markup`<!DOCTYPE html>
<html lang="${COPY.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} · ${COPY.brand}</title>
<link rel="stylesheet" href="${ASSET_PATHS.stylesheet}">
${live && liveHead}</head>
<body>
${testMode && markup`<p class="test-mode">${COPY.testMode}</p>\n`}<main class="card"${dataAttributes}>
${main}
</main>
<footer class="footer"><p>${COPY.footer}</p></footer>
</body>
</html>
`.text;
}
