import type { Browser, Page } from 'playwright-core';

import { launchChromium } from '../services/checkout-web/test/support/chromium';
import { api } from './support/api';
import { sikaOps } from './support/cli';
import { capture, DASHBOARD_URL } from './support/dashboard';
import { paymentsOf, submitOnHostedPage } from './support/payments';
import { startWebhookReceiver, verifySignature } from './support/webhook-receiver';
import { waitFor } from '@sika/testing';

jest.setTimeout(180_000);

/**
 * A new merchant in Abidjan walks the dashboard in a real browser, on the real stack: sign-up to a paid test
 * payment in the list, webhooks (URL, secret, test event, roll, resend), key renewal, alias …04's trigger,
 * cancel, filters, sign-out and sign-in, English, a phone. Every page is screenshotted and checked by axe.
 */
describe('the merchant dashboard in a real browser', () => {
  let browser: Browser;
  let page: Page;
  const email = `owner-${Date.now()}@boutique.example`;
  const password = 'wax fabric in Treichville';
  let secretKey = '';

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ locale: 'fr-CI' });
  });

  afterAll(async () => {
    await browser?.close();
  });

  // Every form posts and lands on a new page: wait for that page's own load event, not the current one's.
  // An action on money asks for the password again once the session's is over 5 minutes old (a slow run):
  // then it is given, and the action goes on.
  const submit = async (name: RegExp) => {
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name }).click()]);
    const prompt = page.getByRole('button', { name: /^(Confirmer et continuer|Confirm and continue)$/ });
    if ((await prompt.count()) === 0) return;
    await page.locator('input[name="password"]').fill(password);
    await Promise.all([page.waitForEvent('load'), prompt.click()]);
  };
  // Followed to its load: a submit right after would otherwise take this page's load for its own, and the
  // form's navigation would still be under way when the test goes on (a reload then finds no page).
  const follow = (name: string) =>
    Promise.all([page.waitForEvent('load'), page.getByRole('link', { name }).click()]);

  // The dispatcher records an event a moment after the change it tells of: reload until the page lists it.
  const untilEventListed = (type: string) =>
    waitFor(
      async () => {
        await page.reload();
        const events = page.getByTestId('events');
        return ((await events.count()) > 0 && (await events.innerText()).includes(type)) || undefined;
      },
      { timeoutMs: 20_000, description: `${type} on the page` },
    );

  it('signs up, signs in and creates the test key, shown once', async () => {
    await page.goto(`${DASHBOARD_URL}/signup`);
    await capture(page, '01-sign-up');
    await page.getByLabel('Nom commercial').fill('Boutique Awa');
    await page.getByLabel('Adresse e-mail').fill(email);
    await page.getByLabel('Mot de passe').fill(password);
    await submit(/Créer le compte/);
    // The same page whether the address was new or taken: no session, no key; the rest comes by email.
    await expect(page.locator('h1').innerText()).resolves.toBe('Vérifiez votre boîte mail');
    await capture(page, '02-welcome');
    await follow('Se connecter');
    await page.getByLabel('Adresse e-mail').fill(email);
    await page.getByLabel('Mot de passe').fill(password);
    await submit(/Se connecter/);
    await page.goto(`${DASHBOARD_URL}/test/keys`);
    await page.getByLabel(/la clé actuelle cessera de fonctionner/).check();
    await submit(/Renouveler la clé secrète/);
    secretKey = (await page.locator('#new-secret-key').innerText()).trim();
    expect(secretKey).toMatch(/^sk_test_[A-Za-z0-9]+$/);
    expect((await api(secretKey, 'GET', '/v1/balance')).status).toBe(200);
  });

  it('shows a paid test payment in the list and on its page', async () => {
    const payments = paymentsOf(secretKey);
    const payment = await payments.create({ amount: 2_500, reference: 'order-1' });
    await submitOnHostedPage(payment, '+2250000000001');
    await payments.untilCredited(payment.id);

    await page.goto(`${DASHBOARD_URL}/test`);
    await expect(page.getByTestId('available').innerText()).resolves.toMatch(/2[\s\u202f]?475\sFCFA/);
    await capture(page, '03-overview');
    await page.getByRole('link', { name: 'Paiements' }).first().click();
    await expect(page.locator('tbody').innerText()).resolves.toContain('order-1');
    await capture(page, '04-payments');
    await page
      .getByRole('link', { name: /2\s?500/ })
      .first()
      .click();
    await expect(page.locator('h1').innerText()).resolves.toContain('Réussi');
    await untilEventListed('payment.succeeded');
    await expect(page.getByTestId('events').innerText()).resolves.toContain('payment.request_sent');
    await capture(page, '05-payment');

    await page.goto(`${DASHBOARD_URL}/test/payments?status=canceled`);
    await expect(page.locator('main').innerText()).resolves.toContain('Aucun paiement ne correspond.');
    await page.goto(`${DASHBOARD_URL}/test/payments?created_from=not-a-date`);
    await expect(page.locator('[role=alert]').innerText()).resolves.toContain('created_from');
  });

  it('registers the webhook URL, reveals the secret, sends a test event, rolls the secret and resends', async () => {
    const receiver = await startWebhookReceiver();
    try {
      await page.goto(`${DASHBOARD_URL}/test/webhooks`);
      await page.getByLabel('URL du webhook').fill(receiver.url);
      await submit(/Enregistrer l’URL/);
      await expect(page.locator('[role=status]').innerText()).resolves.toContain('URL enregistrée');
      await submit(/Afficher le secret/);
      const firstSecret = (await page.locator('#webhook-secret').innerText()).trim();
      expect(firstSecret).toMatch(/^whsec_/);
      await capture(page, '06-webhooks');

      await submit(/Envoyer un événement de test/);
      const test = await waitFor(async () => receiver.received.find((r) => r.event.type === 'webhook.test'), {
        timeoutMs: 20_000,
        description: 'the test event',
      });
      expect(verifySignature(test.signatureHeader, test.rawBody, firstSecret)).toBe(true);
      await page.reload();
      await capture(page, '07-event');

      await page.goto(`${DASHBOARD_URL}/test/webhooks`);
      await page.getByLabel(/l’ancien secret ne signera plus/).check();
      await submit(/Générer un nouveau secret/);
      const secondSecret = (await page.locator('#webhook-secret').innerText()).trim();
      expect(secondSecret).not.toBe(firstSecret);

      await follow(test.event.id);
      await submit(/Renvoyer l’événement/);
      const resent = await waitFor(
        async () => receiver.received.filter((r) => r.event.id === test.event.id).at(1),
        { timeoutMs: 20_000, description: 'the resent event' },
      );
      expect(verifySignature(resent.signatureHeader, resent.rawBody, secondSecret)).toBe(true);
      expect(verifySignature(resent.signatureHeader, resent.rawBody, firstSecret)).toBe(false);
      await page.reload();
      await expect(page.locator('tbody').innerText()).resolves.toMatch(/2\s/);
    } finally {
      await receiver.close();
    }
  });

  it('renews the secret key behind a confirmation: the old key is refused at once', async () => {
    await page.goto(`${DASHBOARD_URL}/test/keys`);
    await expect(page.getByTestId('key-last-four').innerText()).resolves.toBe(`…${secretKey.slice(-4)}`);
    await submit(/Renouveler la clé secrète/);
    await expect(page.locator('[role=alert]').innerText()).resolves.toContain('cessera de fonctionner');
    await page.getByLabel(/la clé actuelle cessera de fonctionner/).check();
    await submit(/Renouveler la clé secrète/);
    const renewed = (await page.locator('#new-secret-key').innerText()).trim();
    await capture(page, '08-keys');
    expect((await api(secretKey, 'GET', '/v1/balance')).status).toBe(401);
    expect((await api(renewed, 'GET', '/v1/balance')).status).toBe(200);
    secretKey = renewed;
  });

  it('renews with an overlap: the previous key works until the time chosen, shown on the keys page', async () => {
    await page.goto(`${DASHBOARD_URL}/test/keys`);
    await page.locator('#expire_previous').selectOption('3600');
    await page.getByLabel(/la clé actuelle cessera de fonctionner/).check();
    await submit(/Renouveler la clé secrète/);
    const renewed = (await page.locator('#new-secret-key').innerText()).trim();
    await expect(page.getByTestId('previous-key-last-four').innerText()).resolves.toBe(
      `…${secretKey.slice(-4)}`,
    );
    expect((await api(secretKey, 'GET', '/v1/balance')).status).toBe(200);
    expect((await api(renewed, 'GET', '/v1/balance')).status).toBe(200);
    secretKey = renewed;
  });

  it("pays alias …04's waiting request from the payment's page, and cancels another payment", async () => {
    const payments = paymentsOf(secretKey);
    const deferred = await payments.create({
      amount: 1_000,
      mode: 'on_delivery',
      customer_alias: '+2250000000004',
      expires_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    });
    await payments.until(deferred.id, (p) => p.status === 'accepted_deferred');
    await page.goto(`${DASHBOARD_URL}/test/payments/${deferred.id}`);
    await submit(/Simuler le paiement du client/);
    await expect(page.locator('[role=status]').innerText()).resolves.toContain('Le client a payé');
    await payments.until(deferred.id, (p) => p.status === 'succeeded');

    const open = await payments.create({ amount: 700 });
    await page.goto(`${DASHBOARD_URL}/test/payments/${open.id}`);
    await submit(/Annuler le paiement/);
    await expect(page.locator('h1').innerText()).resolves.toContain('Annulé');
    expect((await payments.read(open.id)).status).toBe('canceled');
  });

  it('shows the balance with its 30-day chart and movements, verifies a payout account and pays out', async () => {
    await page.goto(`${DASHBOARD_URL}/test/balance`);
    await expect(page.getByTestId('collected-30-days').innerText()).resolves.toMatch(
      /^3[\s\u202f]?500\sFCFA encaissés en 2 paiements$/,
    );
    await capture(page, '12-balance');
    await page.getByLabel('Type').selectOption('fee');
    await submit(/Filtrer/);
    expect(new URL(page.url()).searchParams.get('type')).toBe('fee');
    const movements = page.getByTestId('movements').locator('tbody');
    await expect(movements.innerText()).resolves.toContain('Frais');
    await expect(movements.innerText()).resolves.not.toContain('Paiement');

    await page.goto(`${DASHBOARD_URL}/test/payouts`);
    await expect(page.getByTestId('payout-account').innerText()).resolves.toContain('Marchand Test Sika');
    await page.getByText('Changer de compte').click();
    await page.getByLabel('Type de compte').selectOption('merchant_code');
    await page.getByLabel('Alias', { exact: true }).fill('+225 0000000100');
    await submit(/Rechercher le titulaire/);
    await expect(page.locator('[role=alert]').innerText()).resolves.toContain('type de compte choisi');
    await page.getByLabel('Type de compte').selectOption('phone');
    await submit(/Rechercher le titulaire/);
    await expect(page.locator('[role=status]').innerText()).resolves.toContain('Titulaire trouvé');
    await expect(page.getByTestId('payout-account').innerText()).resolves.toMatch(
      /Marchand Test Sika[\s\S]*À confirmer/,
    );
    await capture(page, '13-payout-account');
    await submit(/Oui, confirmer ce titulaire/);
    await expect(page.getByTestId('payout-account').innerText()).resolves.toContain('Vérifié');

    await page.getByLabel(/Manuellement/).check();
    await submit(/Enregistrer la fréquence/);
    await expect(page.locator('[role=status]').innerText()).resolves.toBe('Fréquence enregistrée.');
    await expect(page.getByLabel(/Manuellement/).isChecked()).resolves.toBe(true);

    await page.getByLabel('Un montant').check();
    await page.getByLabel('Montant en FCFA').fill('99 999 999');
    await submit(/^Verser$/);
    await expect(page.locator('[role=alert]').innerText()).resolves.toContain('ne suffit pas');
    await page.getByLabel('Montant en FCFA').fill('1 000');
    await submit(/^Verser$/);
    await expect(page.locator('[role=status]').innerText()).resolves.toContain('Versement créé');
    const payoutId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    expect(payoutId).toMatch(/^po_/);
    await waitFor(
      async () =>
        ((await api(secretKey, 'GET', `/v1/payouts/${payoutId}`)).body as { status: string }).status ===
          'paid' || undefined,
      { timeoutMs: 30_000, description: 'the payout paid' },
    );
    await untilEventListed('payout.paid');
    await expect(page.locator('h1').innerText()).resolves.toMatch(/1[\s\u202f]?000\sFCFA\s+Versé/);
    await capture(page, '14-payout');
    await page.goto(`${DASHBOARD_URL}/test/balance?type=payout`);
    await expect(page.getByTestId('movements').locator('tbody').innerText()).resolves.toContain(payoutId);
  });

  it("shows an operator's adjustment among the movements, as the API does", async () => {
    await page.goto(`${DASHBOARD_URL}/test`);
    const merchantId = (await page.getByTestId('merchant-id').innerText()).trim();
    const availableNow = async () =>
      ((await api(secretKey, 'GET', '/v1/balance')).body as { available: number }).available;
    const before = await availableNow();
    const adjustment = await sikaOps<{ adjustment_id: string }>(
      'ledger:adjust',
      ...['--merchant', merchantId, '--mode', 'test', '--amount', '-75'],
      ...[
        '--reason',
        'Frais facturés deux fois',
        '--idempotency-key',
        `e2e-${merchantId}`,
        '--operator',
        'e2e',
      ],
    );
    expect(adjustment.adjustment_id).toMatch(/^adj_/);

    expect(await availableNow()).toBe(before - 75);
    const listed = await api(secretKey, 'GET', '/v1/balance_transactions?type=adjustment');
    expect(listed.body).toMatchObject({
      data: [
        {
          object: 'balance_transaction',
          type: 'adjustment',
          amount: -75,
          source_id: adjustment.adjustment_id,
        },
      ],
      has_more: false,
    });

    await page.goto(`${DASHBOARD_URL}/test/balance?type=adjustment`);
    const row = await page.getByTestId('movements').locator('tbody tr').innerText();
    expect(row).toContain('Ajustement');
    expect(row).toContain(adjustment.adjustment_id);
    expect(row).toMatch(/-\s?75\sFCFA/);
    await capture(page, '14-adjustment');
  });

  it('keeps live locked, speaks English, fits a phone, and signs out and in again', async () => {
    await page.goto(`${DASHBOARD_URL}/live`);
    await expect(page.locator('h1').innerText()).resolves.toBe('La production est verrouillée');
    await capture(page, '09-live-locked');

    await page.goto(`${DASHBOARD_URL}/test/payments?lang=en`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Payments');
    await page.setViewportSize({ width: 375, height: 740 });
    await capture(page, '10-payments-phone-en');
    // Written as text: the tests are type-checked without the DOM library.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    await submit(/Sign out/);
    expect(new URL(page.url()).pathname).toBe('/signin');
    await page.goto(`${DASHBOARD_URL}/test`);
    expect(new URL(page.url()).pathname).toBe('/signin');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await submit(/Sign in/);
    await expect(page.locator('[role=alert]').innerText()).resolves.toContain(
      'Wrong email address or password',
    );
    await capture(page, '11-sign-in');
    await page.getByLabel('Password').fill(password);
    await submit(/Sign in/);
    expect(new URL(page.url()).pathname).toBe('/test');
  });

  it('goes live: the activation form, an approval, then the live payout account, key and secret', async () => {
    await page.goto(`${DASHBOARD_URL}/test`);
    const merchantId = (await page.getByTestId('merchant-id').innerText()).trim();
    await page.goto(`${DASHBOARD_URL}/live`);
    await page.getByRole('link', { name: 'Activate your account' }).click();
    const fillActivation = async (phone: string) => {
      await page.getByLabel('Legal name').fill('Boutique Awa SARL');
      await page.getByLabel('Trade register number (RCCM)').fill('CI-ABJ-03-2024-B12-01234');
      await page.getByLabel('Contact name').fill('Awa Traoré');
      await page.getByLabel('Contact email').fill('awa@boutique.example');
      await page.getByLabel('Contact phone').fill(phone);
    };
    // Before the approval no live payout account can be registered: its look-up would show a holder's name.
    const early = await page.request.get(`${DASHBOARD_URL}/live/payouts`);
    expect(await early.text()).toContain('Live mode is locked');

    await fillActivation('not a phone');
    await submit(/Request activation/);
    await expect(page.getByLabel('Contact phone').getAttribute('aria-invalid')).resolves.toBe('true');
    await fillActivation('+225 07 00 00 01 00');
    await submit(/Request activation/);
    await expect(page.getByTestId('activation-pending').innerText()).resolves.toContain('reviewing');
    await capture(page, '16-activation');

    await sikaOps('merchant:approve', '--merchant', merchantId);
    await page.reload();
    await expect(page.locator('main').innerText()).resolves.toContain('activated for live use');
    await page.getByRole('link', { name: 'Live payout account' }).click();
    expect(new URL(page.url()).pathname).toBe('/live/payouts');
    await page.getByLabel('Alias', { exact: true }).fill('+225 0000000100');
    await submit(/Look up the holder/);
    await submit(/Yes, confirm this holder/);
    await expect(page.getByTestId('payout-account').innerText()).resolves.toContain('Verified');
    await capture(page, '15-live-payout-account');

    await page.goto(`${DASHBOARD_URL}/live/activate`);
    await page.getByRole('link', { name: 'Live keys' }).click();
    await page.getByRole('checkbox', { name: /current key stops working/ }).check();
    await submit(/Renew the secret key/);
    const liveKey = (await page.locator('#new-secret-key').innerText()).trim();
    expect(liveKey).toMatch(/^sk_live_/);
    const balance = await api(liveKey, 'GET', '/v1/balance');
    expect(balance).toMatchObject({ status: 200, body: { livemode: true } });

    await page.goto(`${DASHBOARD_URL}/live/webhooks`);
    await submit(/Reveal the secret/);
    await expect(page.locator('#webhook-secret').innerText()).resolves.toMatch(/^whsec_/);
    await capture(page, '17-live-webhooks');
  });
});
