import { CONSUMER_QUEUES, REFUND_REQUESTS } from '@sika/contracts';
import type { InboxConsumer, MessagingClient } from '@sika/messaging';

import type { RefundRequest, RequestFundReturn } from '../app/request-fund-return';
import { isSchemeTxId } from '../domain/payment-request';
import { requestsConsumer, type RequestsConsumerOptions } from './requests-consumer';

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
export function refundRequestsConsumer(
  options: RequestsConsumerOptions & { requestFundReturn: RequestFundReturn },
): InboxConsumer<RefundRequest, MessagingClient> {
  return requestsConsumer(options, {
    bindings,
    decode: decodeRequest,
    handle: (request, tx) => options.requestFundReturn.execute(request, tx),
  });
}
