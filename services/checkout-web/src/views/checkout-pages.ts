import type { AliasProblem } from '../app/submit-alias';
import { TEXT_LIMITS } from '@sika/rules';
import type { CheckoutPayment } from '../domain/payment';
import { screenKey } from '../domain/screen';
import type { Outcome, RetryNotice } from '../domain/screen';
import { webUrlOrNull } from '../domain/web-url';
import { COPY } from './copy';
import { formatXof } from './format';
import { markup } from './html';
import type { SafeHtml } from './html';
import { layout } from './layout';

/** Paths of the page's own routes (see transport/http/checkout-routes.ts). */
export const checkoutPaths = {
  page: (paymentId: string) => `/pay/${encodeURIComponent(paymentId)}`,
  attempts: (paymentId: string) => `/pay/${encodeURIComponent(paymentId)}/attempts`,
  events: (paymentId: string) => `/pay/${encodeURIComponent(paymentId)}/events`,
};

const ALIAS_FIELD = 'customer_alias';

function summary(payment: CheckoutPayment): SafeHtml {
  const rows: [string, string][] = [[COPY.amount, formatXof(payment.amount)]];
  if (payment.reference !== null) rows.push([COPY.reference, payment.reference]);
  if (payment.description !== null) rows.push([COPY.description, payment.description]);
  return markup`<dl class="summary">
${rows.map(
  ([term, value]) => markup`<div><dt>${term}</dt><dd>${value}</dd></div>
`,
)}</dl>`;
}

/** A link back to the merchant, when the merchant gave a usable URL; nothing otherwise. */
function shopLink(url: string | null, label: string, className = 'secondary'): SafeHtml | null {
  const href = webUrlOrNull(url);
  return href === null ? null : markup`<p class="${className}"><a href="${href}">${label}</a></p>`;
}

export interface AliasFormOptions {
  notice?: RetryNotice | null;
  problem?: AliasProblem | null;
  /** What the customer typed, shown again after a rejected submission. */
  enteredAlias?: string;
}

/** The first screen: summary and the alias form, which works without JavaScript (a plain POST). */
export function renderAliasForm(
  payment: CheckoutPayment,
  { notice = null, problem = null, enteredAlias = '' }: AliasFormOptions = {},
): string {
  const amount = formatXof(payment.amount);
  const hintId = `${ALIAS_FIELD}-hint`;
  const errorId = `${ALIAS_FIELD}-error`;
  const describedBy = problem === null ? hintId : `${hintId} ${errorId}`;
  const noticeLine =
    notice === null
      ? null
      : markup`<p class="notice" role="status">${COPY.notices[notice]}</p>
`;
  const errorLine =
    problem === null
      ? null
      : markup`<p id="${errorId}" class="error">${COPY.problems[problem]}</p>
`;
  const main = markup`<h1>${COPY.form.heading(amount)}</h1>
${summary(payment)}
${noticeLine}<form class="alias-form" method="post" action="${checkoutPaths.attempts(payment.id)}">
<label for="${ALIAS_FIELD}">${COPY.form.label}</label>
<p id="${hintId}" class="hint">${COPY.form.hintBefore}<span class="nowrap">${COPY.form.hintExample}</span>${COPY.form.hintAfter}</p>
${errorLine}<input id="${ALIAS_FIELD}" name="${ALIAS_FIELD}" type="tel" autocomplete="tel" required maxlength="${TEXT_LIMITS.customerAlias}" aria-describedby="${describedBy}"${problem !== null && markup` aria-invalid="true"`} value="${enteredAlias}">
<button type="submit">${COPY.form.submit}</button>
</form>
<p class="explain">${COPY.form.explain}</p>
${shopLink(payment.cancelUrl, COPY.cancel)}`;
  const title = COPY.form.title(amount);
  return layout({
    title: problem === null ? title : `${COPY.form.errorTitlePrefix}${title}`,
    main,
    testMode: !payment.livemode,
  });
}

/**
 * A request is at the customer's bank. With JavaScript the page follows the status over server-sent
 * events and reloads when the screen changes; without, it reloads itself every few seconds.
 */
export function renderWaiting(payment: CheckoutPayment, stage: 'sending' | 'sent'): string {
  const main = markup`<h1>${COPY.waiting.heading}</h1>
${summary(payment)}
<p class="status" role="status"><span class="spinner" aria-hidden="true"></span>${COPY.waiting[stage]}</p>
<p class="hint">${COPY.waiting.automatic}</p>
<noscript><p class="hint"><a href="${checkoutPaths.page(payment.id)}">${COPY.waiting.refresh}</a></p></noscript>
${shopLink(payment.cancelUrl, COPY.abandon)}`;
  return layout({
    title: COPY.waiting.title,
    main,
    testMode: !payment.livemode,
    live: true,
    data: { screen: screenKey({ kind: 'waiting', stage }), events: checkoutPaths.events(payment.id) },
  });
}

/** Where the customer goes when the page has nothing more to offer: cancel_url, else return_url. */
function backUrl(payment: CheckoutPayment): string | null {
  return webUrlOrNull(payment.cancelUrl) ?? webUrlOrNull(payment.returnUrl);
}

/** Declined, expired, canceled, failed, or out of attempts: the outcome and the way back to the shop. */
export function renderOutcome(payment: CheckoutPayment, outcome: Outcome): string {
  const copy = COPY.outcomes[outcome];
  const main = markup`<h1>${copy.heading}</h1>
${summary(payment)}
<p>${copy.text}</p>
${shopLink(backUrl(payment), COPY.back, 'primary')}`;
  return layout({ title: copy.heading, main, testMode: !payment.livemode });
}

/**
 * Paid (or accepted for payment on delivery). The customer is normally redirected to return_url at once;
 * this page is only shown when that URL cannot be used as a link.
 */
export function renderPaid(payment: CheckoutPayment): string {
  const main = markup`<h1>${COPY.paid.heading}</h1>
${summary(payment)}
<p>${COPY.paid.text}</p>
${shopLink(payment.returnUrl, COPY.back, 'primary')}`;
  return layout({ title: COPY.paid.title, main, testMode: !payment.livemode });
}
