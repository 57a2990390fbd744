import { htmlProblems } from '../../test/support/html-validity';
import type { AliasProblem } from '../app/submit-alias';
import type { CheckoutPayment } from '../domain/payment';
import type { Outcome, RetryNotice } from '../domain/screen';
import { renderAliasForm, renderOutcome, renderPaid, renderWaiting } from './checkout-pages';
import { COPIES, type ErrorPageKind } from './copy';
import { renderErrorPage } from './error-pages';

const LINK = { paymentId: 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf', token: 'tok-en_0123456789abcdefghijklmnop' };
const PAGE_PATH = `/pay/${LINK.paymentId}/${LINK.token}`;

const HOSTILE_REFERENCE = `</dd><script>alert("ref")</script>`;
const HOSTILE_DESCRIPTION = `"><img src=x onerror=alert('desc')> & co`;

function payment(fields: Partial<CheckoutPayment> = {}): CheckoutPayment {
  return {
    id: 'pay_3kTMd9Qx0bW7vYcN1LzR8aPf',
    status: 'created',
    livemode: false,
    amount: 10_000n,
    merchantName: 'Boutique Adjoua',
    reference: 'CMD-1042',
    description: 'Deux pagnes wax',
    returnUrl: 'https://shop.example/return',
    cancelUrl: 'https://shop.example/cancel',
    expiresAt: new Date('2025-06-01T12:05:00Z'),
    attempts: [],
    ...fields,
  };
}

const hostile = payment({ reference: HOSTILE_REFERENCE, description: HOSTILE_DESCRIPTION });

/** Every page the service can render, with hostile merchant text wherever the page shows it. */
const pages: [string, string][] = [
  ['alias form', renderAliasForm(hostile, LINK)],
  ...(['previous_declined', 'previous_expired', 'previous_failed'] satisfies RetryNotice[]).map(
    (notice): [string, string] => [`alias form after ${notice}`, renderAliasForm(hostile, LINK, { notice })],
  ),
  ...(
    [
      'alias_missing',
      'alias_invalid',
      'alias_unknown',
      'too_many_attempts',
      'unavailable',
    ] satisfies AliasProblem[]
  ).map((problem): [string, string] => [
    `alias form with ${problem}`,
    renderAliasForm(hostile, LINK, { problem, enteredAlias: '"><script>x</script>' }),
  ]),
  ['waiting (sending)', renderWaiting(hostile, LINK, 'sending')],
  ['waiting (sent)', renderWaiting(hostile, LINK, 'sent')],
  ...(['declined', 'expired', 'canceled', 'failed', 'attempts_exhausted'] satisfies Outcome[]).map(
    (outcome): [string, string] => [`outcome ${outcome}`, renderOutcome(hostile, LINK, outcome)],
  ),
  ['paid', renderPaid(hostile, LINK)],
  ['accepted for payment on delivery', renderPaid({ ...hostile, status: 'accepted_deferred' }, LINK)],
  ['english form', renderAliasForm(hostile, LINK, {}, COPIES.en)],
  [
    'live mode form',
    renderAliasForm(payment({ livemode: true, reference: null, description: null, cancelUrl: null }), LINK),
  ],
  ...(
    [
      'not_found',
      'forbidden',
      'bad_request',
      'too_many_submissions',
      'unavailable',
      'internal',
    ] satisfies ErrorPageKind[]
  ).map((kind): [string, string] => [`error ${kind}`, renderErrorPage(kind, 'req_<x>')]),
];

describe.each(pages)('%s page', (name, page) => {
  it('is valid HTML5', async () => {
    expect(await htmlProblems(page)).toEqual([]);
  });

  it('has the document basics: its language, UTF-8, viewport, one h1, the stylesheet, no inline code', () => {
    const language = name.startsWith('english') ? 'en' : 'fr';
    expect(page.startsWith(`<!DOCTYPE html>\n<html lang="${language}">`)).toBe(true);
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.match(/<h1>/g)).toHaveLength(1);
    expect(page).toContain('<link rel="stylesheet" href="/assets/checkout.css">');
    // Merchant text is escaped, so every `<` left starts a real tag: look for inline code in tags only.
    const tags = page.match(/<[^>]*>/g) ?? [];
    expect(tags.filter((tag) => /^<script(?![^>]*\ssrc=)|^<style|\son[a-z]+=|\sstyle=/i.test(tag))).toEqual(
      [],
    );
  });

  it('never lets merchant or customer text become markup', () => {
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<script>x');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('req_<x>');
  });
});

