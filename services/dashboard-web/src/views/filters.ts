import { markup, type SafeHtml } from '@sika/web';

import type { ListFilters } from '../domain/list-filters';
import type { Copy } from './copy';
import type { FieldProblem } from './layout';

const DAY_MS = 86_400_000;

/** A day as a date input holds it; the exclusive end of a range reads as the day before, the one typed. */
const dayInput = (date: Date | undefined, shift = 0): string =>
  date === undefined ? '' : new Date(date.getTime() - shift).toISOString().slice(0, 10);

/** "From" and "to" of a list's filters, as whole days. */
export function dateRangeFields(
  copy: Copy,
  filters: ListFilters,
  problem: FieldProblem | undefined,
): SafeHtml {
  const invalid = (param: string) => markup`${problem?.param === param && markup` aria-invalid="true"`}`;
  return markup`<div class="field"><label for="created_from">${copy.payments.createdFrom}</label><input id="created_from" name="created_from" type="date" value="${dayInput(filters.createdFrom)}"${invalid('created_from')}></div>
<div class="field"><label for="created_to">${copy.payments.createdTo}</label><input id="created_to" name="created_to" type="date" value="${dayInput(filters.createdTo, DAY_MS)}"${invalid('created_to')}></div>`;
}

/** "First page" while paging, "Next page" while there is more: the query kept, the cursor moved. */
export function pager(
  copy: Copy,
  path: string,
  query: URLSearchParams,
  page: { lastId: string | undefined; hasMore: boolean; paging: boolean },
): SafeHtml {
  const next = new URLSearchParams(query);
  if (page.lastId !== undefined) next.set('starting_after', page.lastId);
  const first = new URLSearchParams(query);
  first.delete('starting_after');
  return markup`<p class="pager">${page.paging && markup`<a href="${path}?${first.toString()}">${copy.payments.first}</a> `}${page.hasMore && markup`<a href="${path}?${next.toString()}" rel="next">${copy.payments.next}</a>`}</p>`;
}
