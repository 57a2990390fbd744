import { merchantsV1 } from '@sika/contracts';
import { randomSuffix } from '@sika/testing';

import { DashboardServer, type PageAnswer } from './support/dashboard-server';

const { EmailKind } = merchantsV1;

jest.setTimeout(60_000);

/**
 * The emails the dashboard records in merchants' outbox of emails (the real merchants service, no SMTP relay:
 * they stay recorded), and the sign-up that answers the same whether its address is taken or not.
 */
let server: DashboardServer;

beforeAll(async () => {
  server = await DashboardServer.start('emails');
});
afterAll(() => server?.close());

const aBusiness = () => ({
  business_name: 'Boutique Awa',
  email: `owner-${randomSuffix()}@boutique.example`,
  password: 'wax fabric in Treichville',
});

/** The page without what differs on every answer anyway: the CSRF token and the request id. */
const shapeOf = (page: PageAnswer): string =>
  page.html.replace(/value="[A-Za-z0-9_-]{20,}"/g, 'value="…"').replace(/req_[A-Za-z0-9]+/g, 'req_…');

describe('sign-up', () => {
  it('answers a taken address exactly as a new one, and tells the owner by email', async () => {
    const owner = aBusiness();
    const first = await server.browser().submit('/signup', owner);
    const again = await server.browser().submit('/signup', { ...owner, password: 'another password here' });
    const fresh = await server.browser().submit('/signup', aBusiness());

    for (const page of [first, again, fresh]) {
      expect(page.status).toBe(200);
      expect(page.headers.getSetCookie().filter((line) => !line.startsWith('sika_csrf='))).toEqual([]);
    }
    expect(shapeOf(again)).toBe(shapeOf(fresh));
    expect(again.html).not.toMatch(/déjà|already/i);

    const kinds = (await server.emailsTo(owner.email)).map((email) => email.kind);
    expect(kinds).toEqual([EmailKind.EMAIL_KIND_WELCOME, EmailKind.EMAIL_KIND_SIGN_UP_ATTEMPT]);
    // The one who tried cannot sign in with their own password.
    const signIn = await server.browser().submit('/signin', {
      email: owner.email,
      password: 'another password here',
    });
    expect(signIn.status).toBe(401);
  });
});

describe('a sensitive change', () => {
  it("records exactly one email to the account's address, without the secret", async () => {
    const business = aBusiness();
    const browser = server.browser();
    await browser.submit('/signup', business);
    expect((await browser.submit('/signin', business)).status).toBe(303);

    const renewed = await browser.submit('/test/keys/renew', { confirm: 'yes', expire_previous: '0' });
    expect(renewed.status).toBe(200);
    const newKey = /sk_test_[A-Za-z0-9]+/.exec(renewed.html)?.[0];
    expect(newKey).toBeDefined();

    const emails = await server.emailsTo(business.email);
    const renewals = emails.filter((email) => email.kind === EmailKind.EMAIL_KIND_SECRET_KEY_RENEWED);
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ livemode: false, subject: 'Your test secret key was renewed' });
    expect(renewals[0]?.body).not.toContain(newKey);
    expect(renewals[0]?.body).not.toMatch(/sk_test_/);
  });

  it('keeps the email when the change may have happened (its service did not answer)', async () => {
    const business = aBusiness();
    const browser = server.browser();
    await browser.submit('/signup', business);
    await browser.submit('/signin', business);

    // payouts does not run here: the call fails without an answer, so the change may have committed.
    const account = { alias_type: 'phone', alias: '+225 0700000001' };
    expect((await browser.submit('/test/payouts/account', account)).status).toBe(503);
    const set = (await server.emailsTo(business.email)).filter(
      (email) => email.kind === EmailKind.EMAIL_KIND_PAYOUT_ACCOUNT_SET,
    );
    expect(set.map((email) => email.status)).toEqual([merchantsV1.EmailStatus.EMAIL_STATUS_PENDING]);
  });
});
