import type { Browser, BrowserContext, Page } from 'playwright-core';

import { launchChromium } from './support/chromium';
import { startCheckout } from './support/checkout-server';
import type { RunningCheckout } from './support/checkout-server';
import { postAlias } from './support/http';
import { ALIASES, pagePathOf, PaymentsStandIn } from './support/payments-stand-in';
import { startShop } from './support/shop';
import type { Shop } from './support/shop';

let standIn: PaymentsStandIn;
let standInAddress: string;
let checkout: RunningCheckout;
let shop: Shop;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  standIn = new PaymentsStandIn();
  [checkout, shop, browser] = await Promise.all([
    standIn.start().then((address) => {
      standInAddress = address;
      return startCheckout(address, { pollIntervalMs: 200 });
    }),
    startShop(),
    launchChromium(),
  ]);
  standIn.checkoutBaseUrl = checkout.baseUrl;
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await checkout?.close();
  await shop?.close();
  await standIn?.stop();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

async function openPage(
  options: {
    javaScriptEnabled?: boolean;
    viewport?: { width: number; height: number };
    locale?: string;
  } = {},
): Promise<Page> {
  // A customer in Abidjan or Dakar: the browser asks for French unless a test says otherwise.
  context = await browser.newContext({ locale: 'fr-FR', ...options });
  const page = await context.newPage();
  // A page step is quick alone; with the end-to-end stack and other workers beside, Chromium may take seconds.
  page.setDefaultTimeout(30_000);
  return page;
}

interface PageLayout {
  scrollWidth: number;
  clientWidth: number;
  inputFontSize: string | null;
  buttonWidth: number | null;
}

/** Runs in the page; written as text because the tests are type-checked without the DOM library. */
function measure(page: Page): Promise<PageLayout> {
  return page.evaluate<PageLayout>(`(() => {
    const input = document.querySelector('input');
    const button = document.querySelector('button');
    return {
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      inputFontSize: input && getComputedStyle(input).fontSize,
      buttonWidth: button && button.getBoundingClientRect().width,
    };
  })()`);
}

function newPayment() {
  return standIn.add({ returnUrl: shop.returnUrl, cancelUrl: shop.cancelUrl, reference: 'CMD-1042' });
}

/** Violations of the Content-Security-Policy reported by the page: there must be none. */
function collectCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  return violations;
}

it('pays with JavaScript: alias, waiting screen followed live, then return_url', async () => {
  standIn.bankDelayMs = 1_000;
  const payment = newPayment();
  const page = await openPage();
  const violations = collectCspViolations(page);
  const streams: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/events')) streams.push(request.url());
  });

  await page.goto(payment.checkoutUrl);
  expect(await page.locator('h1').textContent()).toBe('Payer 10\u202f000\u00a0FCFA');
  await page.getByLabel('Votre numéro de téléphone ou votre identifiant PI-SPI').fill(ALIASES.pays);
  await page.getByRole('button', { name: 'Envoyer la demande de paiement' }).click();

  await page.getByRole('heading', { name: 'Validez le paiement dans votre application' }).waitFor();
  expect(page.url()).toBe(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
  await page.waitForURL(shop.returnUrl);

  expect(await page.locator('h1').textContent()).toBe('Merci pour votre commande');
  expect(shop.visits).toContain('/return?order=1042');
  // Followed over the event stream, well before the no-JavaScript refresh would have fired.
  expect(streams).toEqual([`${checkout.baseUrl}${pagePathOf(payment.id)}/events`]);
  expect(violations).toEqual([]);
});

