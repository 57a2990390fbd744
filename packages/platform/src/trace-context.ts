import {
  context,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

/**
 * Trace context where no instrumentation carries it: in the headers of an outbox row and of the message it
 * becomes, in the rows of work done later by a loop. W3C `traceparent` (and `tracestate`) through the OTel
 * propagation API, so the format is the SDK's. With tracing off the API is a no-op: nothing is written,
 * and the spans below are non-recording.
 */
const tracer = trace.getTracer('@sika/platform');

/** The active context as headers: `{ traceparent, tracestate? }`, or `{}` when there is no span or no SDK. */
export function traceHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

/** The context the headers carry (from traceHeaders), or the active one when they carry none. */
export function contextFromHeaders(headers: Readonly<Record<string, unknown>> | null | undefined): Context {
  const carrier: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (typeof value === 'string') carrier[key] = value;
  }
  return propagation.extract(context.active(), carrier);
}

/** Runs `work` in the context the headers carry: what it traces joins that trace. */
export function withContextFrom<T>(
  headers: Readonly<Record<string, unknown>> | null | undefined,
  work: () => T,
): T {
  return context.with(contextFromHeaders(headers), work);
}

export interface MessageSpan {
  /** `publish sika.events`, `process payments.psp-updates`: the operation, then the destination. */
  name: string;
  kind: 'producer' | 'consumer';
  /** The headers the message's producer context is read from. */
  parent: Readonly<Record<string, unknown>> | null | undefined;
  attributes: Attributes;
}

/**
 * Runs `work` in a producer or consumer span whose parent is the context `parent` carries (linked to it as
 * well, as the messaging conventions ask of a consumer), and ends the span when `work` settles, as an error
 * if it throws. `work` gets the span's own context as headers, for a producer to send on.
 */
export async function inMessageSpan<T>(
  span: MessageSpan,
  work: (headers: Record<string, string>, active: Span) => Promise<T>,
): Promise<T> {
  const parentContext = contextFromHeaders(span.parent);
  const parentSpan = trace.getSpanContext(parentContext);
  return tracer.startActiveSpan(
    span.name,
    {
      kind: span.kind === 'producer' ? SpanKind.PRODUCER : SpanKind.CONSUMER,
      attributes: { 'messaging.system': 'rabbitmq', ...span.attributes },
      ...(span.kind === 'consumer' && parentSpan !== undefined && { links: [{ context: parentSpan }] }),
    },
    parentContext,
    async (active) => {
      try {
        return await work(traceHeaders(), active);
      } catch (err) {
        active.setStatus({
          code: SpanStatusCode.ERROR,
          message: err instanceof Error ? err.message : String(err),
        });
        throw err;
      } finally {
        active.end();
      }
    },
  );
}

/** The business ids a span may carry; each is set only when known. */
export interface SpanIds {
  paymentId?: string | null | undefined;
  attemptId?: string | null | undefined;
  payoutId?: string | null | undefined;
}

const SPAN_ID_ATTRIBUTES: Record<keyof SpanIds, string> = {
  paymentId: 'sika.payment_id',
  attemptId: 'sika.attempt_id',
  payoutId: 'sika.payout_id',
};

/**
 * Puts the payment, attempt or payout id on the active span (the request's or the message's), so that a
 * trace is found by the id a merchant or an operator has. Nothing when no span is recording.
 */
export function tagSpan(ids: SpanIds): void {
  const span = trace.getActiveSpan();
  if (span === undefined || !span.isRecording()) return;
  for (const [key, attribute] of Object.entries(SPAN_ID_ATTRIBUTES) as [keyof SpanIds, string][]) {
    const value = ids[key];
    if (value) span.setAttribute(attribute, value);
  }
}
