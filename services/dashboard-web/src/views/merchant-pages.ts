import type { PublicPayment } from '@sika/public-api';
import { formatXof, markup, type SafeHtml } from '@sika/web';

import type { KeySummary } from '../app/ports';
import { KEY_OVERLAP_CHOICES } from '../app/renew-secret-key';
import type { Overview } from '../app/show-overview';
import { formatTime, isoOf } from './format';
import {
  actionForm,
  merchantLayout,
  pageHeading,
  secretBox,
  type FieldProblem,
  type MerchantContext,
} from './layout';

/** A status as a labelled badge; the class gives its colour, the text says it (colour is never the only cue). */
export const badge = (status: string, label: string | undefined): SafeHtml =>
  markup`<span class="badge ${status}">${label ?? status}</span>`;

export function paymentRows(context: MerchantContext, payments: readonly PublicPayment[]): SafeHtml {
  const { copy, mode } = context;
  return markup`<div class="table-wrap"><table>
<thead><tr><th scope="col">${copy.payments.amount}</th><th scope="col">${copy.payments.status}</th><th scope="col">${copy.payments.reference}</th><th scope="col">${copy.payments.created}</th></tr></thead>
<tbody>${payments.map(
    (payment) =>
      markup`<tr><td><a href="/${mode}/payments/${payment.id}">${formatXof(BigInt(payment.amount))}</a></td><td>${badge(payment.status, copy.payments.statuses[payment.status])}</td><td>${payment.reference ?? ''}</td><td><time datetime="${isoOf(payment.created_at)}">${formatTime(payment.created_at, copy)}</time></td></tr>`,
  )}</tbody>
</table></div>`;
}

export function renderOverview(context: MerchantContext, overview: Overview, apiBaseUrl: string): string {
  const { copy, mode } = context;
  const { balance, recentPayments } = overview;
  return merchantLayout(
    context,
    copy.overview.title,
    markup`<h1>${copy.overview.title}</h1>
<section class="tiles" aria-label="${copy.overview.available}">
<div class="tile"><h2>${copy.overview.available}</h2><p class="amount" data-testid="available">${formatXof(BigInt(balance.available))}</p></div>
<div class="tile"><h2>${copy.overview.pendingPayout}</h2><p class="amount">${formatXof(BigInt(balance.pending_payout))}</p></div>
</section>
<section><h2>${copy.overview.recentPayments}</h2>
${recentPayments.length === 0 ? markup`<p>${copy.overview.noPayments}</p>` : paymentRows(context, recentPayments)}
<p><a href="/${mode}/payments">${copy.overview.allPayments}</a></p></section>
<section><h2>${copy.overview.gettingStarted}</h2><ol>${copy.overview.steps.map((step) => markup`<li>${step}</li>`)}</ol>
<p>${copy.overview.apiBase}: <code>${apiBaseUrl}</code></p>
<p>${copy.overview.accountId}: <code data-testid="merchant-id">${overview.merchantId}</code></p>
${!context.liveEnabled && markup`<p><a href="/live/activate">${copy.activation.goLive}</a></p>`}</section>`,
  );
}

function keyFacts(context: MerchantContext, key: KeySummary, testId: string): SafeHtml {
  const { copy } = context;
  return markup`<dl class="facts"><dt>${copy.keys.endsWith}</dt><dd><code data-testid="${testId}">…${key.lastFour}</code></dd><dt>${copy.keys.created}</dt><dd>${formatTime(key.createdAt, copy)}</dd>${key.expiresAt !== undefined && markup`<dt>${copy.keys.worksUntil}</dt><dd data-testid="previous-key-expires">${formatTime(key.expiresAt, copy)}</dd>`}</dl>`;
}

export function renderKeys(
  context: MerchantContext,
  { current, previous }: { current?: KeySummary; previous?: KeySummary },
  { newKey, problem }: { newKey?: string; problem?: FieldProblem } = {},
): string {
  const { copy, mode } = context;
  return merchantLayout(
    context,
    copy.keys.title,
    markup`${pageHeading(copy, copy.keys.title, problem)}
${newKey !== undefined && markup`<section class="card highlight"><h2>${copy.keys.newKeyTitle}</h2>${secretBox(copy, 'new-secret-key', newKey, copy.shownOnce)}</section>`}
<section class="card"><h2>${copy.keys.secretKey}</h2>
${current === undefined ? markup`<p>${copy.keys.none}</p>` : keyFacts(context, current, 'key-last-four')}
</section>
${previous !== undefined && markup`<section class="card"><h2>${copy.keys.previousKey}</h2>${keyFacts(context, previous, 'previous-key-last-four')}</section>`}
<section class="card"><h2>${copy.keys.renewTitle}</h2><p>${copy.keys.renewWarning}</p>
${actionForm(context, `/${mode}/keys/renew`, copy.keys.renew, {
  danger: true,
  extra: markup`<div class="field"><label for="expire_previous">${copy.keys.expirePrevious}</label><select id="expire_previous" name="expire_previous">${KEY_OVERLAP_CHOICES.map((seconds) => markup`<option value="${String(seconds)}">${copy.keys.overlapChoices[seconds]}</option>`)}</select></div>
<div class="check"><input type="checkbox" id="confirm" name="confirm" value="yes"${problem?.param === 'confirm' && markup` aria-invalid="true"`}><label for="confirm">${copy.keys.confirm}</label></div>`,
})}
</section>`,
  );
}

/** Live pages while live is not enabled: what it means. */
export function renderLiveLocked(context: MerchantContext): string {
  const { copy } = context;
  return merchantLayout(
    context,
    copy.modes.liveLockedTitle,
    markup`<h1>${copy.modes.liveLockedTitle}</h1><p>${copy.modes.liveLockedBody}</p><p><a class="button primary" href="/live/activate">${copy.modes.activate}</a> <a href="/test">${copy.modes.test}</a></p>`,
  );
}
