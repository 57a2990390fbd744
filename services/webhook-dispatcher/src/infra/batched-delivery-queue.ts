import { StatementBatcher } from '@sika/platform';
import type { AttemptRecord, ClaimedDelivery, DeliveryQueue, EndpointSlots } from '../app/ports';
import type { DeliveryOutcome } from '../domain/retry-schedule';
import type { RecordedAttempt, SqlDeliveryQueue } from './sql-delivery-queue';

/**
 * The delivery worker's queue: the outcomes of attempts that end in the same turn of the event loop are
 * recorded by one statement (StatementBatcher), so under load one statement and one commit serve many attempts.
 */
export class BatchedDeliveryQueue implements DeliveryQueue {
  private readonly recorder: StatementBatcher<RecordedAttempt, boolean>;

  constructor(private readonly queue: SqlDeliveryQueue) {
    this.recorder = new StatementBatcher((records) => queue.recordAttempts(records), { maxBatchSize: 100 });
  }

  claimDue(now: Date, limit: number, leaseUntil: Date, slots: EndpointSlots): Promise<ClaimedDelivery[]> {
    return this.queue.claimDue(now, limit, leaseUntil, slots);
  }

  recordAttempt(attempt: AttemptRecord, outcome: DeliveryOutcome): Promise<boolean> {
    return this.recorder.write({ attempt, outcome });
  }
}
