import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { spawnProcess, type SpawnedProcess } from '@sika/testing';
import type { Browser } from 'playwright-core';

import { launchChromium } from '../services/checkout-web/test/support/chromium';
import { createMerchant } from './support/cli';
import { REPOSITORY_ROOT } from './support/environment';

/**
 * The sample shop (examples/shop) as a customer uses it, in Chromium, against the running stack: buy, pay on
 * Sika's hosted page, come back to the order page, which says paid once the shop verified payment.succeeded.
 */

jest.setTimeout(120_000);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let browser: Browser;
let shop: SpawnedProcess;
let shopUrl: string;

beforeAll(async () => {
  const port = await freePort();
  shopUrl = `http://127.0.0.1:${port}`;
  const merchant = await createMerchant('E2E Sample Shop', `${shopUrl}/webhooks`);
  [shop, browser] = await Promise.all([
    spawnProcess({
      name: 'shop',
      command: process.execPath,
      args: ['--import', 'tsx', 'server.ts'],
      cwd: path.join(REPOSITORY_ROOT, 'examples/shop'),
      env: {
        PORT: String(port),
        SHOP_URL: shopUrl,
        SIKA_SECRET_KEY: merchant.secret_key,
        SIKA_WEBHOOK_SECRET: merchant.webhook_secret,
      },
      readyWhen: (line) => line.includes('Shop listening'),
    }),
    launchChromium(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await shop?.stop();
});

describe('the sample shop', () => {
  it('sells, has the customer pay on the hosted page, and marks the order paid from the verified webhook', async () => {
    const page = await browser.newPage({ locale: 'en' });
    await page.goto(shopUrl);
    await Promise.all([page.waitForURL(/\/pay\//), page.getByRole('button', { name: 'Buy' }).click()]);
    expect(await page.locator('body').innerText()).toContain('Wax fabric');

    await page.getByLabel(/alias|number|phone/i).fill('+225 0000000001');
    await Promise.all([
      page.waitForURL(new RegExp(`^${shopUrl}/orders/\\d+$`), { timeout: 30_000 }),
      page.locator('form button[type=submit]').click(),
    ]);
    // The order page refreshes itself until the webhook has arrived.
    await page.locator('[data-status="paid"]').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('status').innerText()).toMatch(
      /^Paid\. Thank you! \(confirmed by evt_\w+\)$/,
    );
    expect(shop.output()).toMatch(/webhook payment\.succeeded evt_\w+ verified/);
  });

  it('refuses a webhook whose signature does not verify', async () => {
    const forged = await fetch(`${shopUrl}/webhooks`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Service-Signature': `t=${Math.floor(Date.now() / 1000)},v1=00`,
      },
      body: '{"id":"evt_forged","type":"payment.succeeded","data":{"object":{"metadata":{"order_id":"1001"}}}}',
    });
    expect({ status: forged.status, body: await forged.text() }).toEqual({
      status: 400,
      body: 'no_matching_signature',
    });
  });
});
