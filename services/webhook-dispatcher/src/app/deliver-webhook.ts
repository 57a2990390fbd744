import type { BackgroundTasks, Clock, Logger } from '@sika/platform';
import { outcomeOfAttempt, type DeliveryOutcome } from '../domain/retry-schedule';
import { SIGNATURE_HEADER, signatureHeader } from '../domain/signature';
import type {
  AttemptResult,
  ClaimedDelivery,
  DeliveryObserver,
  DeliveryQueue,
  SendResult,
  WebhookSender,
} from './ports';

export interface DeliverWebhookSettings {
  /** How long a receiver has to answer (spec: 10 s). */
  timeoutMs: number;
  userAgent: string;
}

export interface DeliverWebhookDependencies {
  /** Where the attempts in flight run; the loop that calls execute() waits for them when it stops. */
  attempts: BackgroundTasks;
  /** Attempts in flight at most in this process. */
  concurrency: number;
  queue: DeliveryQueue;
  sender: WebhookSender;
  clock: Clock;
  logger: Logger;
  observer?: DeliveryObserver;
  settings: DeliverWebhookSettings;
}

/**
 * A claim outlives the longest attempt by this much, so a slow attempt is never made twice at once, yet a
 * worker that died mid-attempt leaves the delivery for others within minutes.
 */
export const LEASE_MARGIN_MS = 60_000;

const RESULT: Record<DeliveryOutcome['status'], AttemptResult> = {
  delivered: 'delivered',
  pending: 'retry_scheduled',
  failed: 'failed',
};

/**
 * One round of the delivery loop: claims as many due deliveries as there are free slots and starts one
 * attempt of each, without waiting for them. Any number of processes can run it: claims skip rows other
 * processes hold. Time comes from the clock, so a test moves a ManualClock instead of waiting for retries.
 */
export class DeliverWebhooks {
  constructor(private readonly deps: DeliverWebhookDependencies) {}

  /** Always false: the loop pauses, and the end of an attempt (a free slot) wakes it. */
  async execute(): Promise<boolean> {
    const { attempts, concurrency, queue, clock, settings } = this.deps;
    const capacity = concurrency - attempts.size;
    if (capacity <= 0) return false;
    const now = clock.now();
    const claimed = await queue.claimDue(
      now,
      capacity,
      new Date(now.getTime() + settings.timeoutMs + LEASE_MARGIN_MS),
    );
    for (const delivery of claimed) attempts.run(() => this.attempt(delivery));
    return false;
  }

  /**
   * POSTs the stored body, signed now, and records what came back. The exact bytes stored are sent: the
   * receiver verifies the signature over the raw body.
   */
  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const { queue, sender, clock, logger, observer, settings } = this.deps;
    const attemptedAt = clock.now();
    const result: SendResult =
      delivery.url === null
        ? { error: 'the endpoint has no URL', durationMs: 0 }
        : await sender.post(
            delivery.url,
            delivery.payload,
            {
              'Content-Type': 'application/json',
              'User-Agent': settings.userAgent,
              [SIGNATURE_HEADER]: signatureHeader(delivery.secret, delivery.payload, attemptedAt),
            },
            settings.timeoutMs,
          );
    const statusCode = 'statusCode' in result ? result.statusCode : undefined;
    const outcome = outcomeOfAttempt(delivery.attemptNumber, statusCode, clock.now());
    const applied = await queue.recordAttempt(
      {
        deliveryId: delivery.deliveryId,
        number: delivery.attemptNumber,
        leaseUntil: delivery.leaseUntil,
        attemptedAt,
        url: delivery.url ?? '',
        ...result,
      },
      outcome,
    );
    observer?.attemptFinished(RESULT[outcome.status], result.durationMs);
    logger.info(
      {
        delivery_id: delivery.deliveryId,
        event_id: delivery.eventId,
        attempt: delivery.attemptNumber,
        status_code: statusCode,
        error: 'error' in result ? result.error : undefined,
        duration_ms: result.durationMs,
        outcome: outcome.status,
        ...(outcome.status === 'pending' && { next_attempt_at: outcome.nextAttemptAt.toISOString() }),
        ...(!applied && { superseded: true }),
      },
      'webhook attempt',
    );
  }
}
