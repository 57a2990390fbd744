import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { waitFor } from '@sika/testing';
import { OutboxRelay, createBroker, enqueue, startConsumer, type Broker, type Consumer } from '../src';
import { createTestDatabase, type TestDatabase } from './support/database';
import { testLogger } from './support/logger';
import { RabbitAdmin } from './support/rabbit';

jest.setTimeout(20_000);

/** The trace id a W3C traceparent names. */
function traceIdOf(headers: unknown): string | undefined {
  const traceparent = (headers as Record<string, unknown> | null)?.traceparent;
  return typeof traceparent === 'string' ? traceparent.split('-')[1] : undefined;
}

describe('trace context through the outbox and the inbox', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let db: TestDatabase;
  let admin: RabbitAdmin;
  let broker: Broker;
  let consumer: Consumer | undefined;
  let relay: OutboxRelay | undefined;

  beforeAll(async () => {
    // What the SDK does in a service: an async-hooks context manager and the W3C propagator.
    provider.register();
    db = await createTestDatabase();
    admin = await RabbitAdmin.open();
    broker = await createBroker({ url: admin.amqpUrl, logger: testLogger('trace-context-test') });
  });

  afterAll(async () => {
    await relay?.stop();
    await consumer?.close();
    await broker.close();
    await admin.cleanup();
    await db.drop();
    await provider.shutdown();
    trace.disable();
  });

  it("continues the writer's trace in the publish, the consumer and the consumer's own outbox rows", async () => {
    const { exchange, queue } = admin.names('traced');
    let handlerTraceId: string | undefined;
    consumer = await startConsumer({
      broker,
      database: db.database,
      exchange,
      queue,
      bindings: ['payment.*'],
      consumerName: 'traced-test',
      decode: (bytes) => Buffer.from(bytes).toString('utf8'),
      handle: async (message, tx) => {
        handlerTraceId = trace.getActiveSpan()?.spanContext().traceId;
        await enqueue(tx, {
          routingKey: 'ledger.credited',
          type: 'test.Credited',
          payload: Buffer.from('x'),
        });
        expect(message.body).toBe('pay_1 succeeded');
      },
    });
    relay = new OutboxRelay({ database: db.database, broker, exchange, idleIntervalMs: 50 });
    await relay.start();

    const tracer = trace.getTracer('test');
    const request = await tracer.startActiveSpan('POST /v1/payments', async (span) => {
      await db.database.transact((tx) =>
        enqueue(tx, {
          routingKey: 'payment.succeeded',
          type: 'test.Succeeded',
          payload: Buffer.from('pay_1 succeeded'),
        }),
      );
      span.end();
      return span.spanContext();
    });
    relay.wake();

    const consumed = await waitFor(
      () => exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CONSUMER),
      { description: 'the consumer span' },
    );
    const publish = exporter
      .getFinishedSpans()
      .find(
        (span) =>
          span.kind === SpanKind.PRODUCER &&
          span.attributes['messaging.rabbitmq.destination.routing_key'] === 'payment.succeeded',
      )!;
    expect(publish.spanContext().traceId).toBe(request.traceId);
    expect(publish.parentSpanContext?.spanId).toBe(request.spanId);
    expect(consumed.name).toBe(`process ${queue}`);
    expect(consumed.parentSpanContext?.spanId).toBe(publish.spanContext().spanId);
    expect(consumed.links.map((link) => link.context.spanId)).toEqual([publish.spanContext().spanId]);
    expect(consumed.attributes['sika.delivery_outcome']).toBe('applied');
    expect(handlerTraceId).toBe(request.traceId);

    const rows = await db.query<{ routing_key: string; headers: unknown }>(
      'SELECT routing_key, headers FROM outbox ORDER BY created_at',
    );
    expect(rows.map((row) => [row.routing_key, traceIdOf(row.headers)])).toEqual([
      ['payment.succeeded', request.traceId],
      ['ledger.credited', request.traceId],
    ]);
  });
});
