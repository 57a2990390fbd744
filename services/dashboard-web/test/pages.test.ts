import { randomBytes } from 'node:crypto';

import { randomSuffix } from '@sika/testing';

import { DashboardServer } from './support/dashboard-server';

jest.setTimeout(60_000);

/** French, the dashboard's default language: the one message for a field with a control character. */
const CONTROL_CHARACTER_REFUSAL = 'Ce champ contient un caractère de contrôle';

let server: DashboardServer;

beforeAll(async () => {
  server = await DashboardServer.start('pages', { SIGN_UP_ADDRESS_LIMIT: '2' });
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

describe('sign-up limits', () => {
  it('refuses a third sign-up from one IPv6 /64 with 429 and Retry-After, not from another /64', async () => {
    const group = randomBytes(2).toString('hex');
    for (const address of [`2001:db8:${group}:1::1`, `2001:db8:${group}:1::2`]) {
      expect((await server.browser(address).submit('/signup', aNewBusiness())).status).toBe(201);
    }
    const refused = await server.browser(`2001:db8:${group}:1:ffff::3`).submit('/signup', aNewBusiness());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.html).toContain('Trop de tentatives');

    const elsewhere = await server.browser(`2001:db8:${group}:2::1`).submit('/signup', aNewBusiness());
    expect(elsewhere.status).toBe(201);
  });
});

describe('live mode before the approval', () => {
  it("refuses a live payout account's look-up and a live payout: 403 locked, payouts never asked", async () => {
    const browser = server.browser();
    const signedUp = await browser.submit('/signup', aNewBusiness());
    expect(signedUp.status).toBe(201);
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
