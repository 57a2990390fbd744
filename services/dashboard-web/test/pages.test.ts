import { randomBytes } from 'node:crypto';

import { ManualClock } from '@sika/platform';
import { randomSuffix } from '@sika/testing';

import { DashboardServer, type DashboardBrowser } from './support/dashboard-server';

jest.setTimeout(60_000);

/** French, the dashboard's default language: the one message for a field with a control character. */
const CONTROL_CHARACTER_REFUSAL = 'Ce champ contient un caractère de contrôle';

let server: DashboardServer;
/** Real time until a test moves it: sessions and limits read it. */
const clock = new ManualClock(new Date());

beforeAll(async () => {
  server = await DashboardServer.start('pages', { SIGN_UP_ADDRESS_LIMIT: '2' }, { clock });
});
afterAll(() => server?.close());

const SIGN_UP = {
  business_name: 'Boutique Awa',
  email: 'awa@boutique.example',
  password: 'wax fabric in Treichville',
};

describe('form fields with control characters', () => {
  it.each([
    ['email', 'awa\u0000@boutique.example'],
    ['email', 'awa@boutique.example\u001b'],
    ['business_name', 'Boutique\u0000Awa'],
    ['password', 'wax fabric\u0000in Treichville'],
  ])('refuses sign-up with %s %j: 400 on the form, naming the field', async (field, value) => {
    const page = await server.browser().submit('/signup', { ...SIGN_UP, [field]: value });
    expect(page.status).toBe(400);
    expect(page.html).toContain(CONTROL_CHARACTER_REFUSAL);
    expect(page.html).toContain(`id="${field}-problem"`);
  });

  it.each([
    ['email', 'owner\u0000@boutique.example'],
    ['password', 'secret\u0007password'],
  ])('refuses sign-in with %s %j: 400 on the form', async (field, value) => {
    const fields = { email: 'owner@boutique.example', password: 'any password at all', [field]: value };
    const page = await server.browser().submit('/signin', fields);
    expect(page.status).toBe(400);
    expect(page.html).toContain(CONTROL_CHARACTER_REFUSAL);
  });
});

const aNewBusiness = () => ({ ...SIGN_UP, email: `owner-${randomSuffix()}@boutique.example` });

/** Sign-up opens no session (its answer is the same for a taken address): the new owner then signs in. */
async function signUpAndIn(browser: DashboardBrowser, business: typeof SIGN_UP): Promise<void> {
  expect((await browser.submit('/signup', business)).status).toBe(200);
  const { email, password } = business;
  expect((await browser.submit('/signin', { email, password })).status).toBe(303);
}

describe('sign-up limits', () => {
  it('refuses a third sign-up from one IPv6 /64 with 429 and Retry-After, not from another /64', async () => {
    const group = randomBytes(2).toString('hex');
    for (const address of [`2001:db8:${group}:1::1`, `2001:db8:${group}:1::2`]) {
      expect((await server.browser(address).submit('/signup', aNewBusiness())).status).toBe(200);
    }
    const refused = await server.browser(`2001:db8:${group}:1:ffff::3`).submit('/signup', aNewBusiness());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.html).toContain('Trop de tentatives');

    const elsewhere = await server.browser(`2001:db8:${group}:2::1`).submit('/signup', aNewBusiness());
    expect(elsewhere.status).toBe(200);
  });
});

describe('live mode before the approval', () => {
  it("refuses a live payout account's look-up and a live payout: 403 locked, payouts never asked", async () => {
    const browser = server.browser();
    await signUpAndIn(browser, aNewBusiness());
    // payouts is not running in this test: a request that reached it would be a 503.
    for (const [action, fields] of [
      ['/live/payouts/account', { alias_type: 'phone', alias: '+225 0700000001' }],
      ['/live/payouts/account/confirm', { holder_name: 'Awa Traoré' }],
      ['/live/payouts', { choice: 'all', amount: '', idempotency_key: 'dpf_x' }],
    ] as const) {
      const page = await browser.submit(action, fields);
      expect({ action, status: page.status }).toEqual({ action, status: 403 });
      expect(page.html).toContain('La production est verrouillée');
    }
  });
});

describe('recent authentication before actions that could redirect money', () => {
  const SIX_MINUTES = 6 * 60_000;
  const PASSWORD_PROMPT = 'Confirmez votre mot de passe';

  it('asks a session older than 5 minutes for its password again; the right one lets the action through', async () => {
    const browser = server.browser();
    const business = aNewBusiness();
    await signUpAndIn(browser, business);
    // Within 5 minutes of the sign-in, no prompt.
    const fresh = await browser.submit('/test/keys/renew', { confirm: 'yes', expire_previous: '0' });
    expect(fresh.status).toBe(200);
    expect(fresh.html).toContain('id="new-secret-key"');

    clock.advance(SIX_MINUTES);
    // webhooks is not running in this test: a roll that reached it would be a 503, not the prompt.
    const prompted = await browser.submit('/test/webhooks/secret/roll', { confirm: 'yes' });
    expect(prompted.status).toBe(401);
    expect(prompted.html).toContain(PASSWORD_PROMPT);
    expect(prompted.html).toContain('name="confirm" value="yes"');
    expect((await browser.submit('/test/webhooks/secret', {})).html).toContain(PASSWORD_PROMPT);
    const account = { alias_type: 'phone', alias: '+225 0700000001' };
    expect((await browser.submit('/test/payouts/account', account)).html).toContain(PASSWORD_PROMPT);

    const wrong = await browser.submit('/test/webhooks/secret/roll', {
      confirm: 'yes',
      password: 'not the password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('Mot de passe incorrect');
    expect(wrong.html).toContain('id="password-problem"');

    const renewed = await browser.submit('/test/keys/renew', {
      confirm: 'yes',
      expire_previous: '0',
      password: business.password,
    });
    expect(renewed.status).toBe(200);
    expect(renewed.html).toContain('id="new-secret-key"');
    // Confirmed for the next 5 minutes: the roll now reaches webhooks (absent here, hence 503).
    const rolled = await browser.submit('/test/webhooks/secret/roll', { confirm: 'yes' });
    expect(rolled.status).toBe(503);
    expect(rolled.html).not.toContain(PASSWORD_PROMPT);
  });

  it('counts wrong passwords at the prompt toward the sign-in limit of the account', async () => {
    const browser = server.browser();
    const business = aNewBusiness();
    await signUpAndIn(browser, business);
    clock.advance(SIX_MINUTES);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const page = await browser.submit('/test/webhooks/secret', { password: `guess ${attempt}` });
      statuses.push(page.status);
      if (page.status === 429) {
        expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
        break;
      }
    }
    expect(statuses.at(-1)).toBe(429);
  });
});
