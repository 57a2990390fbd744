import { CONSUMER_QUEUES, PAYOUT_TRANSFER_REQUESTS } from '@sika/contracts';
import { InboxConsumer } from '@sika/messaging';
import type { Broker, MessagingDatabase, TransactionRunner } from '@sika/messaging';
import { isId, type Logger, type Metrics } from '@sika/platform';

import type { PayoutTransferRequest, RequestPayoutTransfer } from '../app/request-payout-transfer';

const { bindings } = CONSUMER_QUEUES.pspPayoutTransferRequests;

/** Bytes that decode to no usable transfer are as unusable as bytes that do not decode: to the DLQ. */
function decodeRequest(bytes: Uint8Array): PayoutTransferRequest {
  const request = PAYOUT_TRANSFER_REQUESTS.codec.decode(bytes);
  if (!isId('po', request.payoutId)) throw new Error('PayoutTransferRequested without a payout id');
  if (request.amount < 1n)
    throw new Error(`PayoutTransferRequested for ${request.payoutId} without an amount`);
  if (request.payeeAlias === '')
    throw new Error(`PayoutTransferRequested for ${request.payoutId} without an alias`);
  return request;
}

/** payouts.transfer.requested → RequestPayoutTransfer, once per message id (inbox). */
export function payoutTransferRequestsConsumer(options: {
  broker: Broker;
  db: TransactionRunner;
  requestPayoutTransfer: RequestPayoutTransfer;
  logger: Logger;
  metrics: Metrics;
  exchange: string;
  /** The contract's queue, unless main.ts's own tests must not compete with a running stack for it. */
  queue: string;
}): InboxConsumer<PayoutTransferRequest, MessagingDatabase> {
  return new InboxConsumer({
    broker: options.broker,
    database: options.db,
    queue: options.queue,
    bindings,
    exchange: options.exchange,
    consumerName: options.queue,
    decode: decodeRequest,
    handle: (message, tx) => options.requestPayoutTransfer.execute(message.body, tx),
    logger: options.logger,
    metrics: options.metrics,
  });
}
