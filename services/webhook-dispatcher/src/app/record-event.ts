import { newId, type Clock, type Logger } from '@sika/platform';
import { buildEvent, type RecordChange } from '../domain/event';
import type { EventStore } from './ports';

/**
 * Turns one status change (a payment's or a payout's) into one stored event, and schedules its delivery now when the
 * merchant's endpoint for that mode has a URL. The consumer runs it in the transaction that records the
 * message in its inbox; the unique source message id is a second guard against a second event.
 */
export class RecordEvent {
  constructor(private readonly deps: { clock: Clock; logger: Logger }) {}

  async execute(store: EventStore, message: { id: string; body: RecordChange }): Promise<void> {
    const { clock, logger } = this.deps;
    const now = clock.now();
    const event = buildEvent({
      id: newId('evt'),
      sourceMessageId: message.id,
      change: message.body,
      receivedAt: now,
    });
    const { stored, scheduled } = await store.storeEvent(event, { id: newId('dlv'), dueAt: now });
    if (!stored) {
      logger.info({ message_id: message.id }, 'event already stored for this message');
      return;
    }
    logger.info(
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
