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

/** A new trace's id, and the traceparent a merchant's server sends to start it. */
function newTrace(): { traceId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

/** The scheme's callback to psp-connector, sent by the simulator's worker, under the simulator's client span. */
function expectCallbackInTrace(spans: ReceivedSpan[]): void {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
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
}

describe('one trace per payment', () => {
  const receiver = startWebhookReceiver();
  afterAll(async () => (await receiver).close());
  let merchant: Awaited<ReturnType<typeof createMerchant>>;

  it('follows a paid payment from the API through the scheme, the broker, the ledger and the webhook', async () => {
    const endpoint = process.env[OTLP_ENDPOINT_VARIABLE];
    if (endpoint === undefined) throw new Error(`${OTLP_ENDPOINT_VARIABLE} is not set: no global setup?`);
    const hooks = await receiver;
    merchant = await createMerchant('E2E Traced Shop', hooks.url);

    // The merchant's server starts the trace: the gateway continues a W3C traceparent it is sent.
    const { traceId, traceparent } = newTrace();
    const created = await api<{ id: string }>(merchant.secret_key, 'POST', '/v1/payments', {
      body: {
        amount: 2_500,
        reference: 'traced-1',
        customer_alias: '+225 0000000001',
        return_url: 'https://shop.example/return',
      },
      idempotencyKey: randomUUID(),
      headers: { traceparent },
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
        const missing = CONSUMED.filter((consumed) => !consumerOf(trace, consumed));
        // Thrown, so that a timeout names the queues whose consumers are not in the trace.
        if (missing.length > 0)
          throw new Error(`no span yet of ${missing.map(({ queue }) => queue).join(', ')}`);
        return trace;
      },
      // Each service exports its spans in batches, every few seconds, later on a loaded machine.
      { timeoutMs: 30_000, description: "the consumers' spans in the payment's trace" },
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
    expectCallbackInTrace(spans);
  });

  it('follows a payout from the API through the ledger, psp-connector and the scheme back to payouts', async () => {
    const endpoint = process.env[OTLP_ENDPOINT_VARIABLE]!;
    const hooks = await receiver;
    // The payment above is credited (2,500 less its fee) by now or soon: a part of it is paid out.
    const { traceId, traceparent } = newTrace();
    const created = await waitFor(
      async () => {
        const answer = await api<{ id: string }>(merchant.secret_key, 'POST', '/v1/payouts', {
          body: { amount: 1_000 },
          idempotencyKey: randomUUID(),
          headers: { traceparent },
        });
        return answer.status === 200 ? answer.body : undefined;
      },
      { description: 'a payout of the credited payment' },
    );
    await waitFor(
      () =>
        hooks.received.some(
          ({ event }) => event.type === 'payout.paid' && event.data.object.id === created.id,
        ),
      { timeoutMs: 20_000, description: 'the payout.paid webhook' },
    );

    const spans = await waitFor(
      async () => {
        const trace = await spansOfTrace(endpoint, traceId);
        return trace.some((span) => span.name === 'process payouts.transfer-updates') ? trace : undefined;
      },
      { description: "payouts' consumer span in the payout's trace" },
    );
    expect(spans.filter((span) => span.attributes['sika.payout_id'] === created.id).length).toBeGreaterThan(
      0,
    );
    expect(spans.map((span) => span.name)).toContain('process psp-connector.payout-transfers');
    expectCallbackInTrace(spans);
  });
});
