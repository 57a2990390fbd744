import { newId, type Clock, type Logger, type RateLimitPolicy } from '@sika/platform';
import { buildTestEvent } from '../domain/event';
import type { Scope } from '@sika/platform/pure';
import { deliverableEndpoint } from './deliverable-endpoint';
import { countManualSend } from './manual-send-limit';
import { eventInScope } from './get-event';
import type { EventReader, EventStoreTransactions, EventView } from './ports';

/**
 * Records a `webhook.test` event and schedules its delivery now, in one transaction: from there it is an
 * event like the others (signed, retried, listed, resendable), so the merchant tests the real path.
 */
export class SendTestEvent {
  constructor(
    private readonly deps: {
      reader: EventReader;
      transactions: EventStoreTransactions;
      clock: Clock;
      logger: Logger;
      /** Test events and resends allowed per endpoint and window. */
      manualSends: RateLimitPolicy;
    },
  ) {}

  async execute(scope: Scope): Promise<EventView> {
    const { reader, transactions, clock, logger, manualSends } = this.deps;
    const now = clock.now();
    const event = buildTestEvent({ id: newId('evt'), scope, createdAt: now });
    await transactions.run(async (store) => {
      const endpoint = await deliverableEndpoint(store, scope);
      await countManualSend(store, endpoint.id, now, manualSends);
      await store.insertEvent(event);
      await store.scheduleDelivery({
        id: newId('dlv'),
        eventId: event.id,
        endpointId: endpoint.id,
        dueAt: now,
      });
    });
    logger.info({ event_id: event.id, merchant_id: scope.merchantId }, 'test event stored');
    return eventInScope(reader, scope, event.id, 'event_id');
  }
}
