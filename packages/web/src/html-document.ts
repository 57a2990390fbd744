import { markup, type SafeHtml } from './html';

export interface HtmlDocument {
  /** The page's words that every document shows: its language, the brand after the title, the footer. */
  copy: { language: string; brand: string; footer: string };
  title: string;
  stylesheet: string;
  /** After the stylesheet in <head>, each element on a line of its own. */
  head: SafeHtml | false;
  /** What stands before the footer in <body>, ending with a line break. */
  body: SafeHtml;
}

/**
 * The whole document of a page: HTML5 in the page's language, mobile viewport, kept out of search engines,
 * one stylesheet, then the body and the footer.
 */
export function htmlDocument({ copy, title, stylesheet, head, body }: HtmlDocument): string {
  return markup`<!DOCTYPE html>
<html lang="${copy.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} · ${copy.brand}</title>
<link rel="stylesheet" href="${stylesheet}">
${head}</head>
<body>
${body}<footer class="footer"><p>${copy.footer}</p></footer>
</body>
</html>
`.text;
}
