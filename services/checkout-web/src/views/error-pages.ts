import { COPY } from './copy';
import type { ErrorPageKind } from './copy';
import { markup } from './html';
import { layout } from './layout';

/** Pages for requests that did not reach a payment: unknown link, refused form, outage, bug. */
export function renderErrorPage(kind: ErrorPageKind, requestId: string): string {
  const copy = COPY.errors[kind];
  const main = markup`<h1>${copy.heading}</h1>
<p>${copy.text}</p>
<p class="hint">${COPY.requestId} <code>${requestId}</code></p>`;
  return layout({ title: copy.heading, main });
}
