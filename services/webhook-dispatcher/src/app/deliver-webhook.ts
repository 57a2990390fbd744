import type { BackgroundTasks, Clock, Logger } from '@sika/platform';
import { outcomeOfAttempt, type DeliveryOutcome } from '../domain/retry-schedule';
import { SIGNATURE_HEADER, signatureHeader } from '../domain/signature';
import { signingSecrets } from '../domain/webhook-secret';
import type {
  AttemptResult,
  ClaimedDelivery,
  DeliveryObserver,
  DeliveryQueue,
  SendResult,
  WebhookSender,
} from './ports';
import type { WebhookTargets } from './webhook-targets';

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
  /**
   * Attempts in flight at most per endpoint in this process (its DNS lookup included): an endpoint whose host
   * never answers holds this many slots, never all of them.
   */
  endpointConcurrency: number;
  queue: DeliveryQueue;
  sender: WebhookSender;
  /** Where deliveries may go: vetted again at every attempt. */
  targets: WebhookTargets;
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

/** The end of a lease taken at `now`, whether by a claim or by the transaction that scheduled the delivery. */
export function leaseEnd(now: Date, timeoutMs: number): Date {
  return new Date(now.getTime() + timeoutMs + LEASE_MARGIN_MS);
}

const RESULT: Record<DeliveryOutcome['status'], AttemptResult> = {
  delivered: 'delivered',
  pending: 'retry_scheduled',
  failed: 'failed',
};

/**
 * One round of the delivery loop: claims as many due deliveries as there are free slots and starts one
 * attempt of each, without waiting for them. Any number of processes can run it: claims skip rows other
 * processes hold. Deliveries handed over by the transaction that scheduled them already claimed take the free
 * slots first, with no claim. Time comes from the clock, so a test moves a ManualClock instead of waiting for
 * retries.
 */
export class DeliverWebhooks {
  /** Handed over, waiting for a free slot. */
  private readonly handedOver: ClaimedDelivery[] = [];
  /** The last claim filled every slot it was given: more deliveries may be due. */
  private lastClaimFull = false;
  /** Attempts in flight per endpoint id (absent when none). */
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly deps: DeliverWebhookDependencies) {}

  /** Always false: the loop pauses, and the end of an attempt (a free slot) wakes it if there may be more. */
  async execute(): Promise<boolean> {
    const { attempts, concurrency, endpointConcurrency, queue, clock, settings } = this.deps;
    this.startHandedOver();
    const capacity = concurrency - attempts.size;
    if (capacity <= 0) return false;
    const now = clock.now();
    const claimed = await queue.claimDue(now, capacity, leaseEnd(now, settings.timeoutMs), {
      perEndpoint: endpointConcurrency,
      inFlight: this.inFlight,
    });
    this.lastClaimFull = claimed.length === capacity;
    for (const delivery of claimed) this.start(delivery);
    return false;
  }

  /**
   * Deliveries this process claimed in the transaction that scheduled them, once it committed: attempted at
   * once within the concurrency bound, the rest as slots free up. One never attempted (the process stopped)
   * is claimed by any worker when its lease ends, like one whose worker died after a claim.
   */
  handOver(deliveries: ClaimedDelivery[]): void {
    this.handedOver.push(...deliveries);
    this.startHandedOver();
  }

  /**
   * Called as an attempt ends: its slot goes to a delivery handed over, if one waits. True when the loop
   * should claim now, its last claim having filled every slot; otherwise its next poll is soon enough, and a
   * handed-over delivery costs no claim at all.
   */
  slotFreed(): boolean {
    this.startHandedOver();
    return this.handedOver.length === 0 && this.lastClaimFull;
  }

  /** Handed-over deliveries in order, but for those of an endpoint at its share, which wait for its next free slot. */
  private startHandedOver(): void {
    const { attempts, concurrency, endpointConcurrency } = this.deps;
    let index = 0;
    while (attempts.size < concurrency && index < this.handedOver.length) {
      const delivery = this.handedOver[index]!;
      if ((this.inFlight.get(delivery.endpointId) ?? 0) >= endpointConcurrency) {
        index += 1;
        continue;
      }
      this.handedOver.splice(index, 1);
      this.start(delivery);
    }
  }

  private start(delivery: ClaimedDelivery): void {
    const { endpointId } = delivery;
    this.inFlight.set(endpointId, (this.inFlight.get(endpointId) ?? 0) + 1);
    this.deps.attempts.run(async () => {
      try {
        await this.attempt(delivery);
      } finally {
        const left = (this.inFlight.get(endpointId) ?? 1) - 1;
        if (left > 0) this.inFlight.set(endpointId, left);
        else this.inFlight.delete(endpointId);
      }
    });
  }

  /**
   * POSTs the stored body, signed now, and records what came back. The exact bytes stored are sent: the
   * receiver verifies the signature over the raw body.
   */
  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const { queue, clock, logger, observer } = this.deps;
    const attemptedAt = clock.now();
    const result = await this.send(delivery, attemptedAt);
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
    // A delivered attempt is routine (debug, counted by the metric above); retries and failures stay visible.
    logger[outcome.status === 'delivered' && applied ? 'debug' : 'info'](
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

  /**
   * A URL the target rules refuse, or whose host does not resolve, is a failed attempt like a refused
   * connection: recorded with its reason and retried on the schedule (the merchant may fix the URL or the
   * DNS meanwhile), and nothing is sent.
   */
  private async send(delivery: ClaimedDelivery, attemptedAt: Date): Promise<SendResult> {
    const { sender, targets, settings } = this.deps;
    if (delivery.url === null) return { error: 'the endpoint has no URL', durationMs: 0 };
    const target = await targets.vet(delivery.url, delivery.livemode);
    if ('refused' in target) return { error: `refused: url ${target.refused}`, durationMs: 0 };
    if ('unresolved' in target) return { error: target.unresolved, durationMs: 0 };
    const secrets = signingSecrets(delivery.secret, delivery.previousSecret, attemptedAt);
    return sender.post(
      { url: delivery.url, address: target.address },
      delivery.payload,
      {
        'Content-Type': 'application/json',
        'User-Agent': settings.userAgent,
        [SIGNATURE_HEADER]: signatureHeader(secrets, delivery.payload, attemptedAt),
      },
      settings.timeoutMs,
    );
  }
}