describe('alias form', () => {
  it('shows reference, description and amount, escaped', () => {
    const page = renderAliasForm(hostile, LINK);

    expect(page).toContain('<h1>Payer 10\u202f000\u00a0FCFA</h1>');
    expect(page).toContain('<dd>&lt;/dd&gt;&lt;script&gt;alert(&quot;ref&quot;)&lt;/script&gt;</dd>');
    expect(page).toContain('<dd>&quot;&gt;&lt;img src=x onerror=alert(&#39;desc&#39;)&gt; &amp; co</dd>');
  });

  it('has a labelled phone field with the hint of both alias formats, posting to the attempts route', () => {
    const page = renderAliasForm(payment(), LINK);

    expect(page).toContain(`<form class="alias-form" method="post" action="${PAGE_PATH}/attempts">`);
    expect(page).toContain('<label for="customer_alias">');
    expect(page).toContain(
      '<input id="customer_alias" name="customer_alias" type="tel" autocomplete="tel" required maxlength="40" aria-describedby="customer_alias-hint" value="">',
    );
    expect(page).toContain('+225 07 00 00 00 01');
    expect(page).toContain('identifiant de paiement (lettres, chiffres et tirets)');
    expect(page).toContain('<button type="submit">Envoyer la demande de paiement</button>');
  });

  it('ties the error to the field and says so in the title', () => {
    const page = renderAliasForm(payment(), LINK, {
      problem: 'alias_unknown',
      enteredAlias: '+225 0000000005',
    });

    expect(page).toContain('<title>Erreur : Paiement de 10\u202f000\u00a0FCFA · Sika</title>');
    expect(page).toContain('<p id="customer_alias-error" class="error">Cet alias n’est connu');
    expect(page).toContain(
      'aria-describedby="customer_alias-hint customer_alias-error" aria-invalid="true" value="+225 0000000005"',
    );
  });

  it('links to cancel_url when there is one, and only to http(s) URLs', () => {
    expect(renderAliasForm(payment(), LINK)).toContain(
      '<a href="https://shop.example/cancel">Annuler et retourner à la boutique</a>',
    );
    expect(renderAliasForm(payment({ cancelUrl: null }), LINK)).not.toContain('Annuler');
    expect(renderAliasForm(payment({ cancelUrl: 'javascript:alert(1)' }), LINK)).not.toContain('javascript:');
  });

  it('flags test mode, and only test mode', () => {
    expect(renderAliasForm(payment({ livemode: false }), LINK)).toContain('Mode test');
    expect(renderAliasForm(payment({ livemode: true }), LINK)).not.toContain('Mode test');
  });
});

describe('waiting screen', () => {
  it('loads the live-status script, tells it where to listen, and refreshes itself without JavaScript', () => {
    const page = renderWaiting(payment(), LINK, 'sent');

    expect(page).toContain('<script src="/assets/checkout.js" defer></script>');
    expect(page).toContain('<noscript><meta http-equiv="refresh" content="3"></noscript>');
    expect(page).toContain(
      `<main class="card" data-screen="waiting:sent" data-events="${PAGE_PATH}/events">`,
    );
    expect(page).toContain('role="status"');
    expect(page).toContain('<a href="https://shop.example/cancel">Abandonner et retourner à la boutique</a>');
  });

  it('says whether the request is still being sent', () => {
    expect(renderWaiting(payment(), LINK, 'sending')).toContain(
      'Envoi de la demande de paiement à votre banque',
    );
    expect(renderWaiting(payment(), LINK, 'sent')).toContain('Ouvrez son application pour la valider');
  });
});

describe('outcome pages', () => {
  it('lead back to cancel_url, or to return_url without one', () => {
    expect(renderOutcome(payment(), LINK, 'declined')).toContain(
      '<a href="https://shop.example/cancel">Retourner à la boutique</a>',
    );
    expect(renderOutcome(payment({ cancelUrl: null }), LINK, 'expired')).toContain(
      '<a href="https://shop.example/return">Retourner à la boutique</a>',
    );
  });

  it('have no form and no live script', () => {
    const page = renderOutcome(payment(), LINK, 'attempts_exhausted');

    expect(page).toContain('<h1>Nombre maximal de tentatives atteint</h1>');
    expect(page).not.toContain('<form');
    expect(page).not.toContain('<script');
  });
});

describe('in English', () => {
  it('renders every screen with the English words, and links to the French page', async () => {
    const english = COPIES.en;
    const shown = payment();
    const form = renderAliasForm(shown, LINK, { notice: 'previous_alias_unknown' }, english);
    expect(form).toContain('<html lang="en">');
    expect(form).toContain(english.notices.previous_alias_unknown);
    expect(form).toContain(`href="${PAGE_PATH}?lang=fr"`);
    expect(await htmlProblems(form)).toEqual([]);
    expect(renderWaiting(shown, LINK, 'sent', english)).toContain(english.waiting.sent);
    expect(renderOutcome(shown, LINK, 'failed', english)).toContain(english.outcomes.failed.heading);
    expect(renderPaid(shown, LINK, english)).toContain(english.paid.text);
    expect(renderPaid({ ...shown, status: 'accepted_deferred' }, LINK, english)).toContain(
      english.acceptedDeferred.text,
    );
    expect(form).toContain('<dt>Merchant</dt><dd>Boutique Adjoua</dd>');
  });

  it('has a word for everything the French page says', () => {
    const keys = (value: unknown): string[] =>
      value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, inner]) => [key, ...keys(inner).map((sub) => `${key}.${sub}`)])
        : [];
    expect(keys(COPIES.en).sort()).toEqual(keys(COPIES.fr).sort());
  });
});
