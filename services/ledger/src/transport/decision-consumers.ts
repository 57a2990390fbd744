import {
  CONSUMER_QUEUES,
  FUND_RETURN_UPDATES,
  PAYMENT_EVENTS,
  PAYOUT_EVENTS,
  payoutsV1,
  pspV1,
  REFUND_REQUESTS,
  type ConsumerQueue,
} from '@sika/contracts';
import { InboxConsumer, type Broker } from '@sika/messaging';
import { isId, type Logger, type Metrics } from '@sika/platform';
import type { BookRefund } from '../app/book-refund';
import type { CreditPayment } from '../app/credit-payment';
import type { ReleasePayout } from '../app/release-payout';
import type { PayoutOutcome } from '../domain/payout';
import type { Refund } from '../domain/refund';
import type { Scope } from '@sika/platform/pure';

/**
 * The decisions other services committed and the ledger applies: each arrives as the decider's own outbox
 * event, so the ledger books only what was decided, and only after it was. Every effect is keyed by its
 * source (a payment, a transfer, a payout) under a unique constraint, so a redelivery writes nothing: no inbox
 * row is needed (`deduplication: 'handler'`), and the credits of concurrent messages share one statement.
 */
export interface LedgerDecisions {
  creditPayment: CreditPayment;
  bookRefund: BookRefund;
  releasePayout: ReleasePayout;
}

/** A decision as the ledger applies it; `null` for one of the queue's messages the ledger has no part in. */
type Decision =
  | { kind: 'credit'; scope: Scope; paymentId: string; amount: bigint; feeAmount: bigint }
  | { kind: 'refund'; livemode: boolean; refund: Refund }
  | { kind: 'payout'; scope: Scope; payoutId: string; outcome: PayoutOutcome }
  | null;

/** Tests give up sooner. */
export interface ConsumerRetries {
  maxAttempts: number;
  retryDelayMs: number;
}

function scopeOf(merchantId: string, livemode: boolean): Scope {
  if (!isId('mer', merchantId)) throw new Error(`decision without a merchant id (${merchantId || 'empty'})`);
  return { merchantId, livemode };
}

function creditOf(bytes: Uint8Array): Decision {
  const { type, payment } = PAYMENT_EVENTS.codec.decode(bytes);
  if (type !== 'payment.succeeded' || payment === undefined) return null;
  if (payment.feeAmount === undefined) throw new Error(`succeeded payment ${payment.id} without a fee`);
  return {
    kind: 'credit',
    scope: scopeOf(payment.merchantId, payment.livemode),
    paymentId: payment.id,
    amount: payment.amount,
    feeAmount: payment.feeAmount,
  };
}

function refundOwedOf(bytes: Uint8Array): Decision {
  const request = REFUND_REQUESTS.codec.decode(bytes);
  return {
    kind: 'refund',
    livemode: request.livemode,
    refund: { transferId: request.endToEndId, amount: request.amount, stage: 'payable' },
  };
}

function refundReturnedOf(bytes: Uint8Array): Decision {
  const update = FUND_RETURN_UPDATES.codec.decode(bytes);
  // An abandoned return stays owed: an operator returns the money by hand.
  if (update.status !== pspV1.FundReturnStatus.FUND_RETURN_STATUS_SENT) return null;
  return {
    kind: 'refund',
    livemode: update.livemode,
    refund: { transferId: update.endToEndId, amount: update.amount, stage: 'sent' },
  };
}

function payoutSettlementOf(bytes: Uint8Array): Decision {
  const { payout } = PAYOUT_EVENTS.codec.decode(bytes);
  if (payout === undefined) throw new Error('payout event without its payout');
  const outcome: PayoutOutcome | undefined =
    payout.status === payoutsV1.PayoutStatus.PAYOUT_STATUS_PAID
      ? 'paid'
      : payout.status === payoutsV1.PayoutStatus.PAYOUT_STATUS_FAILED
        ? 'failed'
        : undefined;
  if (outcome === undefined) return null;
  return { kind: 'payout', scope: scopeOf(payout.merchantId, payout.livemode), payoutId: payout.id, outcome };
}

const SOURCES: readonly { queue: ConsumerQueue; decode: (bytes: Uint8Array) => Decision }[] = [
  { queue: CONSUMER_QUEUES.ledgerPaymentCredits, decode: creditOf },
  { queue: CONSUMER_QUEUES.ledgerRefundRequests, decode: refundOwedOf },
  { queue: CONSUMER_QUEUES.ledgerFundReturnUpdates, decode: refundReturnedOf },
  { queue: CONSUMER_QUEUES.ledgerPayoutSettlements, decode: payoutSettlementOf },
];

function apply(decisions: LedgerDecisions, decision: Decision): Promise<void> {
  if (decision === null) return Promise.resolve();
  switch (decision.kind) {
    case 'credit':
      return decisions.creditPayment.execute(decision.scope, {
        paymentId: decision.paymentId,
        amount: decision.amount,
        feeAmount: decision.feeAmount,
      });
    case 'refund':
      return decisions.bookRefund.execute(decision.livemode, decision.refund);
    case 'payout':
      return decisions.releasePayout.execute(decision.scope, decision.payoutId, decision.outcome);
  }
}

/** One consumer per queue of the ledger (packages/contracts/src/events.ts). */
export function decisionConsumers(options: {
  broker: Broker;
  decisions: LedgerDecisions;
  logger: Logger;
  metrics: Metrics;
  exchange: string;
  /** Before each contract queue name: empty but in tests, which must not compete with a running stack. */
  queuePrefix: string;
  retries?: ConsumerRetries;
}): InboxConsumer<Decision, never>[] {
  return SOURCES.map(
    ({ queue, decode }) =>
      new InboxConsumer<Decision, never>({
        broker: options.broker,
        queue: `${options.queuePrefix}${queue.queue}`,
        bindings: queue.bindings,
        exchange: options.exchange,
        ...options.retries,
        consumerName: queue.queue,
        deduplication: 'handler',
        decode,
        handle: (message) => apply(options.decisions, message.body),
        logger: options.logger,
        metrics: options.metrics,
      }),
  );
}
