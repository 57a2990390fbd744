import fc from 'fast-check';
import { formFields, fuzzSettings, randomSuffix } from '@sika/testing';

import { DashboardServer, type DashboardBrowser, type PageAnswer } from './support/dashboard-server';

/**
 * Property-based fuzzing of the dashboard's forms (issue 37): generated fields (control characters, NUL,
 * huge, empty, absent, unknown) posted to every form of the account and of a signed-in merchant. The
 * properties: never a 500; a refusal is a 4xx page with the form's own error; 503 (with Retry-After) only
 * where the form reaches a service this test does not run (payments, payouts, webhooks, ledger). Bounded
 * by FUZZ_RUNS per form; FUZZ_SEED replays a run.
 */
jest.setTimeout(120_000);

const { seed, numRuns } = fuzzSettings('dashboard form fuzzer', 15);
let server: DashboardServer;
let signedIn: DashboardBrowser;

const PASSWORD = 'wax fabric in Treichville';

beforeAll(async () => {
  // Limits raised for this server only: the fuzzer's hundreds of posts come from one address.
  server = await DashboardServer.start('fuzz', {
    SIGN_UP_ADDRESS_LIMIT: '100000',
    SIGN_UP_GLOBAL_LIMIT: '100000',
    SIGN_IN_ADDRESS_LIMIT: '100000',
    SIGN_IN_ACCOUNT_LIMIT: '100000',
  });
  signedIn = server.browser();
  const email = `fuzz-${randomSuffix()}@boutique.example`;
  await signedIn.submit('/signup', { business_name: 'Boutique Fuzz', email, password: PASSWORD });
  expect((await signedIn.submit('/signin', { email, password: PASSWORD })).status).toBe(303);
});
afterAll(() => server?.close());

/** Each form: where it posts, its fields with the values it expects, and whether it needs a session. */
const FORMS: { action: string; fields: Record<string, readonly string[]>; signed: boolean }[] = [
  { action: '/signin', fields: { email: ['a@b.example'], password: [PASSWORD] }, signed: false },
  {
    action: '/signup',
    fields: { business_name: ['Boutique'], email: ['x@y.example'], password: [PASSWORD] },
    signed: false,
  },
  { action: '/reset/not-a-token', fields: { password: [PASSWORD] }, signed: false },
  {
    action: '/test/activate',
    fields: {
      legal_name: ['Boutique SARL'],
      registration_number: ['CI-ABJ-03-2024-B12-01234'],
      contact_name: ['Awa'],
      contact_email: ['awa@b.example'],
      contact_phone: ['+225 07 00 00 01 00'],
    },
    signed: true,
  },
  { action: '/test/keys/renew', fields: { confirm: ['yes'], expire_previous: ['0', '3600'] }, signed: true },
  { action: '/test/webhooks/url', fields: { url: ['https://shop.example/hooks'] }, signed: true },
  { action: '/test/webhooks/secret/roll', fields: { confirm: ['yes'] }, signed: true },
  {
    action: '/test/payouts/account',
    fields: { alias_type: ['phone', 'merchant_code', 'account_key'], alias: ['+225 0700000001'] },
    signed: true,
  },
  { action: '/test/payouts/account/confirm', fields: { holder_name: ['Awa Traoré'] }, signed: true },
  { action: '/test/payouts/schedule', fields: { schedule: ['daily', 'manual'] }, signed: true },
  {
    action: '/test/payouts',
    fields: { choice: ['all', 'amount'], amount: ['1000'], idempotency_key: ['dpf_x'] },
    signed: true,
  },
  { action: '/test/payments/pay_x/cancel', fields: {}, signed: true },
];

/** Why an answer breaks the properties, or undefined. */
function problemOf(page: PageAnswer): string | undefined {
  if (page.status === 503) {
    return page.headers.get('retry-after') === null ? '503 without Retry-After' : undefined;
  }
  if (page.status >= 500) return `${page.status}`;
  if (page.status === 400 && !page.html.includes('role="alert"')) return "400 without the form's error";
  if (page.status >= 300 && page.status < 400) return undefined;
  if (!/^text\/html/.test(page.headers.get('content-type') ?? '')) return `${page.status} not a page`;
  return undefined;
}

describe('the dashboard forms under generated input', () => {
  it.each(FORMS.map((form) => [form.action, form] as const))('%s', async (_action, form) => {
    await fc.assert(
      fc.asyncProperty(formFields(form.fields), async (fields) => {
        const browser = form.signed ? signedIn : server.browser();
        const page = await browser.submit(form.action, fields);
        const problem = problemOf(page);
        if (problem !== undefined) throw new Error(`${form.action}: ${problem}`);
      }),
      { seed, numRuns },
    );
  });
});
