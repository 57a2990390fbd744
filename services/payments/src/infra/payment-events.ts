import { outboxMessage, PAYMENT_EVENTS, REFUND_REQUESTS, type paymentsV1 } from '@sika/contracts';
import { modeHeader, type OutboxEvent } from '@sika/messaging';
import { traceHeaders } from '@sika/platform';
import type { Outcome } from '../domain/lifecycle';
import { toProtoPayment } from './payment-proto';

/**
 * The outbox messages of an outcome, to write in the statement that records it: the events are published if
 * and only if the change commits. They carry the trace context of where the outcome is decided, since the
 * statement may write the outcomes of several callers at once, in the first one's context. One PaymentEvent per status change, in order (the ledger credits from
 * `payment.succeeded`), then payments.refund.requested when the outcome decides money goes back
 * (psp-connector returns it, the ledger books it as owed).
 */
export function outcomeMessages(outcome: Outcome, occurredAt: Date): OutboxEvent[] {
  const traceContext = traceHeaders();
  const messages: OutboxEvent[] = outcome.changes.map((change) => {
    const event: paymentsV1.PaymentEvent = {
      type: change.type,
      payment: toProtoPayment(change.payment),
      occurredAt,
    };
    return {
      ...outboxMessage(PAYMENT_EVENTS, event, PAYMENT_EVENTS.routingKey(change.type)),
      headers: { ...traceContext, ...modeHeader(change.payment.livemode) },
    };
  });
  const { refund } = outcome;
  if (refund !== null) {
    const request = {
      livemode: outcome.payment.livemode,
      txId: refund.txId,
      endToEndId: refund.endToEndId,
      amount: refund.amount,
    };
    messages.push({
      ...outboxMessage(REFUND_REQUESTS, request, REFUND_REQUESTS.routingKey),
      headers: traceContext,
    });
  }
  return messages;
}
