import { DEFAULT_COPY, type Copy, type ErrorPageKind } from './copy';
import { markup } from '@sika/web';
import { layout } from './layout';

/** Pages for requests that did not reach a payment: unknown link, refused form, outage, bug. */
export function renderErrorPage(kind: ErrorPageKind, requestId: string, copy: Copy = DEFAULT_COPY): string {
  const words = copy.errors[kind];
  const main = markup`<h1>${words.heading}</h1>
<p>${words.text}</p>
<p class="hint">${copy.requestId} <code>${requestId}</code></p>`;
  return layout({ title: words.heading, main, copy });
}
