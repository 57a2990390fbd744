import { randomBytes, randomUUID } from 'node:crypto';
import { spansOfTrace, waitFor, type ReceivedSpan } from '@sika/testing';
import { api } from './support/api';
import { createMerchant } from './support/cli';
import { OTLP_ENDPOINT_VARIABLE } from './support/environment';
import { startWebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(60_000);

const SPAN_KIND = { server: 2, client: 3, producer: 4, consumer: 5 } as const;

/** The consumer spans that must be in a paid payment's trace: the broker crossed at each step. */
const CONSUMED = [
  { service: 'payments', queue: 'payments.psp-updates' },
  { service: 'ledger', queue: 'ledger.payment-credits' },
  { service: 'webhook-dispatcher', queue: 'webhook-dispatcher.payment-events' },
];

describe('one trace per payment', () => {
  const receiver = startWebhookReceiver();
  afterAll(async () => (await receiver).close());

  it('follows a paid payment from the API through the scheme, the broker, the ledger and the webhook', async () => {
    const endpoint = process.env[OTLP_ENDPOINT_VARIABLE];
    if (endpoint === undefined) throw new Error(`${OTLP_ENDPOINT_VARIABLE} is not set: no global setup?`);
    const hooks = await receiver;
    const merchant = await createMerchant('E2E Traced Shop', hooks.url);

    // The merchant's server starts the trace: the gateway continues a W3C traceparent it is sent.
    const traceId = randomBytes(16).toString('hex');
    const created = await api<{ id: string }>(merchant.secret_key, 'POST', '/v1/payments', {
      body: {
        amount: 2_500,
        reference: 'traced-1',
        customer_alias: '+225 0000000001',
        return_url: 'https://shop.example/return',
      },
      idempotencyKey: randomUUID(),
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(created).toMatchObject({ status: 200 });
    await waitFor(() => hooks.received.some((hook) => hook.event.type === 'payment.succeeded'), {
      timeoutMs: 20_000,
      description: 'the payment.succeeded webhook',
    });

    const consumerOf = (spans: ReceivedSpan[], { service, queue }: (typeof CONSUMED)[number]) =>
      spans.find(
        (span) =>
          span.service === service && span.kind === SPAN_KIND.consumer && span.name === `process ${queue}`,
      );
    const spans = await waitFor(
      async () => {
        const trace = await spansOfTrace(endpoint, traceId);
        return CONSUMED.every((consumed) => consumerOf(trace, consumed)) ? trace : undefined;
      },
      { timeoutMs: 10_000, description: "the consumers' spans in the payment's trace" },
    );

    const services = new Set(spans.map((span) => span.service));
    for (const service of [
      'gateway',
      'payments',
      'psp-connector',
      'pispi-simulator',
      'ledger',
      'webhook-dispatcher',
    ]) {
      expect(services).toContain(service);
    }
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    for (const consumed of CONSUMED) {
      const consumer = consumerOf(spans, consumed)!;
      // Child of the publish of the outbox row its producer wrote, and linked to it.
      const publish = byId.get(consumer.parentSpanId ?? '');
      expect(publish).toMatchObject({ kind: SPAN_KIND.producer, name: 'publish sika.events' });
      expect(consumer.links.map((link) => link.spanId)).toEqual([publish!.spanId]);
    }
    // The webhooks leave in the trace too, handed to the delivery worker by the consumer that stored them.
    expect(spans).toContainEqual(
      expect.objectContaining({
        service: 'webhook-dispatcher',
        kind: SPAN_KIND.client,
        attributes: expect.objectContaining({ 'url.full': hooks.url }),
      }),
    );
    // The request and the consumers name the payment they handle.
    const paymentId = created.body.id;
    const tagged = spans.filter((span) => span.attributes['sika.payment_id'] === paymentId);
    expect(new Set(tagged.map((span) => span.service))).toEqual(new Set(['payments', 'ledger']));
    // The scheme's callback, sent by the simulator's worker, continues the request-to-pay's trace.
    const callback = spans.find(
      (span) =>
        span.service === 'psp-connector' &&
        span.kind === SPAN_KIND.server &&
        /callbacks/.test(String(span.attributes['http.route'] ?? span.attributes['url.path'] ?? span.name)),
    );
    expect(byId.get(callback?.parentSpanId ?? '')).toMatchObject({
      service: 'pispi-simulator',
      kind: SPAN_KIND.client,
    });
  });
});
