import { paymentsV1, payoutsV1, pspV1 } from './gen';

/**
 * The events of the `sika.events` exchange, declared once beside their messages: each stream's protobuf
 * codec, AMQP `type` and routing keys, and each consumer's queue and bindings. Producers and consumers
 * import these; a routing key or queue name written anywhere else is a bug waiting to drift.
 */

/** The one topic exchange that carries every domain event. */
export const EVENTS_EXCHANGE = 'sika.events';

/** What encodes and decodes one kind of event (a ts-proto message). */
export interface EventCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
}

/** A stream of events of one protobuf message. */
export interface EventStream<T> {
  /** The AMQP `type` property: the protobuf message's full name. */
  readonly messageType: string;
  readonly codec: EventCodec<T>;
}

/** A stream with one routing key. */
export type KeyedEventStream<T> = EventStream<T> & { readonly routingKey: string };

/** What an outbox writes for one event of a stream: its routing key, AMQP `type` and encoded payload. */
export function outboxMessage<T>(
  stream: EventStream<T>,
  message: T,
  routingKey: string,
): { routingKey: string; type: string; payload: Uint8Array } {
  return { routingKey, type: stream.messageType, payload: stream.codec.encode(message).finish() };
}

/** payments → `payments.<event type>` (e.g. `payments.payment.succeeded`), once per status change. */
export const PAYMENT_EVENTS: EventStream<paymentsV1.PaymentEvent> & {
  routingKey(type: string): string;
  /** Every payment status change. */
  readonly everyPaymentChange: string;
} = {
  messageType: 'sika.payments.v1.PaymentEvent',
  codec: paymentsV1.PaymentEvent,
  routingKey: (type) => `payments.${type}`,
  everyPaymentChange: 'payments.payment.*',
};

/** psp-connector → `psp.payment_request.updated`: a scheme callback changed a request-to-pay. */
export const PAYMENT_REQUEST_UPDATES: KeyedEventStream<pspV1.PaymentRequestUpdated> = {
  messageType: 'sika.psp.v1.PaymentRequestUpdated',
  codec: pspV1.PaymentRequestUpdated,
  routingKey: 'psp.payment_request.updated',
};

/** payments → `payments.refund.requested`: money to return to a customer. */
export const REFUND_REQUESTS: KeyedEventStream<paymentsV1.RefundRequested> = {
  messageType: 'sika.payments.v1.RefundRequested',
  codec: paymentsV1.RefundRequested,
  routingKey: 'payments.refund.requested',
};

/** psp-connector → `psp.fund_return.updated`: a fund return was sent, or given up. */
export const FUND_RETURN_UPDATES: KeyedEventStream<pspV1.FundReturnUpdated> = {
  messageType: 'sika.psp.v1.FundReturnUpdated',
  codec: pspV1.FundReturnUpdated,
  routingKey: 'psp.fund_return.updated',
};

/** payouts → `payouts.<event type>` (`payouts.payout.paid`, `payouts.payout.failed`), once per final status. */
export const PAYOUT_EVENTS: EventStream<payoutsV1.PayoutEvent> & {
  routingKey(type: string): string;
  /** Every payout event. */
  readonly everyPayoutChange: string;
} = {
  messageType: 'sika.payouts.v1.PayoutEvent',
  codec: payoutsV1.PayoutEvent,
  routingKey: (type) => `payouts.${type}`,
  everyPayoutChange: 'payouts.payout.*',
};

/** payouts → `payouts.transfer.requested`: a reserved payout for psp-connector to send. */
export const PAYOUT_TRANSFER_REQUESTS: KeyedEventStream<payoutsV1.PayoutTransferRequested> = {
  messageType: 'sika.payouts.v1.PayoutTransferRequested',
  codec: payoutsV1.PayoutTransferRequested,
  routingKey: 'payouts.transfer.requested',
};

/** psp-connector → `psp.payout_transfer.updated`: a payout's transfer reached the account, or failed. */
export const PAYOUT_TRANSFER_UPDATES: KeyedEventStream<pspV1.PayoutTransferUpdated> = {
  messageType: 'sika.psp.v1.PayoutTransferUpdated',
  codec: pspV1.PayoutTransferUpdated,
  routingKey: 'psp.payout_transfer.updated',
};

/**
 * A consumer's queue (with `<queue>.retry` and `<queue>.dlq` beside it) and the routing keys bound to it.
 * The name is also the consumer's key in its inbox table: renaming one would strand its messages and let
 * redeliveries through, so names never change.
 */
export interface ConsumerQueue {
  readonly queue: string;
  readonly bindings: readonly string[];
}

export const CONSUMER_QUEUES = {
  /** payments applies the scheme's answers to its attempts. */
  paymentsPaymentRequestUpdates: {
    queue: 'payments.psp-updates',
    bindings: [PAYMENT_REQUEST_UPDATES.routingKey],
  },
  /** payments records fund returns on the attempts they refund. */
  paymentsFundReturnUpdates: {
    queue: 'payments.fund-returns',
    bindings: [FUND_RETURN_UPDATES.routingKey],
  },
  /** psp-connector returns money to customers. */
  pspRefundRequests: {
    queue: 'psp-connector.refund-requests',
    bindings: [REFUND_REQUESTS.routingKey],
  },
  /** psp-connector sends payouts to payout accounts. */
  pspPayoutTransferRequests: {
    queue: 'psp-connector.payout-transfers',
    bindings: [PAYOUT_TRANSFER_REQUESTS.routingKey],
  },
  /** payouts settles its payouts on the transfers' outcomes. */
  payoutsTransferUpdates: {
    queue: 'payouts.transfer-updates',
    bindings: [PAYOUT_TRANSFER_UPDATES.routingKey],
  },
  /** webhook-dispatcher turns payout outcomes into merchants' events. */
  webhooksPayoutEvents: {
    queue: 'webhook-dispatcher.payout-events',
    bindings: [PAYOUT_EVENTS.everyPayoutChange],
  },
  /** The ledger credits each succeeded payment (its `payment` and `fee` movements) from payments' decision. */
  ledgerPaymentCredits: {
    queue: 'ledger.payment-credits',
    bindings: [PAYMENT_EVENTS.routingKey('payment.succeeded')],
  },
  /** The ledger books money payments decided to return as owed back (refunds_payable). */
  ledgerRefundRequests: {
    queue: 'ledger.refund-requests',
    bindings: [REFUND_REQUESTS.routingKey],
  },
  /** The ledger releases what it booked as owed back once psp-connector returned it. */
  ledgerFundReturnUpdates: {
    queue: 'ledger.fund-returns',
    bindings: [FUND_RETURN_UPDATES.routingKey],
  },
  /** The ledger ends each payout's reservation from payouts' decision: paid, or failed and reversed. */
  ledgerPayoutSettlements: {
    queue: 'ledger.payout-settlements',
    bindings: [PAYOUT_EVENTS.everyPayoutChange],
  },
  /** webhook-dispatcher turns payment status changes into merchants' events. */
  webhooksPaymentEvents: {
    queue: 'webhook-dispatcher.payment-events',
    bindings: [PAYMENT_EVENTS.everyPaymentChange],
  },
} as const satisfies Record<string, ConsumerQueue>;
