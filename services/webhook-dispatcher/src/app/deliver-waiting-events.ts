import { newId, type Clock, type Logger } from '@sika/platform';
import type { Endpoint, EventStoreTransactions } from './ports';

/** How far back events stored while the endpoint had no URL are still sent: Stripe retries for 3 days. */
export const WAITING_EVENTS_MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Once an endpoint has a URL, sends it the events of its merchant and mode stored while it had none (or did
 * not exist yet: a live endpoint is created when the merchant first reads its secret), oldest first and due
 * now, so that going live loses no event. Events already scheduled are left as they are, so running it again
 * changes nothing.
 */
export class DeliverWaitingEvents {
  constructor(
    private readonly deps: { transactions: EventStoreTransactions; clock: Clock; logger: Logger },
  ) {}

  async execute(endpoint: Endpoint): Promise<void> {
    if (endpoint.url === null) return;
    const { transactions, clock, logger } = this.deps;
    const now = clock.now();
    const since = new Date(now.getTime() - WAITING_EVENTS_MAX_AGE_MS);
    const scheduled = await transactions.run(async (store) => {
      const eventIds = await store.undeliveredEvents(endpoint.scope, endpoint.id, since);
      for (const eventId of eventIds) {
        await store.scheduleDelivery({ id: newId('dlv'), eventId, endpointId: endpoint.id, dueAt: now });
      }
      return eventIds.length;
    });
    if (scheduled > 0) {
      logger.info(
        { endpoint_id: endpoint.id, merchant_id: endpoint.scope.merchantId, events: scheduled },
        'events stored without a URL scheduled for delivery',
      );
    }
  }
}
