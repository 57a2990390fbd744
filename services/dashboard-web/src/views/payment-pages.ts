import { paymentStatus, type PublicPayment } from '@sika/public-api';
import { isFinalPaymentStatus, requestWaitingAtTheBank } from '@sika/rules';
import { formatXof, markup } from '@sika/web';

import type { PaymentView } from '../app/show-payment';
import type { ListFilters } from '../domain/list-filters';
import { dateRangeFields, pager } from './filters';
import { formatTime } from './format';
import {
  actionForm,
  merchantLayout,
  noticeLine,
  pageHeading,
  problemSummary,
  type FieldProblem,
  type MerchantContext,
} from './layout';
import { badge, paymentRows } from './merchant-pages';
import { eventsTable } from './webhook-pages';

export function renderPayments(
  context: MerchantContext,
  page: { items: readonly PublicPayment[]; hasMore: boolean },
  filters: ListFilters,
  { problem, query }: { problem?: FieldProblem; query: URLSearchParams },
): string {
  const { copy, mode } = context;
  const p = copy.payments;
  return merchantLayout(
    context,
    p.title,
    markup`${pageHeading(copy, p.title, problem)}
<form method="get" action="/${mode}/payments" class="filters" aria-label="${p.filters}">
<div class="field"><label for="status">${p.status}</label><select id="status" name="status"><option value="">${p.anyStatus}</option>${paymentStatus.names.map(
      (status) =>
        markup`<option value="${status}"${filters.status === status && markup` selected`}>${p.statuses[status] ?? status}</option>`,
    )}</select></div>
<div class="field"><label for="reference">${p.reference}</label><input id="reference" name="reference" value="${filters.reference ?? ''}"></div>
${dateRangeFields(copy, filters, problem)}
<div class="filter-actions"><button type="submit" class="button primary">${p.apply}</button> <a href="/${mode}/payments">${p.reset}</a></div>
</form>
${page.items.length === 0 ? markup`<p>${p.none}</p>` : paymentRows(context, page.items)}
${pager(copy, `/${mode}/payments`, query, { lastId: page.items.at(-1)?.id, hasMore: page.hasMore, paging: filters.startingAfter !== undefined })}`,
  );
}

export function renderPayment(
  context: MerchantContext,
  { payment, events }: PaymentView,
  notice?: string,
  problem?: FieldProblem,
): string {
  const { copy, mode } = context;
  const p = copy.payments;
  const waitingAtBank = requestWaitingAtTheBank(payment.attempts) !== undefined;
  return merchantLayout(
    context,
    `${p.detail} ${payment.id}`,
    markup`<p><a href="/${mode}/payments">← ${p.title}</a></p>
<h1>${formatXof(BigInt(payment.amount))} ${badge(payment.status, p.statuses[payment.status])}</h1>
${problemSummary(copy, problem)}
${noticeLine(notice)}
<dl class="facts">
<dt>${p.id}</dt><dd><code>${payment.id}</code></dd>
<dt>${p.mode}</dt><dd>${p.modes[payment.mode as keyof typeof p.modes] ?? payment.mode}</dd>
${payment.reference !== null && markup`<dt>${p.reference}</dt><dd>${payment.reference}</dd>`}
${payment.description !== null && markup`<dt>${p.description}</dt><dd>${payment.description}</dd>`}
${payment.fee_amount !== null && markup`<dt>${p.fee}</dt><dd>${formatXof(BigInt(payment.fee_amount))}</dd>`}
${payment.net_amount !== null && markup`<dt>${p.net}</dt><dd>${formatXof(BigInt(payment.net_amount))}</dd>`}
${payment.payer_alias_masked !== null && markup`<dt>${p.payer}</dt><dd>${payment.payer_alias_masked}</dd>`}
<dt>${p.created}</dt><dd>${formatTime(payment.created_at, copy)}</dd>
<dt>${p.expires}</dt><dd>${formatTime(payment.expires_at, copy)}</dd>
<dt>${p.checkoutUrl}</dt><dd><a href="${payment.checkout_url}">${payment.checkout_url}</a></dd>
</dl>
<div class="actions">
${!isFinalPaymentStatus(payment.status) && actionForm(context, `/${mode}/payments/${payment.id}/cancel`, p.cancel, { danger: true })}
${mode === 'test' && waitingAtBank && markup`<div>${actionForm(context, `/${mode}/payments/${payment.id}/simulate`, p.simulate)}<p class="hint">${p.simulateHint}</p></div>`}
</div>
<h2>${p.attempts}</h2>
${
  payment.attempts.length === 0
    ? markup`<p>${p.noAttempts}</p>`
    : markup`<div class="table-wrap"><table><thead><tr><th scope="col">${p.txId}</th><th scope="col">${p.status}</th><th scope="col">${p.payer}</th><th scope="col">${p.failure}</th><th scope="col">${p.created}</th></tr></thead>
<tbody>${payment.attempts.map(
        (attempt) =>
          markup`<tr><td><code>${attempt.tx_id}</code></td><td>${badge(attempt.status, p.attemptStatuses[attempt.status])}</td><td>${attempt.payer_alias_masked ?? ''}</td><td>${attempt.failure_code ?? ''}</td><td>${formatTime(attempt.created_at, copy)}</td></tr>`,
      )}</tbody></table></div>`
}
<h2>${copy.webhooks.recordEvents}</h2>
${eventsTable(context, events)}`,
  );
}
