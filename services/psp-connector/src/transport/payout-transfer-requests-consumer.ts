import { CONSUMER_QUEUES, PAYOUT_TRANSFER_REQUESTS } from '@sika/contracts';
import type { InboxConsumer, MessagingClient } from '@sika/messaging';
import { isId } from '@sika/platform';

import type { PayoutTransferRequest, RequestPayoutTransfer } from '../app/request-payout-transfer';
import { requestsConsumer, type RequestsConsumerOptions } from './requests-consumer';

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
export function payoutTransferRequestsConsumer(
  options: RequestsConsumerOptions & { requestPayoutTransfer: RequestPayoutTransfer },
): InboxConsumer<PayoutTransferRequest, MessagingClient> {
  return requestsConsumer(options, {
    bindings,
    decode: decodeRequest,
    handle: (request, tx) => options.requestPayoutTransfer.execute(request, tx),
  });
}
