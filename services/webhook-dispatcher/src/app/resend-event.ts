import { newId, type Clock, type Logger, type RateLimitPolicy } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import { deliverableEndpoint } from './deliverable-endpoint';
import { countManualSend } from './manual-send-limit';
import { eventInScope } from './get-event';
import type { EventReader, EventStoreTransactions, EventView } from './ports';

/**
 * Sends an event again, as Stripe's resend does: the same `evt_` id and body, so a receiver that already
 * processed it recognises it. Its delivery becomes pending and due now whatever its state; the worker that
 * claims it reads the endpoint's current URL and secret, and numbers the attempt after the earlier ones.
 * From there the ordinary rule applies: a 2xx delivers it, a failure waits for the next retry of the
 * schedule, or fails it after the sixth attempt. An event stored while the endpoint had no URL gets its
 * first delivery.
 */
export class ResendEvent {
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

  async execute(scope: Scope, eventId: string): Promise<EventView> {
    const { reader, transactions, clock, logger, manualSends } = this.deps;
    await eventInScope(reader, scope, eventId, 'event_id');
    const now = clock.now();
    await transactions.run(async (store) => {
      const endpoint = await deliverableEndpoint(store, scope);
      await countManualSend(store, endpoint.id, now, manualSends);
      await store.scheduleDelivery({
        id: newId('dlv'),
        eventId,
        endpointId: endpoint.id,
        dueAt: now,
      });
    });
    logger.info({ event_id: eventId, merchant_id: scope.merchantId }, 'event resent');
    return eventInScope(reader, scope, eventId, 'event_id');
  }
}
