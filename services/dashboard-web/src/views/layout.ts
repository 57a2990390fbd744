import { htmlDocument, markup, type SafeHtml } from '@sika/web';

import type { Mode } from '../domain/mode';
import type { Copy } from './copy';

export const ASSET_PATHS = { stylesheet: '/assets/dashboard.css', script: '/assets/dashboard.js' } as const;

/** The name of the hidden field (and of the cookie) that carries the CSRF token of every form. */
export const CSRF_FIELD = '_csrf';

/** What every page knows about the request: its words, its CSRF token, and the same page in the other language. */
export interface PageContext {
  copy: Copy;
  csrfToken: string;
  /** The current path with `?lang=` set to the other language. */
  languageSwitchHref: string;
}

/** What a signed-in page knows besides: the merchant, the mode, and how to reach this page in the other mode. */
export interface MerchantContext extends PageContext {
  merchantName: string;
  mode: Mode;
  liveEnabled: boolean;
  /** The same page in the other mode (its list, when the page is one record of this mode). */
  otherModeHref: string;
  /** The navigation entry of this page. */
  section: Section;
}

/** The pages of the navigation, and the go-live page, reached from the live mode and the home page. */
export type Section = 'overview' | 'payments' | 'balance' | 'payouts' | 'webhooks' | 'keys' | 'activate';

export const csrfInput = (context: PageContext): SafeHtml =>
  markup`<input type="hidden" name="${CSRF_FIELD}" value="${context.csrfToken}">`;

/** A one-button form, POSTed with the CSRF token: every action that changes something is one. */
export function actionForm(
  context: PageContext,
  action: string,
  label: string,
  { danger = false, extra }: { danger?: boolean; extra?: SafeHtml } = {},
): SafeHtml {
  return markup`<form method="post" action="${action}" class="action">${csrfInput(context)}${extra}<button type="submit" class="${danger ? 'button danger' : 'button'}">${label}</button></form>`;
}

function document(copy: Copy, title: string, body: SafeHtml): string {
  return htmlDocument({
    copy,
    title,
    stylesheet: ASSET_PATHS.stylesheet,
    head: markup`<script src="${ASSET_PATHS.script}" defer></script>
`,
    body: markup`<a class="skip" href="#content">${copy.skipToContent}</a>
${body}
`,
  });
}

const languageLink = (context: PageContext): SafeHtml =>
  markup`<a class="language" href="${context.languageSwitchHref}" lang="${context.copy.switchLanguage.to}" hreflang="${context.copy.switchLanguage.to}">${context.copy.switchLanguage.label}</a>`;

/** Sign-in, sign-up and reset pages: one centred card. */
export function publicLayout(context: PageContext, title: string, main: SafeHtml): string {
  return document(
    context.copy,
    title,
    markup`<header class="topbar"><span class="brand">${context.copy.brand}</span>${languageLink(context)}</header>
<main id="content" class="narrow">
${main}
</main>`,
  );
}

function modeSwitch(context: MerchantContext): SafeHtml {
  const { copy, mode, liveEnabled, otherModeHref } = context;
  const entry = (target: Mode) => {
    const label = target === 'test' ? copy.modes.test : copy.modes.live;
    const locked =
      target === 'live' && !liveEnabled ? markup` <span class="locked">(${copy.modes.locked})</span>` : '';
    return target === mode
      ? markup`<li><a href="/${mode}" aria-current="true" class="mode ${target}">${label}${locked}</a></li>`
      : markup`<li><a href="${otherModeHref}" class="mode ${target}">${label}${locked}</a></li>`;
  };
  return markup`<nav class="modes" aria-label="${copy.modes.label}"><ul>${entry('test')}${entry('live')}</ul></nav>`;
}

const SECTIONS = [
  'overview',
  'payments',
  'balance',
  'payouts',
  'webhooks',
  'keys',
] as const satisfies Section[];

/** The path of a section under its mode: `/test` for the home page, `/test/payments`, … */
export const sectionPath = (section: Section): string => (section === 'overview' ? '' : `/${section}`);

/** Every signed-in page: the merchant, the test/live switch, the sections, sign-out, and the page. */
export function merchantLayout(context: MerchantContext, title: string, main: SafeHtml): string {
  const { copy, mode } = context;
  const nav = SECTIONS.map(
    (section) =>
      markup`<li><a href="/${mode}${sectionPath(section)}"${section === context.section ? markup` aria-current="page"` : ''}>${copy.nav[section]}</a></li>`,
  );
  return document(
    copy,
    title,
    markup`<header class="topbar"><span class="brand">${copy.brand}</span><span class="merchant">${context.merchantName}</span>${modeSwitch(context)}${languageLink(context)}<form method="post" action="/signout" class="signout">${csrfInput(context)}<button type="submit" class="link">${copy.account.signOut}</button></form></header>
${mode === 'test' && markup`<p class="test-banner" role="note">${copy.modes.testBanner}</p>\n`}<nav class="sections" aria-label="${copy.nav.label}"><ul>${nav}</ul></nav>
<main id="content">
${main}
</main>`,
  );
}

/** A problem with one field: its message beside the field, `aria-invalid`, and a summary that takes focus. */
export interface FieldProblem {
  param: string;
  message: string;
}

export function problemSummary(copy: Copy, problem: FieldProblem | undefined): SafeHtml {
  return problem === undefined
    ? markup``
    : markup`<div class="problem" role="alert" tabindex="-1" data-focus><p><strong>${copy.errors.title}</strong> ${problem.message}</p></div>`;
}

/** A labelled input; `describedBy` ties its hint and its problem to it for screen readers. */
export function field(options: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  hint?: string;
  problem?: FieldProblem | undefined;
  autocomplete?: string;
  required?: boolean;
}): SafeHtml {
  const { name, label, type = 'text', value = '', hint, problem, autocomplete, required = false } = options;
  const invalid = problem?.param === name;
  const described = [hint !== undefined ? `${name}-hint` : '', invalid ? `${name}-problem` : '']
    .filter((id) => id !== '')
    .join(' ');
  return markup`<div class="field"><label for="${name}">${label}</label>${hint !== undefined && markup`<p class="hint" id="${name}-hint">${hint}</p>`}${invalid && markup`<p class="field-problem" id="${name}-problem">${problem.message}</p>`}<input id="${name}" name="${name}" type="${type}" value="${value}"${autocomplete !== undefined && markup` autocomplete="${autocomplete}"`}${required && markup` required`}${invalid && markup` aria-invalid="true"`}${described !== '' && markup` aria-describedby="${described}"`}></div>`;
}

/** A secret (new key, new or revealed webhook secret) with a copy button, and what to do with it. */
export function secretBox(copy: Copy, id: string, secret: string, hint: string): SafeHtml {
  return markup`<div class="secret"><code id="${id}">${secret}</code><button type="button" class="button small" data-copy="${id}" data-copied="${copy.copied}">${copy.copyButton}</button></div><p class="hint">${hint}</p>`;
}

/** A page's heading, then the summary of a refused form's problem (nothing without one). */
export const pageHeading = (copy: Copy, title: string, problem: FieldProblem | undefined): SafeHtml =>
  markup`<h1>${title}</h1>
${problemSummary(copy, problem)}`;

/** The confirmation of what was just done, announced to screen readers (nothing without one). */
export const noticeLine = (notice: string | undefined): SafeHtml | false =>
  notice !== undefined && markup`<p class="notice" role="status">${notice}</p>`;
