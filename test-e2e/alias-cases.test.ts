import { paymentsV1 } from '@sika/contracts';
import { randomUUID } from 'node:crypto';
import { createGrpcClient, valueOrError, type GrpcClient } from '@sika/platform';
import { ALIAS_CASES, type AliasCase } from '@sika/testing';
import { api } from './support/api';
import { createMerchant, type CreatedMerchant } from './support/cli';
import { CHECKOUT_URL } from './support/environment';
import { stackGrpcTls } from './support/grpc-identity';

/**
 * One table of customer aliases (packages/testing/src/alias-cases.ts) through the three entry points that take
 * one, on the running stack: the public API, payments' gRPC (what the gateway and the hosted page call) and
 * the hosted page's form. Each case gets the same verdict everywhere: accepted with the same masked alias,
 * or refused naming `customer_alias`.
 */

jest.setTimeout(120_000);

const PAYMENTS_GRPC_ADDRESS = '127.0.0.1:8052';

interface PaymentBody {
  id: string;
  checkout_url: string;
  payer_alias_masked: string | null;
  error?: { code: string; param?: string };
}

type Verdict = { accepted: true; masked: string | null } | { accepted: false; param: string | undefined };

const expected = (aliasCase: AliasCase): Verdict =>
  aliasCase.accepted
    ? { accepted: true, masked: aliasCase.masked }
    : { accepted: false, param: 'customer_alias' };

const PAYMENT = { amount: 1_500, return_url: 'https://shop.example/thanks' } as const;
/** The API's verdict on a well-formed alias the scheme does not know: accepted, but nothing created. */
const NOT_CREATED = 'no payment: alias unknown to the scheme';

let merchant: CreatedMerchant;
let payments: GrpcClient<paymentsV1.PaymentsServiceClient>;

beforeAll(async () => {
  merchant = await createMerchant('E2E Aliases');
  // Payments created as the gateway creates them (CreatePayments is the gateway's alone).
  payments = createGrpcClient(paymentsV1.PaymentsServiceClient, PAYMENTS_GRPC_ADDRESS, {
    deadlineMs: 10_000,
    tls: stackGrpcTls('gateway'),
  });
});

afterAll(() => payments.close());

async function throughTheApi(alias: string): Promise<Verdict> {
  const response = await api<PaymentBody>(merchant.secret_key, 'POST', '/v1/payments', {
    body: { ...PAYMENT, customer_alias: alias },
  });
  if (response.status === 200) return { accepted: true, masked: response.body.payer_alias_masked };
  // 422 alias_unknown: well formed, but the scheme knows no such payer (every alias outside the simulator's
  // table), so no payment was left to show the masked alias; payments' gRPC and the hosted page show it.
  if (response.status === 422) {
    expect(response.body.error).toMatchObject({ code: 'alias_unknown', param: 'customer_alias' });
    return { accepted: true, masked: NOT_CREATED };
  }
  expect(response.status).toBe(400);
  return { accepted: false, param: response.body.error?.param };
}

async function throughPaymentsGrpc(alias: string): Promise<Verdict> {
  try {
    const request: paymentsV1.CreatePaymentRequest = {
      scope: { merchantId: merchant.merchant_id, livemode: false },
      requestFingerprint: randomUUID(),
      amount: BigInt(PAYMENT.amount),
      currency: 'XOF',
      mode: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
      customerAlias: alias,
      returnUrl: PAYMENT.return_url,
      metadata: {},
    };
    const { outcomes } = await payments.createPayments({ creations: [{ requestId: '', request }] });
    const payment = valueOrError(outcomes[0]?.payment, outcomes[0]?.error);
    if (payment instanceof Error) throw payment;
    return { accepted: true, masked: payment.payerAliasMasked ?? null };
  } catch (error) {
    if ((error as { code?: string }).code === 'alias_unknown') return { accepted: true, masked: NOT_CREATED };
    expect(error).toMatchObject({ code: expect.stringMatching(/^parameter_(invalid|missing)$/) });
    return { accepted: false, param: (error as { param?: string }).param };
  }
}

async function throughTheHostedPage(alias: string): Promise<Verdict> {
  const created = await api<PaymentBody>(merchant.secret_key, 'POST', '/v1/payments', { body: PAYMENT });
  expect(created.status).toBe(200);
  const response = await fetch(`${created.body.checkout_url}/attempts`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: CHECKOUT_URL },
    body: new URLSearchParams({ customer_alias: alias }).toString(),
  });
  // 303: the attempt left for the bank; 422: it left and the bank does not know the alias (`…05` and every
  // alias outside the simulator's table). Either way the page took the alias as well formed.
  if (response.status === 303 || response.status === 422) {
    const payment = await api<PaymentBody>(merchant.secret_key, 'GET', `/v1/payments/${created.body.id}`);
    return { accepted: true, masked: payment.body.payer_alias_masked };
  }
  expect(response.status).toBe(400);
  // The form comes back with the alias field marked invalid: the page's way of naming the parameter.
  const page = await response.text();
  const fieldMarkedInvalid = /name="customer_alias"[^>]*aria-invalid="true"/.test(page);
  return { accepted: false, param: fieldMarkedInvalid ? 'customer_alias' : undefined };
}

describe.each(ALIAS_CASES.map((aliasCase) => [aliasCase.why, aliasCase] as const))(
  'the alias case "%s"',
  (_why, aliasCase) => {
    it('gets the same verdict from the API, payments gRPC and the hosted page', async () => {
      const verdicts = {
        api: await throughTheApi(aliasCase.input),
        grpc: await throughPaymentsGrpc(aliasCase.input),
        page: await throughTheHostedPage(aliasCase.input),
      };
      const verdict = expected(aliasCase);
      // A well-formed alias the scheme does not know may leave no payment (API, gRPC): accepted all the same.
      const allowingNoPayment = (seen: Verdict): Verdict =>
        verdict.accepted && seen.accepted && seen.masked === NOT_CREATED ? seen : verdict;
      expect(verdicts).toEqual({
        api: allowingNoPayment(verdicts.api),
        grpc: allowingNoPayment(verdicts.grpc),
        page: verdict,
      });
    });
  },
);
