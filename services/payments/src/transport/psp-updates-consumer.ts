import { CONSUMER_QUEUES, PAYMENT_REQUEST_UPDATES, pspV1 } from '@sika/contracts';
import { InboxConsumer } from '@sika/messaging';
import type { Broker, TransactionRunner } from '@sika/messaging';
import type { Logger, Metrics } from '@sika/platform';
import { isValidTxId } from '@sika/rules';
import type { ApplyPspUpdate } from '../app/apply-psp-update';
import type { SchemeUpdate } from '../app/ports';
import type { AttemptOutcome } from '../domain/attempt';
import type { Tx } from '../infra/database';

/** Tests run on their own exchange and queue, and retry sooner. */
export interface PspUpdatesTopology {
  exchange: string;
  queue: string;
  maxAttempts?: number;
  retryDelayMs?: number;
}

export interface PspUpdatesConsumerOptions {
  broker: Broker;
  database: TransactionRunner<Tx>;
  applyPspUpdate: ApplyPspUpdate;
  logger: Logger;
  metrics: Metrics;
  topology?: PspUpdatesTopology;
}

const { queue: PSP_UPDATES_QUEUE, bindings } = CONSUMER_QUEUES.paymentsPaymentRequestUpdates;

function outcomeOf(update: pspV1.PaymentRequestUpdated): AttemptOutcome {
  switch (update.decision) {
    case pspV1.PayerDecision.PAYER_DECISION_PAID:
      // A transfer is named by its end-to-end id: without one it could be neither told apart nor returned.
      if (!update.endToEndId) throw new Error(`payment of ${update.txId} without its end-to-end id`);
      if (update.occurredAt === undefined) throw new Error(`payment of ${update.txId} without its date`);
      return {
        kind: 'paid',
        endToEndId: update.endToEndId,
        amount: update.amount,
        receivedAt: update.occurredAt,
      };
    case pspV1.PayerDecision.PAYER_DECISION_ACCEPTED_DEFERRED:
      return { kind: 'accepted_deferred' };
    case pspV1.PayerDecision.PAYER_DECISION_REJECTED:
      return { kind: 'declined', reasonCode: update.reasonCode ?? null };
    case pspV1.PayerDecision.PAYER_DECISION_EXPIRED:
      return { kind: 'expired' };
    case pspV1.PayerDecision.PAYER_DECISION_FAILED:
      return { kind: 'failed', reasonCode: update.reasonCode ?? null };
    default:
      throw new Error(`payer decision ${update.decision} of ${update.txId} is not one this service knows`);
  }
}

/**
 * Bytes that decode but name no tx_id, or a decision this service does not know, are as unusable as bytes
 * that do not decode: straight to the DLQ.
 */
function decodeUpdate(bytes: Uint8Array): SchemeUpdate {
  const update = PAYMENT_REQUEST_UPDATES.codec.decode(bytes);
  if (!isValidTxId(update.txId)) throw new Error('PaymentRequestUpdated without a valid tx_id');
  return {
    livemode: update.livemode,
    txId: update.txId,
    payeeMismatch: update.payeeMismatch,
    outcome: outcomeOf(update),
  };
}

/**
 * psp.payment_request.updated → ApplyPspUpdate, once per message id (inbox); the messages of one read of the
 * broker's socket in one transaction.
 */
export function pspUpdatesConsumer(options: PspUpdatesConsumerOptions): InboxConsumer<SchemeUpdate, Tx> {
  const { topology } = options;
  return new InboxConsumer({
    broker: options.broker,
    database: options.database,
    queue: topology?.queue ?? PSP_UPDATES_QUEUE,
    bindings,
    ...(topology && { exchange: topology.exchange }),
    consumerName: PSP_UPDATES_QUEUE,
    decode: decodeUpdate,
    handleAll: (messages, tx) =>
      options.applyPspUpdate.execute(
        messages.map((message) => ({ ...message.body, traceHeaders: message.traceHeaders })),
        tx,
      ),
    ...(topology?.maxAttempts !== undefined && { maxAttempts: topology.maxAttempts }),
    ...(topology?.retryDelayMs !== undefined && { retryDelayMs: topology.retryDelayMs }),
    logger: options.logger,
    metrics: options.metrics,
  });
}
