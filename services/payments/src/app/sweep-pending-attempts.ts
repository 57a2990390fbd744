import type { AttemptSender } from './attempt-sender';
import type { UseCaseContext } from './ports';

/**
 * Sends again the attempts whose request never got the scheme's answer (psp-connector down, a crash between
 * the commit and the send): their dispatch_after has passed. Each claim leases the attempt for `leaseMs`.
 */
export class SweepPendingAttempts {
  constructor(
    private readonly context: UseCaseContext & { sender: AttemptSender },
    private readonly leaseMs = 30_000,
    private readonly batchSize = 20,
  ) {}

  async execute(): Promise<number> {
    const { db, payments, clock, sender, logger } = this.context;
    const now = clock.now();
    const due = await payments.claimDueAttempts(
      db.reader,
      now,
      new Date(now.getTime() + this.leaseMs),
      this.batchSize,
    );
    for (const attemptId of due) {
      try {
        const result = await sender.send(attemptId);
        logger.info({ attempt_id: attemptId, result: result.kind }, 'pending attempt sent again');
      } catch (err) {
        logger.error({ err, attempt_id: attemptId }, 'sending a pending attempt again failed');
      }
    }
    return due.length;
  }
}
