import { signBody } from '@sika/pispi';
import { withContextFrom, type Clock, type Logger } from '@sika/platform';

import { nextAttemptDelayMs } from '../domain/retry-schedule';
import type { CallbackSender, ClaimedNotification, DeliveredCallback, NotificationRepository } from './ports';

/**
 * Worker step: POSTs the due callbacks, signed with X-Signature (HMAC-SHA256 of the body with the webhook's
 * secret), and records each attempt: delivered on a 2xx, otherwise retried on the schedule, then abandoned.
 */
export class DeliverCallbacks {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly sender: CallbackSender,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: {
      batchSize: number;
      leaseMs: number;
      /** Told of each retry once it is recorded, with its due time. */
      onRetryScheduled?: (dueAt: Date) => void;
    },
  ) {}

  /** Callbacks claimed per execute() at most. */
  get batchSize(): number {
    return this.options.batchSize;
  }

  async execute(): Promise<number> {
    const claimed = await this.notifications.claimDue(
      this.clock.now(),
      this.options.batchSize,
      this.options.leaseMs,
    );
    await this.deliverLeased(claimed);
    return claimed.length;
  }

  /**
   * Sends callbacks this process already holds the lease of: claimed here, or written leased. Their deliveries
   * are recorded together once every send ended, within the lease (its length allows for the sender's timeout).
   */
  async deliverLeased(notifications: readonly ClaimedNotification[]): Promise<void> {
    const delivered = (
      await Promise.all(notifications.map((notification) => this.deliver(notification)))
    ).filter((callback): callback is DeliveredCallback => callback !== undefined);
    if (delivered.length === 0) return;
    await this.notifications.markDelivered(delivered);
    for (const { id, attempts } of delivered) {
      this.logger.debug({ notification_id: id, attempts }, 'callback delivered');
    }
  }

  /** One send: a delivery is returned to be recorded with the batch's, a failure recorded at once. */
  private async deliver(notification: ClaimedNotification): Promise<DeliveredCallback | undefined> {
    const signature = signBody(notification.body, notification.secret);
    // In the request-to-pay's trace: the HTTP instrumentation sends its traceparent with the callback.
    const failure = await withContextFrom(notification.traceContext, () =>
      this.sender.send(notification.callbackUrl, notification.body, signature),
    );
    const attempts = notification.attempts + 1;
    const now = this.clock.now();
    if (failure === undefined) return { id: notification.id, attempts, at: now };
    const delay = nextAttemptDelayMs(attempts);
    const nextAttemptAt = delay === undefined ? null : new Date(now.getTime() + delay);
    await this.notifications.markFailed(notification.id, attempts, failure, nextAttemptAt, now);
    if (nextAttemptAt) this.options.onRetryScheduled?.(nextAttemptAt);
    this.logger.warn(
      { notification_id: notification.id, attempts, error: failure, next_attempt_at: nextAttemptAt },
      nextAttemptAt ? 'callback failed, will retry' : 'callback failed, retries exhausted: abandoned',
    );
    return undefined;
  }
}
