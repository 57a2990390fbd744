import { CONSUMER_QUEUES, PAYOUT_TRANSFER_UPDATES, pspV1 } from '@sika/contracts';
import { InboxConsumer, type Broker, type TransactionRunner } from '@sika/messaging';
import { isId, type Logger, type Metrics } from '@sika/platform';
import type { ApplyTransferOutcome, TransferNews } from '../app/apply-transfer-outcome';
import type { Tx } from '../infra/database';

/** Tests run on their own exchange and queue. */
export interface TransferUpdatesTopology {
  exchange: string;
  queue: string;
}

const { queue: TRANSFER_UPDATES_QUEUE, bindings } = CONSUMER_QUEUES.payoutsTransferUpdates;

/** Bytes that decode but say nothing usable are as unusable as bytes that do not decode: to the DLQ. */
function decodeNews(bytes: Uint8Array): TransferNews {
  const update = PAYOUT_TRANSFER_UPDATES.codec.decode(bytes);
  if (!isId('po', update.payoutId)) throw new Error('PayoutTransferUpdated without a payout id');
  const base = { payoutId: update.payoutId, livemode: update.livemode };
  switch (update.status) {
    case pspV1.PayoutTransferStatus.PAYOUT_TRANSFER_STATUS_PAID:
      return { ...base, outcome: { result: 'paid' } };
    case pspV1.PayoutTransferStatus.PAYOUT_TRANSFER_STATUS_FAILED:
      return { ...base, outcome: { result: 'failed', reasonCode: update.reasonCode } };
    default:
      throw new Error(`transfer status ${update.status} of ${update.payoutId} is not one this service knows`);
  }
}

/** psp.payout_transfer.updated → ApplyTransferOutcome, once per message id (inbox). */
export function transferUpdatesConsumer(options: {
  broker: Broker;
  database: TransactionRunner<Tx>;
  applyTransferOutcome: ApplyTransferOutcome;
  logger: Logger;
  metrics: Metrics;
  topology?: TransferUpdatesTopology;
}): InboxConsumer<TransferNews, Tx> {
  const queue = options.topology?.queue ?? TRANSFER_UPDATES_QUEUE;
  return new InboxConsumer({
    broker: options.broker,
    database: options.database,
    queue,
    bindings,
    ...(options.topology && { exchange: options.topology.exchange }),
    consumerName: queue,
    decode: decodeNews,
    handle: (message, tx) => options.applyTransferOutcome.execute(message.body, tx),
    logger: options.logger,
    metrics: options.metrics,
  });
}
