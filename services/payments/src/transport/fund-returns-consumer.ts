import { CONSUMER_QUEUES, FUND_RETURN_UPDATES, pspV1 } from '@sika/contracts';
import { InboxConsumer } from '@sika/messaging';
import type { Broker, TransactionRunner } from '@sika/messaging';
import type { Logger, Metrics } from '@sika/platform';
import { isValidTxId } from '@sika/rules';
import type { ApplyFundReturn } from '../app/apply-fund-return';
import type { FundReturnNews } from '../app/ports';
import type { Tx } from '../infra/database';

/** Tests run on their own exchange and queue, and retry sooner. */
export interface FundReturnsTopology {
  exchange: string;
  queue: string;
  maxAttempts?: number;
  retryDelayMs?: number;
}

const { queue: FUND_RETURNS_QUEUE, bindings } = CONSUMER_QUEUES.paymentsFundReturnUpdates;

function resultOf(status: pspV1.FundReturnStatus, txId: string): FundReturnNews['result'] {
  switch (status) {
    case pspV1.FundReturnStatus.FUND_RETURN_STATUS_SENT:
      return 'sent';
    case pspV1.FundReturnStatus.FUND_RETURN_STATUS_ABANDONED:
      return 'abandoned';
    default:
      throw new Error(`fund return status ${status} of ${txId} is not one this service knows`);
  }
}

/** Bytes that decode but say nothing usable are as unusable as bytes that do not decode: to the DLQ. */
function decodeNews(bytes: Uint8Array): FundReturnNews {
  const update = FUND_RETURN_UPDATES.codec.decode(bytes);
  if (!isValidTxId(update.txId)) throw new Error('FundReturnUpdated without a valid tx_id');
  if (!update.endToEndId) throw new Error('FundReturnUpdated without the end-to-end id of its transfer');
  return {
    livemode: update.livemode,
    txId: update.txId,
    endToEndId: update.endToEndId,
    result: resultOf(update.status, update.txId),
    amount: update.amount,
    reasonCode: update.reasonCode ?? null,
  };
}

/** psp.fund_return.updated → ApplyFundReturn, once per message id (inbox). */
export function fundReturnsConsumer(options: {
  broker: Broker;
  database: TransactionRunner<Tx>;
  applyFundReturn: ApplyFundReturn;
  logger: Logger;
  metrics: Metrics;
  topology?: FundReturnsTopology;
}): InboxConsumer<FundReturnNews, Tx> {
  const { topology } = options;
  const queue = topology?.queue ?? FUND_RETURNS_QUEUE;
  return new InboxConsumer({
    broker: options.broker,
    database: options.database,
    queue,
    bindings,
    ...(topology && { exchange: topology.exchange }),
    consumerName: queue,
    decode: decodeNews,
    handle: (message, tx) => options.applyFundReturn.execute(message.body, tx),
    ...(topology?.maxAttempts !== undefined && { maxAttempts: topology.maxAttempts }),
    ...(topology?.retryDelayMs !== undefined && { retryDelayMs: topology.retryDelayMs }),
    logger: options.logger,
    metrics: options.metrics,
  });
}
