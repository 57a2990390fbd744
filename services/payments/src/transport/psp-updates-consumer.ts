import { pspV1 } from '@sika/contracts';
import { startConsumer } from '@sika/messaging';
import type { Broker, Consumer, TransactionRunner } from '@sika/messaging';
import type { Logger } from '@sika/platform';
import type { ApplyPspUpdate } from '../app/apply-psp-update';
import { isValidTxId } from '@sika/rules';
import type { Tx } from '../infra/database';

export const PSP_UPDATES_QUEUE = 'payments.psp-updates';
export const PSP_UPDATED_ROUTING_KEY = 'psp.payment_request.updated';

export interface PspUpdatesConsumerOptions {
  broker: Broker;
  prisma: TransactionRunner<Tx>;
  applyPspUpdate: ApplyPspUpdate;
  logger: Logger;
  /** Overridable so tests run on their own exchange and queue. */
  exchange?: string;
  queue?: string;
  maxAttempts?: number;
  retryDelayMs?: number;
}

/** Bytes that decode but name no tx_id are as unusable as bytes that do not decode: straight to the DLQ. */
function decodeUpdate(bytes: Uint8Array): pspV1.PaymentRequestUpdated {
  const update = pspV1.PaymentRequestUpdated.decode(bytes);
  if (!isValidTxId(update.txId)) throw new Error('PaymentRequestUpdated without a valid tx_id');
  return update;
}

/** psp.payment_request.updated → ApplyPspUpdate, once per message id (inbox). */
export function startPspUpdatesConsumer(options: PspUpdatesConsumerOptions): Promise<Consumer> {
  return startConsumer({
    broker: options.broker,
    prisma: options.prisma,
    queue: options.queue ?? PSP_UPDATES_QUEUE,
    bindings: [PSP_UPDATED_ROUTING_KEY],
    ...(options.exchange === undefined ? {} : { exchange: options.exchange }),
    consumerName: PSP_UPDATES_QUEUE,
    decode: decodeUpdate,
    handle: (message, tx) => options.applyPspUpdate.execute(message.body, tx),
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
    logger: options.logger,
  });
}
