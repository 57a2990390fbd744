import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../services/checkout-web/test/support/chromium';
import { api } from './support/api';
import { createMerchant } from './support/cli';

jest.setTimeout(90_000);

describe('the hosted payment page in a real browser', () => {
  let browser: Browser;
  const shop = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Shop</title><h1>Thank you</h1>');
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => shop.close(() => resolve()));
  });

  it('takes the alias, waits for the bank, and lands on return_url', async () => {
    const { port } = shop.address() as AddressInfo;
    const returnUrl = `http://127.0.0.1:${port}/thanks`;
    const merchant = await createMerchant('E2E Checkout');
    const created = await api<{ id: string; checkout_url: string }>(
      merchant.secret_key,
      'POST',
      '/v1/payments',
      {
        body: { amount: 5_000, reference: 'cart-77', description: 'Wax fabric', return_url: returnUrl },
      },
    );
    expect(created.status).toBe(200);

    // A customer in Abidjan: the browser asks for French, the page's first language.
    const page = await browser.newPage({ locale: 'fr-CI' });
    await page.goto(created.body.checkout_url);
    const shown = await page.locator('body').innerText();
    expect(shown).toContain('cart-77');
    expect(shown).toContain('Wax fabric');
    expect(shown).toMatch(/5[\s\u202f\u00a0]?000/);
    await page.getByLabel(/alias|numéro|téléphone/i).fill('+225 0000000001');
    await Promise.all([
      page.waitForURL(returnUrl, { timeout: 30_000 }),
      page.locator('form button[type=submit]').click(),
    ]);
    expect(page.url()).toBe(returnUrl);

    const paid = await api<{ status: string }>(merchant.secret_key, 'GET', `/v1/payments/${created.body.id}`);
    expect(paid.body.status).toBe('succeeded');
  });
});
