import { context, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { contextFromHeaders, traceHeaders } from '@sika/platform';
import { eachIn } from './consumer';
import type { ReceivedMessage } from './delivery';

describe('a handler of one message run over messages that arrived together', () => {
  const provider = new NodeTracerProvider();

  beforeAll(() => provider.register());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  /** A message received in its own trace (its consumer span's), as decode makes it. */
  const received = (id: string): { message: ReceivedMessage<string>; traceId: string } =>
    trace.getTracer('test').startActiveSpan(`process ${id}`, (span) => {
      span.end();
      const message = {
        id,
        type: undefined,
        routingKey: 'payment.succeeded',
        headers: {},
        body: id,
        attempt: 1,
        traceHeaders: traceHeaders(),
      };
      return { message, traceId: span.spanContext().traceId };
    });

  it("handles each in its own message's trace, not in the batch's", async () => {
    const batch = [received('msg_a'), received('msg_b'), received('msg_c')];
    const handledIn = new Map<string, string | undefined>();
    const handleAll = eachIn<string, never>(async (message) => {
      handledIn.set(message.id, trace.getActiveSpan()?.spanContext().traceId);
    });
    // The batch runs in the context of its first message, as the consumer's batcher runs it.
    await context.with(contextFromHeaders(batch[0]!.message.traceHeaders), () =>
      handleAll(
        batch.map(({ message }) => message),
        undefined as never,
      ),
    );
    expect(Object.fromEntries(handledIn)).toEqual(
      Object.fromEntries(batch.map(({ message, traceId }) => [message.id, traceId])),
    );
  });
});