it('pays without JavaScript: a plain form post, then the refreshing waiting screen, then return_url', async () => {
  standIn.bankDelayMs = 1_000;
  const payment = newPayment();
  const page = await openPage({ javaScriptEnabled: false });

  await page.goto(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
  await page.getByLabel('Votre numéro de téléphone ou votre identifiant PI-SPI').fill(ALIASES.pays);
  await page.getByRole('button', { name: 'Envoyer la demande de paiement' }).click();

  await page.getByRole('heading', { name: 'Validez le paiement dans votre application' }).waitFor();
  await page.waitForURL(shop.returnUrl);
  expect(await page.locator('h1').textContent()).toBe('Merci pour votre commande');
});

it('lands on return_url straight from the form post when the bank pays at once (form-action allows it)', async () => {
  standIn.bankDelayMs = 0;
  const payment = newPayment();
  const page = await openPage({ javaScriptEnabled: false });

  await page.goto(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
  await page.getByLabel('Votre numéro de téléphone ou votre identifiant PI-SPI').fill(ALIASES.pays);
  await page.getByRole('button', { name: 'Envoyer la demande de paiement' }).click();

  await page.waitForURL(shop.returnUrl);
});

it('shows an unknown alias next to the field, without JavaScript', async () => {
  const payment = newPayment();
  const page = await openPage({ javaScriptEnabled: false });

  await page.goto(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
  await page.getByLabel('Votre numéro de téléphone ou votre identifiant PI-SPI').fill(ALIASES.unknown);
  await page.getByRole('button', { name: 'Envoyer la demande de paiement' }).click();

  await page.getByText('Cet alias n’est connu d’aucune banque').waitFor();
  const field = page.getByLabel('Votre numéro de téléphone ou votre identifiant PI-SPI');
  expect(await field.inputValue()).toBe(ALIASES.unknown);
  expect(await field.getAttribute('aria-invalid')).toBe('true');
});

it('speaks English to a browser that prefers it, and switches to French and back, remembering the choice', async () => {
  const payment = newPayment();
  const page = await openPage({ locale: 'en-GB' });

  await page.goto(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
  expect(await page.getAttribute('html', 'lang')).toBe('en');
  await page.getByLabel('Your phone number or PI-SPI identifier').waitFor();
  expect(await page.getByRole('button', { name: 'Send the payment request' }).count()).toBe(1);

  await page.getByRole('link', { name: 'Français' }).click();
  await page.getByLabel('Votre numéro de téléphone ou votre identifiant PI-SPI').waitFor();
  expect(await page.getAttribute('html', 'lang')).toBe('fr');
  await page.goto(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
  expect(await page.getAttribute('html', 'lang')).toBe('fr');

  await page.getByRole('link', { name: 'English' }).click();
  await page.getByLabel('Your phone number or PI-SPI identifier').fill(ALIASES.unknown);
  await page.getByRole('button', { name: 'Send the payment request' }).click();
  await page.getByText('No PI-SPI bank or wallet knows this alias').waitFor();
});

it('fits a phone screen (375×667) without horizontal overflow, with 16 px inputs', async () => {
  const payment = standIn.add({
    returnUrl: shop.returnUrl,
    cancelUrl: shop.cancelUrl,
    reference: 'REFERENCE-WITHOUT-ANY-SPACE-'.repeat(3),
    description:
      'Une description assez longue pour passer sur plusieurs lignes sur un petit écran de téléphone.',
    amount: 123_456_789n,
  });
  const page = await openPage({ viewport: { width: 375, height: 667 } });

  await page.goto(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
  const form = await measure(page);
  await page.getByLabel('Votre numéro de téléphone ou votre identifiant PI-SPI').fill(ALIASES.ignores);
  await page.getByRole('button', { name: 'Envoyer la demande de paiement' }).click();
  await page.getByRole('heading', { name: 'Validez le paiement dans votre application' }).waitFor();
  const waiting = await measure(page);

  for (const layout of [form, waiting]) {
    expect(layout.clientWidth).toBe(375);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.clientWidth);
  }
  expect(parseFloat(form.inputFontSize ?? '0')).toBeGreaterThanOrEqual(16);
  expect(form.buttonWidth).toBeGreaterThan(250);
});

it('takes the customer who abandons to cancel_url', async () => {
  const payment = newPayment();
  const page = await openPage();

  await page.goto(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
  await page.getByRole('link', { name: 'Annuler et retourner à la boutique' }).click();

  await page.waitForURL(shop.cancelUrl);
  expect(await page.locator('h1').textContent()).toBe('Commande abandonnée');
});

it('abandons from the waiting screen too', async () => {
  standIn.bankDelayMs = 60_000;
  const payment = newPayment();
  const page = await openPage();

  await page.goto(`${checkout.baseUrl}${pagePathOf(payment.id)}`);
  await page.getByLabel('Votre numéro de téléphone ou votre identifiant PI-SPI').fill(ALIASES.ignores);
  await page.getByRole('button', { name: 'Envoyer la demande de paiement' }).click();
  await page.getByRole('link', { name: 'Abandonner et retourner à la boutique' }).click();

  await page.waitForURL(shop.cancelUrl);
});

it('falls back to reloading the waiting screen when its event stream is refused (503), and still reaches return_url', async () => {
  // One stream per address: the test's own stream (from 127.0.0.1, as the browser) takes it.
  const crowded = await startCheckout(standInAddress, { pollIntervalMs: 200, maxStreamsPerAddress: 1 });
  const held = new AbortController();
  try {
    const ignored = standIn.add();
    await postAlias(`${crowded.baseUrl}${pagePathOf(ignored.id)}`, ALIASES.ignores);
    const holding = await fetch(`${crowded.baseUrl}${pagePathOf(ignored.id)}/events`, {
      signal: held.signal,
    });
    expect(holding.status).toBe(200);
    standIn.bankDelayMs = 1_000;
    const payment = newPayment();
    const page = await openPage();
    const streamStatuses: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/events')) streamStatuses.push(response.status());
    });

    await page.goto(`${crowded.baseUrl}${pagePathOf(payment.id)}`);
    await page.getByLabel('Votre numéro de téléphone ou votre identifiant PI-SPI').fill(ALIASES.pays);
    await page.getByRole('button', { name: 'Envoyer la demande de paiement' }).click();
    await page.waitForURL(shop.returnUrl);

    expect(streamStatuses.length).toBeGreaterThan(0);
    expect(new Set(streamStatuses)).toEqual(new Set([503]));
  } finally {
    held.abort();
    await crowded.close();
  }
});
