import { CONSUMER_QUEUES, REFUND_REQUESTS } from '@sika/contracts';
import { InboxConsumer } from '@sika/messaging';
import type { Broker, MessagingDatabase, TransactionRunner } from '@sika/messaging';
import type { Logger, Metrics } from '@sika/platform';

import type { RefundRequest, RequestFundReturn } from '../app/request-fund-return';
import { isSchemeTxId } from '../domain/payment-request';

const { bindings } = CONSUMER_QUEUES.pspRefundRequests;

/** Bytes that decode to no usable request are as unusable as bytes that do not decode: to the DLQ. */
function decodeRequest(bytes: Uint8Array): RefundRequest {
  const request = REFUND_REQUESTS.codec.decode(bytes);
  if (!isSchemeTxId(request.txId)) throw new Error('RefundRequested without a valid tx_id');
  if (request.amount < 1n) throw new Error(`RefundRequested for ${request.txId} without an amount`);
  if (!isSchemeTxId(request.endToEndId)) {
    throw new Error(`RefundRequested for ${request.txId} without a valid end-to-end id`);
  }
  return {
    livemode: request.livemode,
    txId: request.txId,
    end2endId: request.endToEndId,
    amount: request.amount,
  };
}

/** payments.refund.requested → RequestFundReturn, once per message id (inbox). */
export function refundRequestsConsumer(options: {
  broker: Broker;
  db: TransactionRunner;
  requestFundReturn: RequestFundReturn;
  logger: Logger;
  metrics: Metrics;
  exchange: string;
  /** The contract's queue, unless main.ts's own tests must not compete with a running stack for it. */
  queue: string;
}): InboxConsumer<RefundRequest, MessagingDatabase> {
  return new InboxConsumer({
    broker: options.broker,
    database: options.db,
    queue: options.queue,
    bindings,
    exchange: options.exchange,
    consumerName: options.queue,
    decode: decodeRequest,
    handle: (message, tx) => options.requestFundReturn.execute(message.body, tx),
    logger: options.logger,
    metrics: options.metrics,
  });
}
