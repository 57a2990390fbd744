import DataLoader from 'dataloader';
import type { AttemptRecord, ClaimedDelivery, DeliveryQueue } from '../app/ports';
import type { DeliveryOutcome } from '../domain/retry-schedule';
import type { RecordedAttempt, SqlDeliveryQueue } from './sql-delivery-queue';

/** Attempts whose outcomes one statement records at most. */
const MAX_RECORDS_PER_STATEMENT = 100;

/**
 * The delivery worker's queue. The outcomes of attempts that end in the same turn of the event loop (their
 * answers read in one poll of the sockets) are recorded by one statement: DataLoader collects them until the
 * loop's check phase, so under load one statement and one commit serve many attempts, and alone an attempt is
 * recorded as soon as before. A batch that fails is recorded again one attempt at a time, so that an attempt's
 * error stays its own.
 */
export class BatchedDeliveryQueue implements DeliveryQueue {
  private readonly recorder: DataLoader<RecordedAttempt, boolean>;

  constructor(private readonly queue: SqlDeliveryQueue) {
    this.recorder = new DataLoader((records) => this.recordAll(records), {
      cache: false,
      maxBatchSize: MAX_RECORDS_PER_STATEMENT,
      batchScheduleFn: (dispatch) => setImmediate(dispatch),
    });
  }

  claimDue(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]> {
    return this.queue.claimDue(now, limit, leaseUntil);
  }

  recordAttempt(attempt: AttemptRecord, outcome: DeliveryOutcome): Promise<boolean> {
    return this.recorder.load({ attempt, outcome });
  }

  private async recordAll(records: readonly RecordedAttempt[]): Promise<(boolean | Error)[]> {
    try {
      return await this.queue.recordAttempts(records);
    } catch (error) {
      if (records.length === 1) throw error;
      return Promise.all(
        records.map(async (record) => {
          try {
            return await this.queue.recordAttempt(record.attempt, record.outcome);
          } catch (recordError) {
            return recordError instanceof Error ? recordError : new Error(String(recordError));
          }
        }),
      );
    }
  }
}
