import { markup, type SafeHtml } from '@sika/web';

import type { WebhookEvent } from '../app/ports';
import type { WebhooksView } from '../app/show-webhooks';
import type { Copy } from './copy';
import { formatTime, isoOf } from './format';
import {
  actionForm,
  csrfInput,
  field,
  merchantLayout,
  noticeLine,
  pageHeading,
  secretBox,
  type FieldProblem,
  type MerchantContext,
} from './layout';
import { badge } from './merchant-pages';

function deliveryBadge(copy: Copy, event: WebhookEvent): SafeHtml {
  const status = event.delivery?.status ?? 'none';
  return badge(status, copy.webhooks.deliveryStatus[status]);
}

/** Events with their delivery, each linking to its page; the delivery log's table and a record's. */
export function eventsTable(context: MerchantContext, events: WebhookEvent[]): SafeHtml {
  const { copy, mode } = context;
  const w = copy.webhooks;
  return events.length === 0
    ? markup`<p>${w.noEvents}</p>`
    : markup`<div class="table-wrap"><table data-testid="events">
<thead><tr><th scope="col">${w.event}</th><th scope="col">${w.type}</th><th scope="col">${w.delivery}</th><th scope="col">${w.attempts}</th><th scope="col">${w.created}</th></tr></thead>
<tbody>${events.map(
        (event) =>
          markup`<tr><td><a href="/${mode}/webhooks/events/${event.id}"><code>${event.id}</code></a></td><td>${event.type}</td><td>${deliveryBadge(copy, event)}</td><td>${event.delivery?.attemptCount ?? 0}</td><td>${formatTime(event.createdAt, copy)}</td></tr>`,
      )}</tbody></table></div>`;
}

export interface WebhooksPageState {
  problem?: FieldProblem;
  /** A confirmation of what was just done. */
  notice?: string;
  /** A secret to show once: revealed or newly rolled. */
  secret?: { title: string; value: string; hint: string };
  urlValue?: string;
}

export function renderWebhooks(
  context: MerchantContext,
  view: WebhooksView,
  state: WebhooksPageState = {},
  nextHref?: string,
): string {
  const { copy, mode } = context;
  const w = copy.webhooks;
  return merchantLayout(
    context,
    w.title,
    markup`${pageHeading(copy, w.title, state.problem)}
${noticeLine(state.notice)}
${state.secret !== undefined && markup`<section class="card highlight"><h2>${state.secret.title}</h2>${secretBox(copy, 'webhook-secret', state.secret.value, state.secret.hint)}</section>`}
<section class="card"><h2>${w.endpoint}</h2>
<form method="post" action="/${mode}/webhooks/url" novalidate>${csrfInput(context)}
${field({ name: 'url', label: w.url, type: 'url', value: state.urlValue ?? view.url ?? '', hint: w.urlHint, problem: state.problem, required: true })}
<button type="submit" class="button primary">${w.save}</button></form>
${view.url === undefined && markup`<p class="hint">${w.noUrl}</p>`}
<div class="actions">${actionForm(context, `/${mode}/webhooks/test`, w.sendTest)}</div>
</section>
<section class="card"><h2>${w.secret}</h2>
<div class="actions">${actionForm(context, `/${mode}/webhooks/secret`, w.reveal)}</div>
<p>${w.rollWarning}</p>
${actionForm(context, `/${mode}/webhooks/secret/roll`, w.roll, {
  danger: true,
  extra: markup`<div class="check"><input type="checkbox" id="confirm" name="confirm" value="yes"><label for="confirm">${w.rollConfirm}</label></div>`,
})}
</section>
<section><h2>${w.log}</h2>
${eventsTable(context, view.events)}
${nextHref !== undefined && markup`<p><a href="${nextHref}">${copy.payments.next}</a></p>`}
</section>`,
  );
}

export function renderEvent(context: MerchantContext, event: WebhookEvent, notice?: string): string {
  const { copy, mode } = context;
  const w = copy.webhooks;
  const attempts = event.delivery?.attempts ?? [];
  return merchantLayout(
    context,
    `${w.event} ${event.id}`,
    markup`<p><a href="/${mode}/webhooks">← ${w.log}</a></p>
<h1>${w.event} <code>${event.id}</code></h1>
${noticeLine(notice)}
<dl class="facts"><dt>${w.type}</dt><dd>${event.type}</dd><dt>${w.created}</dt><dd>${formatTime(event.createdAt, copy)}</dd><dt>${w.delivery}</dt><dd>${deliveryBadge(copy, event)}</dd>
${event.delivery?.nextAttemptAt !== undefined && markup`<dt>${w.nextRetry}</dt><dd><time datetime="${isoOf(event.delivery.nextAttemptAt)}">${formatTime(event.delivery.nextAttemptAt, copy)}</time></dd>`}</dl>
${actionForm(context, `/${mode}/webhooks/events/${event.id}/resend`, w.resend)}
<h2>${w.attempts}</h2>
${
  attempts.length === 0
    ? markup`<p>${w.noAttempts}</p>`
    : markup`<div class="table-wrap"><table><thead><tr><th scope="col">${w.attempt}</th><th scope="col">${w.time}</th><th scope="col">${w.httpStatus}</th><th scope="col">${w.duration}</th></tr></thead>
<tbody>${attempts.map(
        (attempt) =>
          markup`<tr><td>${attempt.number}</td><td>${formatTime(attempt.attemptedAt, copy)}</td><td>${attempt.statusCode ?? attempt.error ?? ''}</td><td>${attempt.durationMs} ms</td></tr>`,
      )}</tbody></table></div>`
}
<h2>${w.payload}</h2>
<pre class="payload"><code>${JSON.stringify(JSON.parse(event.payload) as unknown, null, 2)}</code></pre>`,
  );
}
