import { newId, type Clock, type Logger } from '@sika/platform';
import { buildEvent, type RecordChange } from '../domain/event';
import { leaseEnd } from './deliver-webhook';
import type { DeliveryObserver, EventRecorder } from './ports';

/**
 * Turns one status change (a payment's or a payout's) into one stored event, and schedules its delivery now when the
 * merchant's endpoint for that mode has a URL: claimed by this process with the lease a worker's claim takes,
 * so its first attempt follows the commit without a claim. The unique source message id applies a message
 * once: the consumer runs this without an inbox row or a transaction (see events-consumers.ts).
 */
export class RecordEvent {
  constructor(
    private readonly deps: {
      recorder: EventRecorder;
      clock: Clock;
      logger: Logger;
      /** WEBHOOK_TIMEOUT: the lease is the worker's. */
      attemptTimeoutMs: number;
      observer?: DeliveryObserver;
    },
  ) {}

  async execute(message: { id: string; body: RecordChange }): Promise<void> {
    const { recorder, clock, logger, attemptTimeoutMs, observer } = this.deps;
    const now = clock.now();
    const event = buildEvent({
      id: newId('evt'),
      sourceMessageId: message.id,
      change: message.body,
      receivedAt: now,
    });
    const { stored, scheduled } = await recorder.storeEvent(event, {
      id: newId('dlv'),
      createdAt: now,
      leaseUntil: leaseEnd(now, attemptTimeoutMs),
    });
    if (!stored) {
      logger.info({ message_id: message.id }, 'event already stored for this message');
      return;
    }
    observer?.eventStored(event.type);
    // Routine: counted by the metric above, logged at debug (every paid payment stores two events).
    logger.debug(
      {
        event_id: event.id,
        type: event.type,
        merchant_id: event.scope.merchantId,
        scheduled,
      },
      'event stored',
    );
  }
}
