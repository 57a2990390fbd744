import type { Clock, Logger } from '@sika/platform';
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

/** Claiming due deliveries and making one attempt of each: what the delivery workers run. */
export function webhookDeliverer({
  queue,
  sender,
  clock,
  logger,
  observer,
  settings,
}: DeliverWebhookDependencies) {
  return {
    claimDue(limit: number): Promise<ClaimedDelivery[]> {
      const now = clock.now();
      return queue.claimDue(now, limit, new Date(now.getTime() + settings.timeoutMs + LEASE_MARGIN_MS));
    },

    /**
     * POSTs the stored body, signed now, and records what came back. The exact bytes stored are sent: the
     * receiver verifies the signature over the raw body.
     */
    async attempt(delivery: ClaimedDelivery): Promise<void> {
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
    },
  };
}

export type WebhookDeliverer = ReturnType<typeof webhookDeliverer>;
