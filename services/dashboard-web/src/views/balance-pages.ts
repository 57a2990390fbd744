import { balanceTransactionType } from '@sika/public-api';
import { formatXof, markup, type SafeHtml } from '@sika/web';

import type { BalanceView } from '../app/show-balance';
import type { ChartDay } from '../domain/collection-chart';
import type { ListFilters } from '../domain/list-filters';
import type { Copy } from './copy';
import { dateRangeFields, pager } from './filters';
import { formatTime, isoOf } from './format';
import { merchantLayout, pageHeading, type FieldProblem, type MerchantContext } from './layout';

const CHART = { width: 600, height: 160, gap: 4, top: 8 } as const;

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

function formatDay(day: string, copy: Copy): string {
  let formatter = dayFormatters.get(copy.locale);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(copy.locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    dayFormatters.set(copy.locale, formatter);
  }
  return formatter.format(new Date(`${day}T00:00:00Z`));
}

/**
 * The last 30 days as bars, drawn on the server (no script, nothing for the CSP to allow). Each bar's <title>
 * reads its day and amount; the same figures are a table below for screen readers and for copying.
 */
function collectionChart(copy: Copy, days: readonly ChartDay[]): SafeHtml {
  const b = copy.balance;
  const total = days.reduce((sum, day) => sum + day.collected, 0n);
  const count = days.reduce((sum, day) => sum + day.paymentCount, 0);
  const highest = days.reduce((most, day) => (day.collected > most ? day.collected : most), 0n);
  const slot = CHART.width / Math.max(days.length, 1);
  const plot = CHART.height - CHART.top;
  const bars = days.map((day, index) => {
    // Bigint to a fraction of the highest day: exact enough for pixels, and 0 stays 0.
    const ratio = highest === 0n ? 0 : Number((day.collected * 10_000n) / highest) / 10_000;
    const height = day.collected > 0n ? Math.max(2, ratio * plot) : 0;
    const label = b.chartBar(formatDay(day.day, copy), formatXof(day.collected), day.paymentCount);
    return markup`<rect class="bar" x="${(index * slot + CHART.gap / 2).toFixed(1)}" y="${(CHART.height - height).toFixed(1)}" width="${(slot - CHART.gap).toFixed(1)}" height="${height.toFixed(1)}"><title>${label}</title></rect>`;
  });
  const first = days.at(0);
  const last = days.at(-1);
  return markup`<section class="card"><h2 id="chart-title">${b.chartTitle}</h2>
<p class="amount" data-testid="collected-30-days">${b.chartTotal(formatXof(total), count)}</p>
<figure class="chart"><svg viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-labelledby="chart-title" preserveAspectRatio="none"><line class="axis" x1="0" y1="${CHART.height - 0.5}" x2="${CHART.width}" y2="${CHART.height - 0.5}"></line>${bars}</svg>
<figcaption class="chart-axis"><span>${first === undefined ? '' : formatDay(first.day, copy)}</span><span>${last === undefined ? '' : formatDay(last.day, copy)}</span></figcaption></figure>
<details><summary>${b.chartTable}</summary><div class="table-wrap"><table>
<thead><tr><th scope="col">${b.day}</th><th scope="col">${b.collected}</th><th scope="col">${b.count}</th></tr></thead>
<tbody>${days
    .filter((day) => day.paymentCount > 0 || day.collected > 0n)
    .map(
      (day) =>
        markup`<tr><td>${formatDay(day.day, copy)}</td><td>${formatXof(day.collected)}</td><td>${day.paymentCount}</td></tr>`,
    )}</tbody></table></div></details>
</section>`;
}

export function renderBalance(
  context: MerchantContext,
  view: BalanceView,
  filters: ListFilters,
  { problem, query }: { problem?: FieldProblem; query: URLSearchParams },
): string {
  const { copy, mode } = context;
  const b = copy.balance;
  const sourceHref = (sourceId: string): string | undefined =>
    sourceId.startsWith('pay_')
      ? `/${mode}/payments/${sourceId}`
      : sourceId.startsWith('po_')
        ? `/${mode}/payouts/${sourceId}`
        : undefined;
  return merchantLayout(
    context,
    b.title,
    markup`${pageHeading(copy, b.title, problem)}
<section class="tiles" aria-label="${b.title}">
<div class="tile"><h2>${b.available}</h2><p class="amount" data-testid="available">${formatXof(BigInt(view.balance.available))}</p></div>
<div class="tile"><h2>${b.pendingPayout}</h2><p class="amount" data-testid="pending-payout">${formatXof(BigInt(view.balance.pending_payout))}</p></div>
</section>
${collectionChart(copy, view.chart)}
<section><h2>${b.movements}</h2>
<form method="get" action="/${mode}/balance" class="filters" aria-label="${copy.payments.filters}">
<div class="field"><label for="type">${b.type}</label><select id="type" name="type"><option value="">${b.anyType}</option>${balanceTransactionType.names.map(
      (type) =>
        markup`<option value="${type}"${filters.type === type && markup` selected`}>${b.types[type] ?? type}</option>`,
    )}</select></div>
${dateRangeFields(copy, filters, problem)}
<div class="filter-actions"><button type="submit" class="button primary">${copy.payments.apply}</button> <a href="/${mode}/balance">${copy.payments.reset}</a></div>
</form>
${
  view.movements.length === 0
    ? markup`<p>${b.none}</p>`
    : markup`<div class="table-wrap"><table data-testid="movements">
<thead><tr><th scope="col">${b.amount}</th><th scope="col">${b.type}</th><th scope="col">${b.source}</th><th scope="col">${b.created}</th></tr></thead>
<tbody>${view.movements.map((movement) => {
        const href = sourceHref(movement.source_id);
        return markup`<tr><td class="${movement.amount < 0 ? 'debit' : 'credit'}">${formatXof(BigInt(movement.amount))}</td><td>${b.types[movement.type] ?? movement.type}</td><td>${href === undefined ? markup`<code>${movement.source_id}</code>` : markup`<a href="${href}"><code>${movement.source_id}</code></a>`}</td><td><time datetime="${isoOf(movement.created_at)}">${formatTime(movement.created_at, copy)}</time></td></tr>`;
      })}</tbody></table></div>`
}
${pager(copy, `/${mode}/balance`, query, { lastId: view.movements.at(-1)?.id, hasMore: view.hasMore, paging: filters.startingAfter !== undefined })}
</section>`,
  );
}
