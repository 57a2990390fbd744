import fc from 'fast-check';
import { formFields, fuzzSettings } from '@sika/testing';

import { startCheckout, type RunningCheckout } from './support/checkout-server';
import { ALIASES, pagePathOf, PaymentsStandIn } from './support/payments-stand-in';

/**
 * Property-based fuzzing of the hosted page's alias form (issue 37): generated fields (control characters,
 * NUL, huge, empty, absent, unknown) posted to a fresh payment's page. The properties: never a 5xx while
 * payments answers; a refusal is a 4xx page with the form's own error; an accepted alias is the redirect to
 * the waiting page. Bounded by FUZZ_RUNS; FUZZ_SEED replays a run.
 */
jest.setTimeout(60_000);

const { seed, numRuns } = fuzzSettings('checkout form fuzzer', 40);
let standIn: PaymentsStandIn;
let checkout: RunningCheckout;

beforeAll(async () => {
  standIn = new PaymentsStandIn();
  const paymentsAddress = await standIn.start();
  // This server's own limit, raised: every generated submission comes from one address.
  checkout = await startCheckout(paymentsAddress, { submissionLimit: 1_000_000 });
});
afterAll(async () => {
  await checkout?.close();
  await standIn?.stop();
});

beforeEach(() => {
  standIn.bankDelayMs = 0;
});

it('answers every generated alias form with its own refusal or the waiting page, never a 5xx', async () => {
  await fc.assert(
    fc.asyncProperty(
      formFields({ customer_alias: [ALIASES.pays, ALIASES.refuses, ALIASES.unknown, '0700000001'] }),
      async (fields) => {
        const pageUrl = `${checkout.baseUrl}${pagePathOf(standIn.add().id)}`;
        const response = await fetch(`${pageUrl}/attempts`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: checkout.baseUrl },
          body: new URLSearchParams(fields).toString(),
        });
        const html = await response.text();
        if (response.status >= 500) throw new Error(`${response.status}`);
        if (response.status === 303) return;
        if (!/^text\/html/.test(response.headers.get('content-type') ?? '')) {
          throw new Error(`${response.status} not a page`);
        }
        // The form's own error: the field marked invalid and described by its error line.
        if (response.status === 400 && !html.includes('id="customer_alias-error"')) {
          throw new Error("400 without the form's error");
        }
      },
    ),
    { seed, numRuns },
  );
});
