import { outboxMessage, PAYMENT_EVENTS, REFUND_REQUESTS, type paymentsV1 } from '@sika/contracts';
import { modeHeader, type OutboxEvent } from '@sika/messaging';
import type { Outcome } from '../domain/lifecycle';
import { toProtoPayment } from './payment-proto';

/**
 * The outbox messages of an outcome, to write in the statement that records it: the events are published if
 * and only if the change commits. One PaymentEvent per status change, in order (the ledger credits from
 * `payment.succeeded`), then payments.refund.requested when the outcome decides money goes back
 * (psp-connector returns it, the ledger books it as owed).
 */
export function outcomeMessages(outcome: Outcome, occurredAt: Date): OutboxEvent[] {
  const messages: OutboxEvent[] = outcome.changes.map((change) => {
    const event: paymentsV1.PaymentEvent = {
      type: change.type,
      payment: toProtoPayment(change.payment),
      occurredAt,
    };
    return {
      ...outboxMessage(PAYMENT_EVENTS, event, PAYMENT_EVENTS.routingKey(change.type)),
      headers: modeHeader(change.payment.livemode),
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
    messages.push(outboxMessage(REFUND_REQUESTS, request, REFUND_REQUESTS.routingKey));
  }
  return messages;
}
