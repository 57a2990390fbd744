import { CONSUMER_QUEUES, PAYMENT_REQUEST_UPDATES, type pspV1 } from '@sika/contracts';
import { InboxConsumer } from '@sika/messaging';
import type { Broker, TransactionRunner } from '@sika/messaging';
import type { Logger } from '@sika/platform';
import { isValidTxId } from '@sika/rules';
import type { ApplyPspUpdate } from '../app/apply-psp-update';
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
  prisma: TransactionRunner<Tx>;
  applyPspUpdate: ApplyPspUpdate;
  logger: Logger;
  topology?: PspUpdatesTopology;
}

const { queue: PSP_UPDATES_QUEUE, bindings } = CONSUMER_QUEUES.paymentsPaymentRequestUpdates;

/** Bytes that decode but name no tx_id are as unusable as bytes that do not decode: straight to the DLQ. */
function decodeUpdate(bytes: Uint8Array): pspV1.PaymentRequestUpdated {
  const update = PAYMENT_REQUEST_UPDATES.codec.decode(bytes);
  if (!isValidTxId(update.txId)) throw new Error('PaymentRequestUpdated without a valid tx_id');
  return update;
}

/** psp.payment_request.updated → ApplyPspUpdate, once per message id (inbox). */
export function pspUpdatesConsumer(
  options: PspUpdatesConsumerOptions,
): InboxConsumer<pspV1.PaymentRequestUpdated, Tx> {
  const { topology } = options;
  return new InboxConsumer({
    broker: options.broker,
    prisma: options.prisma,
    queue: topology?.queue ?? PSP_UPDATES_QUEUE,
    bindings,
    ...(topology && { exchange: topology.exchange }),
    consumerName: PSP_UPDATES_QUEUE,
    decode: decodeUpdate,
    handle: (message, tx) => options.applyPspUpdate.execute(message.body, tx),
    ...(topology?.maxAttempts !== undefined && { maxAttempts: topology.maxAttempts }),
    ...(topology?.retryDelayMs !== undefined && { retryDelayMs: topology.retryDelayMs }),
    logger: options.logger,
  });
}
