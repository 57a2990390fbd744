import type { PublicPayout } from '@sika/public-api';
import { PAYOUT_ALIAS_TYPES, PAYOUT_SCHEDULES, type PayoutFailureCode } from '@sika/rules';
import { formatXof, markup, type SafeHtml } from '@sika/web';

import type { PayoutAccountSummary } from '../app/ports';
import type { PayoutView } from '../app/show-payout';
import type { PayoutsView } from '../app/show-payouts';
import { pager } from './filters';
import { formatTime, isoOf } from './format';
import {
  csrfInput,
  field,
  merchantLayout,
  noticeLine,
  pageHeading,
  type FieldProblem,
  type MerchantContext,
} from './layout';
import { badge } from './merchant-pages';
import { eventsTable } from './webhook-pages';

export interface PayoutsPageState {
  notice?: string;
  problem?: FieldProblem;
  /** What the merchant typed, given back with a refusal. */
  values?: { aliasType?: string; alias?: string; choice?: string; amount?: string };
  /** The idempotency key of the "Pay out now" form: new on every page, kept when the form comes back refused. */
  payoutFormKey: string;
  /** Set while paging through the history. */
  startingAfter?: string;
}

const invalid = (problem: FieldProblem | undefined, param: string): SafeHtml =>
  markup`${problem?.param === param && markup` aria-invalid="true"`}`;

function accountCard(
  context: MerchantContext,
  account: PayoutAccountSummary | undefined,
  state: PayoutsPageState,
): SafeHtml {
  const { copy, mode } = context;
  const p = copy.payouts;
  const { problem, values = {} } = state;
  const chosenType = values.aliasType ?? account?.aliasType ?? 'phone';
  const registration = markup`<form method="post" action="/${mode}/payouts/account" novalidate>${csrfInput(context)}
<div class="field"><label for="alias_type">${p.aliasType}</label><select id="alias_type" name="alias_type"${invalid(problem, 'alias_type')}>${PAYOUT_ALIAS_TYPES.map(
    (type) =>
      markup`<option value="${type}"${chosenType === type && markup` selected`}>${p.aliasTypes[type] ?? type}</option>`,
  )}</select></div>
${field({ name: 'alias', label: p.alias, value: values.alias ?? '', hint: p.aliasHint, problem, required: true, autocomplete: 'off' })}
<button type="submit" class="button primary">${p.register}</button></form>`;
  if (account === undefined) {
    return markup`<section class="card"><h2>${p.account}</h2><p>${p.noAccount}</p>${registration}</section>`;
  }
  const awaiting = account.status === 'awaiting_confirmation';
  return markup`<section class="card${awaiting ? ' highlight' : ''}"><h2>${p.account}</h2>
<dl class="facts" data-testid="payout-account">
<dt>${p.aliasType}</dt><dd>${p.aliasTypes[account.aliasType] ?? account.aliasType}</dd>
<dt>${p.alias}</dt><dd><code>${account.aliasMasked}</code></dd>
<dt>${p.holderName}</dt><dd>${account.holderName}</dd>
<dt>${p.status}</dt><dd>${badge(account.status === 'verified' ? 'paid' : 'sent', p.accountStatuses[account.status])}</dd>
</dl>
${account.defaultTestAccount && markup`<p class="hint">${p.defaultTestAccount}</p>`}
${
  awaiting &&
  markup`<p>${p.confirmPrompt(account.holderName)}</p><form method="post" action="/${mode}/payouts/account/confirm" class="action">${csrfInput(context)}<input type="hidden" name="holder_name" value="${account.holderName}"><button type="submit" class="button primary">${p.confirm}</button></form>`
}
<details${problem?.param === 'alias' || problem?.param === 'alias_type' ? markup` open` : ''}><summary>${p.change}</summary>${registration}</details>
</section>`;
}

function scheduleCard(context: MerchantContext, schedule: string): SafeHtml {
  const { copy, mode } = context;
  const p = copy.payouts;
  return markup`<section class="card"><h2>${p.schedule}</h2>
<form method="post" action="/${mode}/payouts/schedule">${csrfInput(context)}
<fieldset><legend class="visually-hidden">${p.schedule}</legend>${PAYOUT_SCHEDULES.map(
    (choice) =>
      markup`<div class="check"><input type="radio" id="schedule-${choice}" name="schedule" value="${choice}"${schedule === choice && markup` checked`}><label for="schedule-${choice}">${p.schedules[choice] ?? choice}</label></div>`,
  )}</fieldset>
<button type="submit" class="button">${p.saveSchedule}</button></form></section>`;
}

