import type { AliasProblem } from '../app/submit-alias';
import type { CheckoutLink } from '../domain/checkout-link';
import { TEXT_LIMITS } from '@sika/rules';
import type { CheckoutPayment } from '../domain/payment';
import { screenKey } from '../domain/screen';
import type { Outcome, RetryNotice } from '../domain/screen';
import { webUrlOrNull } from '../domain/web-url';
import { DEFAULT_COPY, type Copy } from './copy';
import { formatXof, markup } from '@sika/web';
import type { SafeHtml } from '@sika/web';
import { layout } from './layout';

/** The payment's page in the other language: the switch every payment screen offers. */
function switchHref(link: CheckoutLink, copy: Copy): string {
  return `${checkoutPaths.page(link)}?${LANGUAGE_PARAM}=${copy.switchLanguage.to}`;
}

/** The query parameter that chooses the page's language (and remembers it, see checkout-routes.ts). */
export const LANGUAGE_PARAM = 'lang';

/**
 * Paths of the page's own routes (see transport/http/checkout-routes.ts): every one carries the link's token,
 * so whatever the page asks for next is checked like the page itself.
 */
export const checkoutPaths = {
  page: ({ paymentId, token }: CheckoutLink) =>
    `/pay/${encodeURIComponent(paymentId)}/${encodeURIComponent(token)}`,
  attempts: (link: CheckoutLink) => `${checkoutPaths.page(link)}/attempts`,
  events: (link: CheckoutLink) => `${checkoutPaths.page(link)}/events`,
};

const ALIAS_FIELD = 'customer_alias';

function summary(payment: CheckoutPayment, copy: Copy): SafeHtml {
  const rows: [string, string][] = [];
  if (payment.merchantName !== null) rows.push([copy.merchant, payment.merchantName]);
  rows.push([copy.amount, formatXof(payment.amount)]);
  if (payment.reference !== null) rows.push([copy.reference, payment.reference]);
  if (payment.description !== null) rows.push([copy.description, payment.description]);
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
  link: CheckoutLink,
  { notice = null, problem = null, enteredAlias = '' }: AliasFormOptions = {},
  copy: Copy = DEFAULT_COPY,
): string {
  const amount = formatXof(payment.amount);
  const hintId = `${ALIAS_FIELD}-hint`;
  const errorId = `${ALIAS_FIELD}-error`;
  const describedBy = problem === null ? hintId : `${hintId} ${errorId}`;
  const noticeLine =
    notice === null
      ? null
      : markup`<p class="notice" role="status">${copy.notices[notice]}</p>
`;
  const errorLine =
    problem === null
      ? null
      : markup`<p id="${errorId}" class="error">${copy.problems[problem]}</p>
`;
  const main = markup`<h1>${copy.form.heading(amount)}</h1>
${summary(payment, copy)}
${noticeLine}<form class="alias-form" method="post" action="${checkoutPaths.attempts(link)}">
<label for="${ALIAS_FIELD}">${copy.form.label}</label>
<p id="${hintId}" class="hint">${copy.form.hintBefore}<span class="nowrap">${copy.form.hintExample}</span>${copy.form.hintAfter}</p>
${errorLine}<input id="${ALIAS_FIELD}" name="${ALIAS_FIELD}" type="tel" autocomplete="tel" required maxlength="${TEXT_LIMITS.customerAlias}" aria-describedby="${describedBy}"${problem !== null && markup` aria-invalid="true"`} value="${enteredAlias}">
<button type="submit">${copy.form.submit}</button>
</form>
<p class="explain">${copy.form.explain}</p>
${shopLink(payment.cancelUrl, copy.cancel)}`;
  const title = copy.form.title(amount);
  return layout({
    title: problem === null ? title : `${copy.form.errorTitlePrefix}${title}`,
    main,
    testMode: !payment.livemode,
    copy,
    switchHref: switchHref(link, copy),
  });
}

/**
 * A request is at the customer's bank. With JavaScript the page follows the status over server-sent
 * events and reloads when the screen changes; without, it reloads itself every few seconds.
 */
export function renderWaiting(
  payment: CheckoutPayment,
  link: CheckoutLink,
  stage: 'sending' | 'sent',
  copy: Copy = DEFAULT_COPY,
): string {
  const main = markup`<h1>${copy.waiting.heading}</h1>
${summary(payment, copy)}
<p class="status" role="status"><span class="spinner" aria-hidden="true"></span>${copy.waiting[stage]}</p>
<p class="hint">${copy.waiting.automatic}</p>
<noscript><p class="hint"><a href="${checkoutPaths.page(link)}">${copy.waiting.refresh}</a></p></noscript>
${shopLink(payment.cancelUrl, copy.abandon)}`;
  return layout({
    title: copy.waiting.title,
    main,
    testMode: !payment.livemode,
    copy,
    switchHref: switchHref(link, copy),
    live: true,
    data: { screen: screenKey({ kind: 'waiting', stage }), events: checkoutPaths.events(link) },
  });
}

/** Where the customer goes when the page has nothing more to offer: cancel_url, else return_url. */
function backUrl(payment: CheckoutPayment): string | null {
  return webUrlOrNull(payment.cancelUrl) ?? webUrlOrNull(payment.returnUrl);
}

/** Declined, expired, canceled, failed, or out of attempts: the outcome and the way back to the shop. */
export function renderOutcome(
  payment: CheckoutPayment,
  link: CheckoutLink,
  outcome: Outcome,
  copy: Copy = DEFAULT_COPY,
): string {
  const words = copy.outcomes[outcome];
  const main = markup`<h1>${words.heading}</h1>
${summary(payment, copy)}
<p>${words.text}</p>
${shopLink(backUrl(payment), copy.back, 'primary')}`;
  return layout({
    title: words.heading,
    main,
    testMode: !payment.livemode,
    copy,
    switchHref: switchHref(link, copy),
  });
}

/**
 * Paid (or accepted for payment on delivery). The customer is normally redirected to return_url at once;
 * this page is only shown when that URL cannot be used as a link.
 */
export function renderPaid(payment: CheckoutPayment, link: CheckoutLink, copy: Copy = DEFAULT_COPY): string {
  // Accepted for payment on delivery: nothing is debited yet, and the customer must know they still pay.
  const words = payment.status === 'accepted_deferred' ? copy.acceptedDeferred : copy.paid;
  const main = markup`<h1>${words.heading}</h1>
${summary(payment, copy)}
<p>${words.text}</p>
${shopLink(payment.returnUrl, copy.back, 'primary')}`;
  return layout({
    title: words.title,
    main,
    testMode: !payment.livemode,
    copy,
    switchHref: switchHref(link, copy),
  });
}
