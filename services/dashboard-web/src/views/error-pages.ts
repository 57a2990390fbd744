import { markup } from '@sika/web';

import { publicLayout, type PageContext } from './layout';

export type ErrorKind = 'notFound' | 'forbidden' | 'unavailable' | 'internal' | 'badRequest' | 'tooMany';

export function renderErrorPage(context: PageContext, kind: ErrorKind, requestId: string): string {
  const { copy } = context;
  return publicLayout(
    context,
    copy.errors.title,
    markup`<h1>${copy.errors.title}</h1>
<p>${copy.errors[kind]}</p>
<p class="hint">${copy.errors.requestId}: <code>${requestId}</code></p>
<p><a href="/">${copy.errors.back}</a></p>`,
  );
}