function payOutCard(context: MerchantContext, available: number, state: PayoutsPageState): SafeHtml {
  const { copy, mode } = context;
  const p = copy.payouts;
  const { problem, values = {} } = state;
  const choice = values.choice ?? 'all';
  return markup`<section class="card"><h2>${p.payOutNow}</h2>
<form method="post" action="/${mode}/payouts" novalidate>${csrfInput(context)}<input type="hidden" name="idempotency_key" value="${state.payoutFormKey}">
<fieldset><legend class="visually-hidden">${p.payOutNow}</legend>
<div class="check"><input type="radio" id="choice-all" name="choice" value="all"${choice === 'all' && markup` checked`}><label for="choice-all">${p.payOutAll(formatXof(BigInt(available)))}</label></div>
<div class="check"><input type="radio" id="choice-amount" name="choice" value="amount"${choice === 'amount' && markup` checked`}><label for="choice-amount">${p.payOutAmount}</label></div>
</fieldset>
${field({ name: 'amount', label: p.amount, value: values.amount ?? '', hint: p.amountHint, problem, autocomplete: 'off' })}
<button type="submit" class="button primary">${p.payOut}</button></form></section>`;
}

const destinationOf = (payout: PublicPayout): string =>
  `${payout.destination.alias} · ${payout.destination.holder_name}`;

export function renderPayouts(context: MerchantContext, view: PayoutsView, state: PayoutsPageState): string {
  const { copy, mode } = context;
  const p = copy.payouts;
  return merchantLayout(
    context,
    p.title,
    markup`${pageHeading(copy, p.title, state.problem)}
${noticeLine(state.notice)}
<section class="tiles" aria-label="${copy.balance.title}">
<div class="tile"><h2>${copy.balance.available}</h2><p class="amount" data-testid="available">${formatXof(BigInt(view.balance.available))}</p></div>
<div class="tile"><h2>${copy.balance.pendingPayout}</h2><p class="amount" data-testid="pending-payout">${formatXof(BigInt(view.balance.pending_payout))}</p></div>
</section>
${accountCard(context, view.account, state)}
${
  // Before live opens, only the account can be set up here (going live needs it).
  (mode === 'test' || context.liveEnabled) &&
  markup`${payOutCard(context, view.balance.available, state)}
${scheduleCard(context, view.schedule)}`
}
<section><h2>${p.list}</h2>
${
  view.payouts.length === 0
    ? markup`<p>${p.none}</p>`
    : markup`<div class="table-wrap"><table>
<thead><tr><th scope="col">${copy.balance.amount}</th><th scope="col">${p.status}</th><th scope="col">${p.destination}</th><th scope="col">${p.method}</th><th scope="col">${p.createdAt}</th></tr></thead>
<tbody>${view.payouts.map(
        (payout) =>
          markup`<tr><td><a href="/${mode}/payouts/${payout.id}">${formatXof(BigInt(payout.amount))}</a></td><td>${badge(payout.status, p.statuses[payout.status])}</td><td>${destinationOf(payout)}</td><td>${p.methods[payout.method] ?? payout.method}</td><td><time datetime="${isoOf(payout.created_at)}">${formatTime(payout.created_at, copy)}</time></td></tr>`,
      )}</tbody></table></div>`
}
${pager(copy, `/${mode}/payouts`, new URLSearchParams(), { lastId: view.payouts.at(-1)?.id, hasMore: view.hasMore, paging: state.startingAfter !== undefined })}
</section>`,
  );
}

export function renderPayout(
  context: MerchantContext,
  { payout, events }: PayoutView,
  notice?: string,
): string {
  const { copy, mode } = context;
  const p = copy.payouts;
  const failure = payout.failure_code as PayoutFailureCode | null;
  return merchantLayout(
    context,
    `${p.detail} ${payout.id}`,
    markup`<p><a href="/${mode}/payouts">← ${p.title}</a></p>
<h1>${formatXof(BigInt(payout.amount))} ${badge(payout.status, p.statuses[payout.status])}</h1>
${noticeLine(notice)}
<dl class="facts">
<dt>${p.id}</dt><dd><code>${payout.id}</code></dd>
<dt>${p.destination}</dt><dd>${p.aliasTypes[payout.destination.type] ?? payout.destination.type} · <code>${payout.destination.alias}</code> · ${payout.destination.holder_name}</dd>
<dt>${p.method}</dt><dd>${p.methods[payout.method] ?? payout.method}</dd>
<dt>${p.createdAt}</dt><dd>${formatTime(payout.created_at, copy)}</dd>
${payout.paid_at !== null && markup`<dt>${p.paidAt}</dt><dd>${formatTime(payout.paid_at, copy)}</dd>`}
${failure !== null && markup`<dt>${p.failure}</dt><dd><code>${failure}</code> · ${p.failures[failure]}</dd>`}
</dl>
<h2>${copy.webhooks.recordEvents}</h2>
${eventsTable(context, events)}`,
  );
}
